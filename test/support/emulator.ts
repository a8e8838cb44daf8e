/**
 * What the integration tests know about the running emulators: the mode and project under
 * test (set by scripts/test.ts), the addresses, and ID tokens of every kind — real ones from
 * the Authentication emulator, and copies of a real one with one claim made wrong.
 */
import { randomUUID } from 'node:crypto';
import { functionsRegion } from '../../functions/src/config.ts';
import { authEmulatorOrigin, functionsOrigin, hostingOrigin, type Mode } from '../../scripts/lib/emulators.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the integration tests with npm test`);
  return value;
}

export const mode = required('EVIDENT_TEST_MODE') as Mode;
export const projectId = required('EVIDENT_TEST_PROJECT');
export const hosting = hostingOrigin;
export const functionUrl = (family: string) => `${functionsOrigin}/${projectId}/${functionsRegion}/${family}`;

export interface SignedIn {
  idToken: string;
  uid: string;
  email: string;
}

/** Creates a user in the Authentication emulator and returns its ID token. */
export async function signUp(email = `user-${randomUUID().slice(0, 8)}@example.com`): Promise<SignedIn> {
  await identityToolkit('accounts:signUp', email);
  // The token signUp returns can read as revoked: the emulator dates its auth_time from the request's start and the
  // account's validSince a moment later, so across a second boundary auth_time < validSince and checkRevoked refuses it
  // (seen as a rare 401 on a fresh user). A sign-in after the account exists has auth_time ≥ validSince.
  const body = (await identityToolkit('accounts:signInWithPassword', email)) as { idToken: string; localId: string };
  return { idToken: body.idToken, uid: body.localId, email };
}

/** One call to the auth emulator's Identity Toolkit with a test user's email and password. */
async function identityToolkit(method: string, email: string): Promise<unknown> {
  const response = await fetch(`${authEmulatorOrigin}/identitytoolkit.googleapis.com/v1/${method}?key=local-test`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'local-test-only', returnSecureToken: true }),
  });
  if (!response.ok) throw new Error(`auth emulator ${method} failed: ${response.status} ${await response.text()}`);
  return response.json();
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A copy of a real token with some claims changed, signed the way the emulator signs (not at all). */
export function alteredToken(
  token: string,
  changes: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'none', typ: 'JWT' },
  signature = '',
): string {
  return `${base64url(header)}.${base64url({ ...claimsOf(token), ...changes })}.${signature}`;
}

export const tokenKinds = ['none', 'malformed', 'expired', 'wrongAudience', 'wrongIssuer', 'badSignature', 'valid'] as const;
export type TokenKind = (typeof tokenKinds)[number];

/** A token of every kind, all for one real user of the project under test. */
export async function tokensOfEveryKind(): Promise<{ user: SignedIn; tokens: Record<TokenKind, string | undefined> }> {
  const user = await signUp();
  const now = Math.floor(Date.now() / 1000);
  return {
    user,
    tokens: {
      none: undefined,
      malformed: 'this-is-not-a-jwt',
      expired: alteredToken(user.idToken, { iat: now - 7200, auth_time: now - 7200, exp: now - 3600 }),
      wrongAudience: alteredToken(user.idToken, { aud: 'some-other-project' }),
      wrongIssuer: alteredToken(user.idToken, { iss: 'https://securetoken.google.com/some-other-project' }),
      badSignature: alteredToken(user.idToken, {}, { alg: 'RS256', kid: 'no-such-key', typ: 'JWT' }, 'bm90LWEtc2lnbmF0dXJl'),
      valid: user.idToken,
    },
  };
}

export const bearer = (token: string | undefined): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
