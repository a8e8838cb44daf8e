/**
 * Calls the Evident API with typed results; a problem response becomes an `ApiError` that
 * carries the RFC 9457 body, so views can say what went wrong in the server's own words.
 * Calls go through the app's authorised fetch (bearer header, 401 handling: docs/authentication.md
 * § The request flow) once the shell has set it with `useApiFetch`.
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

let apiFetch: typeof fetch = (input, init) => fetch(input, init);

/** Sets the fetch every API call goes through (the shell's authorised fetch). */
export function useApiFetch(fetcher: typeof fetch): void {
  apiFetch = fetcher;
}

/** The fetch API calls go through, for callers that need the raw response (streams, uploads). */
export const callApi: typeof fetch = (input, init) => apiFetch(input, init);

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

export async function sendJson<T>(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await apiFetch(path, {
      method,
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new UnreachableError({ cause: error });
  }
  if (response.ok) return (await response.json()) as T;
  throw await errorOf(response);
}

export async function getJson<T>(path: string, fetcher: typeof fetch = apiFetch): Promise<T> {
  return (await getAnswer<T>(path, fetcher)).body;
}

/** A GET's JSON body with the answer's headers, for callers that read one (the API version). */
export async function getAnswer<T>(path: string, fetcher: typeof fetch = apiFetch): Promise<{ body: T; headers: Headers }> {
  let response: Response;
  try {
    response = await fetcher(path, { headers: { Accept: 'application/json' } });
  } catch (error) {
    throw new UnreachableError({ cause: error });
  }
  if (response.ok) return { body: (await response.json()) as T, headers: response.headers };
  throw await errorOf(response);
}
