/** Log entries never carry a credential, wherever one appears in the facts they are given. */
import { describe, expect, it } from 'vitest';
import { logEntries, redact } from '../../functions/src/logs.ts';

const jwt = 'eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJhZGEifQ.';
const signedJwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLWJ5dGVz';

describe('redact', () => {
  it('replaces JWTs, signed or not', () => {
    expect(redact(`token ${signedJwt} here`)).toBe('token [redacted-jwt] here');
    expect(redact(`token ${jwt}`)).toBe('token [redacted-jwt]');
  });

  it('replaces whatever follows "Bearer", in any case', () => {
    expect(redact('Authorization: Bearer abc.def-ghi')).toBe('Authorization: Bearer [redacted]');
    expect(redact('header "bearer opaque-token-123", next')).toBe('header "bearer [redacted]", next');
  });

  it('leaves ordinary text alone', () => {
    expect(redact('Firebase ID token has incorrect "aud" (audience) claim.')).toBe(
      'Firebase ID token has incorrect "aud" (audience) claim.',
    );
  });
});

describe('log entries', () => {
  const facts = { requestId: 'req-1', method: 'GET', path: `/api/docs/page/${signedJwt}`, operationId: 'getDocPage' };

  it('redact tokens in every field, the path and the stack included', () => {
    const error = new Error(`verify failed for ${signedJwt}`);
    const entries = [
      logEntries.requestFailed(facts, error),
      logEntries.tokenRejected(facts, 'invalid_token', `bad token ${jwt}`),
      logEntries.verifierTrouble(facts, error),
      logEntries.frameworkRejected(facts, 400, 'entity.parse.failed'),
      logEntries.familyLoadFailed('docs', error),
    ];
    for (const entry of entries) {
      const text = JSON.stringify(entry);
      expect(text).not.toContain(signedJwt);
      expect(text).not.toContain(jwt);
    }
  });

  it('name the event and carry the request facts as structured fields', () => {
    expect(
      logEntries.tokenRejected(
        { requestId: 'r', method: 'GET', path: '/api/auth/me' },
        'token_expired',
        'The ID token has expired.',
      ),
    ).toEqual({
      severity: 'INFO',
      message: 'token rejected',
      event: 'token_rejected',
      requestId: 'r',
      method: 'GET',
      path: '/api/auth/me',
      code: 'token_expired',
      reason: 'The ID token has expired.',
    });
  });
});
