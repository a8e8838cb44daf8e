/**
 * What `checkBearerToken` makes of an `Authorization` header: no bearer credentials, a malformed
 * header, a token firebase-admin accepts or refuses, and a verifier that cannot verify (Google's
 * keys out of reach, the server set up wrong), which is never the token's fault.
 *
 * The firebase-admin cases run the real verifier with its key fetches sent to a local stand-in
 * for Google's key endpoint (test/support/google-keys.ts); the integration tests verify real
 * emulator tokens.
 */
import { FirebaseAppError } from 'firebase-admin/app';
import { FirebaseAuthError } from 'firebase-admin/auth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkBearerToken, type TokenVerifier } from '../../../functions/src/http/bearer-token.ts';
import { keyEndpointStandIn, newSigningKey, signedIdToken, type KeyAnswer, type KeyEndpoint } from '../../support/google-keys.ts';

const projectId = 'demo-unit';

/** A verifier that must not be reached. */
const untouchable: TokenVerifier = {
  verifyIdToken: () => {
    throw new Error('the verifier was called');
  },
};

/** A stand-in verifier that fails the way firebase-admin does, with the error given. */
const failingWith = (error: unknown): TokenVerifier => ({ verifyIdToken: () => Promise.reject(error) });

describe('checkBearerToken, before any verifier', () => {
  it('reports no token when there is no Authorization header', async () => {
    expect(await checkBearerToken(undefined, projectId, untouchable)).toEqual({ outcome: 'absent' });
    expect(await checkBearerToken('', projectId, untouchable)).toEqual({ outcome: 'absent' });
  });

  it.each(['Basic dXNlcjpwYXNz', 'Token abc', 'Digest username="ada"', 'Bearerabc'])(
    'reports no bearer credentials for the other scheme in %j, without calling the verifier',
    async (header) => {
      expect(await checkBearerToken(header, projectId, untouchable)).toEqual({ outcome: 'absent' });
    },
  );

  it.each(['Bearer', 'Bearer ', 'bearer\tabc', 'Bearer two words', 'Bearer abc\u00e9'])(
    'rejects the malformed bearer header %j as invalid_request, without calling the verifier',
    async (header) => {
      expect(await checkBearerToken(header, projectId, untouchable)).toEqual({
        outcome: 'rejected',
        code: 'invalid_request',
        reason: 'The Authorization header is "Bearer" without one b64token.',
      });
    },
  );

  it('reports the verifier misconfigured, without calling it, when no identity project is configured', async () => {
    expect(await checkBearerToken('Bearer abc.def.ghi', '', untouchable)).toEqual({
      outcome: 'misconfigured',
      trouble: new Error('No identity project is configured: set IDP_PROJECT_ID or run inside a project.'),
    });
  });
});

