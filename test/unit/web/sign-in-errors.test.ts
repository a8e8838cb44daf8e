/** How the web app words a failed sign-in: known Firebase codes, a blocking function's refusal, anything else. */
import { describe, expect, it } from 'vitest';
import { signInError } from '../../../hosting/src/lib/sign-in-errors.ts';

/** An error as the Firebase SDK raises it: a `code`, and a message that ends with the code. */
const firebaseError = (code: string, message: string) => Object.assign(new Error(`Firebase: ${message} (${code}).`), { code });

describe('signInError', () => {
  it("shows a blocking function's refusal in the function's own words", () => {
    const answer = JSON.stringify({ error: { message: 'ana@example.org may not sign in here.', status: 'PERMISSION_DENIED' } });
    const error = firebaseError(
      'auth/internal-error',
      `((HTTP request to http://127.0.0.1:5001/demo-evident-protected/us-central1/beforeCreate returned HTTP error 403: ${answer}))`,
    );
    expect(signInError(error)).toBe('Sign-in was refused: ana@example.org may not sign in here.');
  });

  it('keeps quotes and escapes of the refusal intact', () => {
    const answer = JSON.stringify({
      error: { message: 'The "example.com" domain only; ask Ana\\Ops.', status: 'PERMISSION_DENIED' },
    });
    const error = firebaseError(
      'auth/internal-error',
      `BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to x returned HTTP error 403: ${answer}))`,
    );
    expect(signInError(error)).toBe('Sign-in was refused: The "example.com" domain only; ask Ana\\Ops.');
  });

  it('words the codes a person can act on, and passes anything else through', () => {
    expect(signInError(firebaseError('auth/popup-closed-by-user', 'closed'))).toBe('Sign-in was cancelled.');
    expect(signInError(firebaseError('auth/network-request-failed', 'offline'))).toBe(
      'The identity provider could not be reached. Check your connection and try again.',
    );
    expect(signInError(firebaseError('auth/internal-error', 'Something else'))).toBe(
      'Sign-in failed: Firebase: Something else (auth/internal-error).',
    );
    expect(signInError('odd')).toBe('Sign-in failed: odd');
  });
});
