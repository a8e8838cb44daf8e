/**
 * What a failed sign-in means, in words. Firebase errors carry a `code`; a refusal by the
 * identity project's blocking functions (docs/authentication.md § Who may sign in) arrives as
 * `auth/internal-error` whose message wraps the function's own answer, which is the part worth
 * showing ("someone@example.org may not sign in here.").
 */
export function signInError(error: unknown): string {
  const code = (error as { code?: string }).code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'auth/popup-closed-by-user' || code === 'auth/cancelled-popup-request') return 'Sign-in was cancelled.';
  if (code === 'auth/popup-blocked') return 'The browser blocked the sign-in window. Allow pop-ups for this site and try again.';
  if (code === 'auth/unauthorized-domain') return 'This site is not on the identity project’s list of authorised domains.';
  if (code === 'auth/network-request-failed')
    return 'The identity provider could not be reached. Check your connection and try again.';
  const refusal = blockingFunctionMessage(message);
  if (refusal) return `Sign-in was refused: ${refusal}`;
  return `Sign-in failed: ${message}`;
}

/** The blocking function's message inside `… returned HTTP error 403: {"error":{"message":"…"}}`, if there is one. */
function blockingFunctionMessage(message: string): string | undefined {
  if (!message.includes('BLOCKING_FUNCTION') && !message.includes('returned HTTP error')) return undefined;
  const quoted = /"message"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(message)?.[1];
  if (!quoted) return undefined;
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}