describe("checkBearerToken with firebase-admin's verifier, Google's key endpoint played by a local stand-in", () => {
  const key = newSigningKey();
  let answer: () => KeyAnswer;
  let endpoint: KeyEndpoint;

  beforeAll(async () => {
    // Tokens are signed here and checked against fetched keys, not handed to an emulator.
    vi.stubEnv('FIREBASE_AUTH_EMULATOR_HOST', '');
    endpoint = await keyEndpointStandIn(projectId, () => answer());
  });
  afterEach(() => {
    endpoint.fetches = 0;
  });
  afterAll(async () => {
    await endpoint.close();
    vi.unstubAllEnvs();
  });

  const check = async (token: string, target: 'stand-in' | 'closed port' = 'stand-in') =>
    checkBearerToken(`Bearer ${token}`, projectId, await endpoint.verifier(target));

  it('accepts a token signed with a key the endpoint serves, and says who the caller is', async () => {
    answer = () => ({ keys: { 'key-1': key.publicKey } });
    expect(await check(signedIdToken(projectId, key.privateKey))).toEqual({
      outcome: 'valid',
      caller: { uid: 'user-1', email: 'ada@example.com', emailVerified: true, signInProvider: 'password' },
    });
    expect(endpoint.fetches).toBe(1);
  });

  it('rejects a token signed with another key as invalid_token', async () => {
    answer = () => ({ keys: { 'key-1': key.publicKey } });
    const forged = signedIdToken(projectId, newSigningKey().privateKey);
    expect(await check(forged)).toEqual({
      outcome: 'rejected',
      code: 'invalid_token',
      reason:
        'Firebase ID token has invalid signature. See https://firebase.google.com/docs/auth/admin/verify-id-tokens ' +
        'for details on how to retrieve an ID token.',
    });
  });

  it('rejects a token for another project as invalid_token without fetching keys', async () => {
    answer = () => ({ keys: { 'key-1': key.publicKey } });
    const result = await check(signedIdToken('some-other-project', key.privateKey));
    expect(result).toMatchObject({ outcome: 'rejected', code: 'invalid_token' });
    expect(endpoint.fetches).toBe(0);
  });

  it('rejects an expired token as token_expired', async () => {
    answer = () => ({ keys: { 'key-1': key.publicKey } });
    const now = Math.floor(Date.now() / 1000) - 7200;
    expect(await check(signedIdToken(projectId, key.privateKey, { now }))).toEqual({
      outcome: 'rejected',
      code: 'token_expired',
      reason: 'The ID token has expired.',
    });
  });

  it('reports the verifier unavailable, not the token invalid, when the key endpoint refuses connections', async () => {
    const result = await check(signedIdToken(projectId, key.privateKey), 'closed port');
    expect(result.outcome).toBe('unavailable');
    const trouble = (result as { trouble: FirebaseAuthError }).trouble;
    // firebase-admin reports it with a bad token's code; only its message says the keys were out of reach.
    expect(trouble).toBeInstanceOf(FirebaseAuthError);
    expect(trouble.code).toBe('auth/argument-error');
    expect(trouble.message).toMatch(
      /^Error while making request: connect ECONNREFUSED 127\.0\.0\.1:\d+\. Error code: ECONNREFUSED$/,
    );
  });

  it('reports the verifier unavailable at its deadline when the key endpoint never answers, rather than hang', async () => {
    answer = () => 'never';
    const result = await checkBearerToken(
      `Bearer ${signedIdToken(projectId, key.privateKey)}`,
      projectId,
      await endpoint.verifier('stand-in'),
      {
        deadlineMs: 500,
      },
    );
    expect(result.outcome).toBe('unavailable');
    expect((result as { trouble: Error }).trouble.message).toBe(
      "No verdict on the ID token within 500 ms: Google's key endpoint did not answer.",
    );
    expect(endpoint.fetches).toBe(1);
  });

  it('reports the verifier unavailable, not the token invalid, when the key endpoint answers 500', async () => {
    answer = () => ({ status: 500, body: 'backend error' });
    const result = await check(signedIdToken(projectId, key.privateKey));
    expect(result.outcome).toBe('unavailable');
    const trouble = (result as { trouble: FirebaseAuthError }).trouble;
    expect(trouble).toBeInstanceOf(FirebaseAuthError);
    expect(trouble.code).toBe('auth/argument-error');
    expect(trouble.message).toBe('Error fetching public keys for Google certs: backend error');
    expect(endpoint.fetches).toBe(1);
  });
});

describe('checkBearerToken with a stand-in verifier throwing the errors firebase-admin constructs', () => {
  const token = 'Bearer abc.def.ghi';

  it.each([
    [
      'a network failure in a user lookup',
      new FirebaseAppError({ code: 'network-error', message: 'Error while making request: socket hang up.' }),
    ],
    ['a network timeout', new FirebaseAppError({ code: 'network-timeout', message: 'Error while making request: timeout.' })],
    [
      "Identity Toolkit's own failure",
      new FirebaseAuthError({ code: 'internal-error', message: 'An internal error has occurred.' }),
    ],
  ])('reports the verifier unavailable for %s', async (_name, error) => {
    expect(await checkBearerToken(token, projectId, failingWith(error))).toEqual({ outcome: 'unavailable', trouble: error });
  });

  it('reports the verifier misconfigured when firebase-admin has no usable credential', async () => {
    const error = new FirebaseAuthError({ code: 'invalid-credential', message: 'Must initialize app with a cert credential.' });
    expect(await checkBearerToken(token, projectId, failingWith(error))).toEqual({ outcome: 'misconfigured', trouble: error });
  });

  it.each(['user-disabled', 'id-token-revoked', 'user-not-found'])(
    'rejects the token as invalid_token for auth/%s',
    async (code) => {
      const error = new FirebaseAuthError({ code, message: 'The user record is disabled.' });
      expect(await checkBearerToken(token, projectId, failingWith(error))).toEqual({
        outcome: 'rejected',
        code: 'invalid_token',
        reason: 'The user record is disabled.',
      });
    },
  );

  it('lets an error that is not firebase-admin\u2019s through, to be answered as a bug', async () => {
    const bug = new TypeError('cannot read properties of undefined');
    await expect(checkBearerToken(token, projectId, failingWith(bug))).rejects.toBe(bug);
  });
});
