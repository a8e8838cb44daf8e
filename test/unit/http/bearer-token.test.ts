/**
 * What `checkBearerToken` decides before firebase-admin sees a token. Verification itself
 * (signature, audience, issuer, expiry) runs against the Authentication emulator in the
 * integration tests.
 */
import { describe, expect, it } from 'vitest';
import { checkBearerToken } from '../../../functions/src/http/bearer-token.ts';

describe('checkBearerToken', () => {
  it('reports no token when there is no Authorization header', async () => {
    expect(await checkBearerToken(undefined, 'demo-unit')).toEqual({ outcome: 'absent' });
    expect(await checkBearerToken('', 'demo-unit')).toEqual({ outcome: 'absent' });
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer two words', 'Token abc', 'Bearer abc\u00e9'])(
    'rejects the malformed header %j as invalid_token without calling the verifier',
    async (header) => {
      expect(await checkBearerToken(header, 'demo-unit')).toEqual({
        outcome: 'rejected',
        code: 'invalid_token',
        reason: 'The Authorization header is not "Bearer <token>".',
      });
    },
  );

  it('rejects any token as invalid_token, flagged as verifier trouble, when no identity project is configured', async () => {
    const check = await checkBearerToken('Bearer abc.def.ghi', '');
    expect(check).toMatchObject({
      outcome: 'rejected',
      code: 'invalid_token',
      reason: 'No identity project is configured: set IDP_PROJECT_ID or run inside a project.',
    });
    expect(check.outcome === 'rejected' && check.verifierTrouble).toBeInstanceOf(Error);
  });
});
