/**
 * Verifies `Authorization: Bearer <ID token>` with firebase-admin's `verifyIdToken`
 * (signature, issuer, audience and expiry against the configured identity project).
 *
 * firebase-admin is imported on the first token, not at cold start: most requests to public
 * operations carry none, and the auth-config and docs functions must start fast.
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
  | { outcome: 'absent' }
  | { outcome: 'valid'; caller: Caller }
  | { outcome: 'rejected'; code: 'invalid_token' | 'token_expired'; reason: string; verifierTrouble?: unknown };

/** RFC 6750 `b64token`; anything else after `Bearer` is malformed. */
const bearerHeader = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** firebase-admin error codes that are about the token rather than the verifier. */
const tokenFaults = new Set([
  'auth/argument-error',
  'auth/invalid-argument',
  'auth/id-token-revoked',
  'auth/user-disabled',
  'auth/user-not-found',
]);

export async function checkBearerToken(authorization: string | undefined, projectId: string): Promise<TokenCheck> {
  if (authorization === undefined || authorization === '') return { outcome: 'absent' };
  const token = bearerHeader.exec(authorization)?.[1];
  if (!token) {
    return { outcome: 'rejected', code: 'invalid_token', reason: 'The Authorization header is not "Bearer <token>".' };
  }
  if (!projectId) {
    const trouble = new Error('No identity project is configured: set IDP_PROJECT_ID or run inside a project.');
    return { outcome: 'rejected', code: 'invalid_token', reason: trouble.message, verifierTrouble: trouble };
  }
  try {
    const decoded = await (await verifierFor(projectId)).verifyIdToken(token);
    return { outcome: 'valid', caller: callerFrom(decoded) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'auth/id-token-expired') {
      return { outcome: 'rejected', code: 'token_expired', reason: 'The ID token has expired.' };
    }
    if (typeof code === 'string' && code.startsWith('auth/')) {
      const reason = error instanceof Error ? error.message : String(error);
      // A fault in the verifier (keys unreachable, misconfiguration) still leaves the token
      // unverifiable, which the contract answers with 401; the caller logs it louder.
      return { outcome: 'rejected', code: 'invalid_token', reason, ...(tokenFaults.has(code) ? {} : { verifierTrouble: error }) };
    }
    throw error;
  }
}

function callerFrom(token: DecodedIdToken): Caller {
  const caller: Caller = { uid: token.uid };
  if (typeof token.email === 'string') caller.email = token.email;
  if (typeof token.email_verified === 'boolean') caller.emailVerified = token.email_verified;
  if (typeof token['name'] === 'string') caller.name = token['name'];
  if (typeof token.firebase?.sign_in_provider === 'string') caller.signInProvider = token.firebase.sign_in_provider;
  return caller;
}

type Verifier = Pick<Auth, 'verifyIdToken'>;
const verifiers = new Map<string, Promise<Verifier>>();

/** One firebase-admin app per accepted project, named after it, created on first use. */
function verifierFor(projectId: string): Promise<Verifier> {
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
