/**
 * Builds route families for unit tests from an OpenAPI description compiled in memory (the
 * build writes the same tables as modules), with a stand-in token verifier.
 *
 * The stand-in replaces firebase-admin's `verifyIdToken` only in unit tests, where no
 * Authentication emulator runs; the integration tests verify real emulator tokens.
 */
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { buildDocument } from '../../openapi/document.ts';
import { compileRouteTable } from '../../scripts/lib/route-tables.ts';
import type { TokenCheck } from '../../functions/src/http/bearer-token.ts';
import { rereadSettings } from '../../functions/src/config.ts';

let document: OpenAPIObject | undefined;
export const specDocument = () => (document ??= buildDocument());

export const tableOf =
  (family: string, source: OpenAPIObject = specDocument()) =>
  async () =>
    compileRouteTable(source, family);

/** Tokens the stand-in verifier knows, and what it says about each. */
export const fakeTokens = {
  valid: 'valid-token',
  /** Another person than `valid`'s, for what one person may not do alone (four eyes). */
  other: 'other-valid-token',
  expired: 'expired-token',
  invalid: 'invalid-token',
} as const;

export interface FakeVerifier {
  (authorization: string | undefined, projectId: string): Promise<TokenCheck>;
  calls: number;
}

export function fakeVerifier(): FakeVerifier {
  const verify = Object.assign(
    async (authorization: string | undefined): Promise<TokenCheck> => {
      verify.calls += 1;
      if (!authorization) return { outcome: 'absent' };
      const token = authorization.replace(/^Bearer /, '');
      if (token === fakeTokens.valid)
        return { outcome: 'valid', caller: { uid: 'user-1', email: 'ada@example.com', emailVerified: true } };
      if (token === fakeTokens.other)
        return { outcome: 'valid', caller: { uid: 'user-2', email: 'bo@example.com', emailVerified: true } };
      if (token === fakeTokens.expired) return { outcome: 'rejected', code: 'token_expired', reason: 'expired' };
      return { outcome: 'rejected', code: 'invalid_token', reason: 'not a token this test knows' };
    },
    { calls: 0 },
  );
  return verify;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Sets the server's mode for the requests that follow (settings are read once until told to read again). */
export function setMode(mode: 'public' | 'protected'): void {
  process.env.AUTH_REQUIRED = mode === 'protected' ? 'true' : 'false';
  process.env.IDP_PROJECT_ID = 'demo-unit';
  rereadSettings();
}

/** Sets (or, with undefined, removes) one setting for the requests that follow. */
export function setSetting(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  rereadSettings();
}
