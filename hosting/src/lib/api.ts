/**
 * How a call to the Evident API fails: a problem response becomes an `ApiError` that carries the
 * RFC 9457 body, so views can say what went wrong in the server's own words; a call that got no
 * answer is an `UnreachableError`. Every view words a failure with `messageOf`.
 */
import type { components } from '$api-types';

export type Problem = components['schemas']['Problem'];
export type AuthConfig = components['schemas']['AuthConfig'];

export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem | undefined;

  constructor(status: number, problem: Problem | undefined) {
    super(problem ? `${problem.title}: ${problem.detail ?? ''}`.trim() : `The server answered ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }
}

export const unreachable = 'The server could not be reached. Check your connection and try again.';

/** A call that never got an answer: no network, or the server is down. Pages retry these when it is back. */
export class UnreachableError extends Error {
  constructor(options?: ErrorOptions) {
    super(unreachable, options);
    this.name = 'UnreachableError';
  }
}

/**
 * What went wrong, in the server's words when it sent a problem, after `lead` (what could not be
 * done) when one is given. Every view words a failure through this, so they all read alike.
 */
export function messageOf(error: unknown, lead?: string): string {
  const reason =
    error instanceof ApiError
      ? (error.problem?.detail ?? error.problem?.title ?? error.message)
      : error instanceof Error
        ? error.message
        : String(error);
  return lead ? `${lead} ${reason}` : reason;
}

/** Turns a non-2xx response into an `ApiError` with the problem body, when there is one. */
export async function errorOf(response: Response): Promise<ApiError> {
  const isProblem = response.headers.get('Content-Type')?.startsWith('application/problem+json');
  return new ApiError(
    response.status,
    isProblem ? ((await response.json().catch(() => undefined)) as Problem | undefined) : undefined,
  );
}
