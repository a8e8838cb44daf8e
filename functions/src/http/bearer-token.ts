/**
 * Verifies `Authorization: Bearer <ID token>` with firebase-admin's `verifyIdToken`
 * (signature, issuer, audience and expiry against the configured identity project).
 *
 * firebase-admin is imported on the first token, not at cold start: most requests to public
 * operations carry none, and the auth-config and docs functions must start fast.
 *
 * Revocation and disabled accounts are not looked up per request (`checkRevoked` stays off): the
 * lookup is a round trip to Identity Toolkit on every call, for a window an ID token's one-hour
 * lifetime already bounds. docs/authentication.md gives the reasoning; scripts/bench/check-revoked.ts
 * measures the cost.
 */
import type { Auth, DecodedIdToken } from 'firebase-admin/auth';

export interface Caller {
  uid: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  signInProvider?: string;
}

/** Who a record says did something: the caller's uid, email and name, or `anonymous` without a valid token. */
export function actorOf(caller: Caller | undefined): { uid: string; email?: string; name?: string } {
  if (!caller) return { uid: 'anonymous' };
  return { uid: caller.uid, ...(caller.email ? { email: caller.email } : {}), ...(caller.name ? { name: caller.name } : {}) };
}

export type TokenCheck =
  /** No `Authorization` header, or one of another scheme (`Basic …`): no bearer credentials at all. */
  | { outcome: 'absent' }
  | { outcome: 'valid'; caller: Caller }
  /** The client's fault: a malformed header (`invalid_request`), or a token that is bad or expired. */
  | { outcome: 'rejected'; code: 'invalid_request' | 'invalid_token' | 'token_expired'; reason: string }
  /** The verifier cannot judge the token for now (Google's keys or backend out of reach); the token may be fine. */
  | { outcome: 'unavailable'; trouble: unknown }
  /** The verifier cannot judge any token until the server's configuration is fixed. */
  | { outcome: 'misconfigured'; trouble: unknown };

/** What verifies a token: firebase-admin's `Auth`, or one a test builds with its own app options. */
export type TokenVerifier = Pick<Auth, 'verifyIdToken'>;

/** The scheme of an `Authorization` header: what precedes the first whitespace, in any case. */
const schemeOf = (authorization: string) => /^\S*/.exec(authorization)![0].toLowerCase();

/** RFC 6750 `b64token`; anything else after `Bearer` is malformed. */
const bearerHeader = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** firebase-admin error codes that are about the token (or its user) rather than the verifier. */
const tokenFaults = new Set([
  'auth/argument-error',
  'auth/invalid-argument',
  'auth/id-token-revoked',
  'auth/user-disabled',
  'auth/user-not-found',
]);

/**
 * How firebase-admin 14 says it could not fetch Google's public keys: with the code of a bad
 * token (`auth/argument-error`, because its JWT library turns the key callback's error into a
 * verification error) and the key fetcher's own message, which is all that tells the two apart.
 * The unit tests make the real firebase-admin fail both ways (no connection, an error answer),
 * so an upgrade that rewords these fails there rather than sending users back to sign-in.
 */
const keyFetchFailure = /^Error (while making request|fetching public keys for Google certs|fetching Json Web Keys): /;

/**
 * Codes of a verifier that may answer shortly: the network (`app/…`, from a user lookup, which
 * the Authentication emulator always makes) or Google's backend failing (`auth/internal-error`).
 */
const transientCodes = new Set(['app/network-error', 'app/network-timeout', 'auth/internal-error']);

/**
 * The longest a request waits for a verdict on its token. firebase-admin sets no timeout on its
 * fetch of Google's keys, so an endpoint that accepts the connection and never answers would hold
 * every protected request until the platform ends it. Its retries of a refused or failing fetch
 * take a few seconds, well inside this.
 */
export const verdictDeadlineMs = 10_000;

/**
 * Judges an `Authorization` header. Only a token the verifier refuses is the client's fault; a
 * verifier that cannot verify (or not within `deadlineMs`) says so, because answering "invalid
 * token" to a valid one sends people to sign in again, which cannot help.
 */
export async function checkBearerToken(
  authorization: string | undefined,
  projectId: string,
  verifier?: TokenVerifier,
  { deadlineMs = verdictDeadlineMs } = {},
): Promise<TokenCheck> {
  if (authorization === undefined || authorization === '') return { outcome: 'absent' };
  // RFC 6750 § 3.1: a request with another scheme carries no bearer credentials, and is answered as such.
  if (schemeOf(authorization) !== 'bearer') return { outcome: 'absent' };
  const token = bearerHeader.exec(authorization)?.[1];
  if (!token) {
    return { outcome: 'rejected', code: 'invalid_request', reason: 'The Authorization header is "Bearer" without one b64token.' };
  }
  if (!projectId) {
    return {
      outcome: 'misconfigured',
      trouble: new Error('No identity project is configured: set IDP_PROJECT_ID or run inside a project.'),
    };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const deadline = new Promise<TokenCheck>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      const trouble = new Error(`No verdict on the ID token within ${deadlineMs} ms: Google's key endpoint did not answer.`);
      resolve({ outcome: 'unavailable', trouble });
    }, deadlineMs);
  });
  const verdict = (async (): Promise<TokenCheck> => {
    try {
      const decoded = await (verifier ?? (await verifierFor(projectId))).verifyIdToken(token);
      return { outcome: 'valid', caller: callerFrom(decoded) };
    } catch (error) {
      return judgeFailure(error);
    }
  })();
  try {
    return await Promise.race([verdict, deadline]);
  } finally {
    clearTimeout(timer);
    // After the deadline the request has its answer; a bug the verdict throws later is still logged.
    if (timedOut) verdict.catch((error: unknown) => console.error('A late ID token verdict failed:', error));
  }
}

/** Sorts firebase-admin's failures into the token's fault, the verifier's passing trouble, or the server's setup. */
function judgeFailure(error: unknown): TokenCheck {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^(auth|app)\//.test(code)) throw error; // not firebase-admin's: a bug
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'auth/id-token-expired')
    return { outcome: 'rejected', code: 'token_expired', reason: 'The ID token has expired.' };
  if (code === 'auth/argument-error' && keyFetchFailure.test(message)) return { outcome: 'unavailable', trouble: error };
  if (tokenFaults.has(code)) return { outcome: 'rejected', code: 'invalid_token', reason: message };
  if (transientCodes.has(code)) return { outcome: 'unavailable', trouble: error };
  return { outcome: 'misconfigured', trouble: error };
}

function callerFrom(token: DecodedIdToken): Caller {
  const caller: Caller = { uid: token.uid };
  if (typeof token.email === 'string') caller.email = token.email;
  if (typeof token.email_verified === 'boolean') caller.emailVerified = token.email_verified;
  if (typeof token['name'] === 'string') caller.name = token['name'];
  if (typeof token.firebase?.sign_in_provider === 'string') caller.signInProvider = token.firebase.sign_in_provider;
  return caller;
}

const verifiers = new Map<string, Promise<TokenVerifier>>();

/** One firebase-admin app per accepted project, named after it, created on first use. */
function verifierFor(projectId: string): Promise<TokenVerifier> {
  let verifier = verifiers.get(projectId);
  if (!verifier) {
    verifier = (async () => {
      const [{ getApps, initializeApp }, { getAuth }] = await Promise.all([
        import('firebase-admin/app'),
        import('firebase-admin/auth'),
      ]);
      const name = `idp:${projectId}`;
      const app = getApps().find((candidate) => candidate.name === name) ?? initializeApp({ projectId }, name);
      return getAuth(app);
    })();
    verifier.catch(() => verifiers.delete(projectId));
    verifiers.set(projectId, verifier);
  }
  return verifier;
}
