/**
 * Calls the Evident API with typed results; a problem response becomes an `ApiError` that
 * carries the RFC 9457 body, so views can say what went wrong in the server's own words.
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

export async function getJson<T>(path: string, fetcher: typeof fetch = fetch): Promise<T> {
  let response: Response;
  try {
    response = await fetcher(path, { headers: { Accept: 'application/json' } });
  } catch {
    throw new Error('The server could not be reached. Check your connection and try again.');
  }
  if (response.ok) return (await response.json()) as T;
  const isProblem = response.headers.get('Content-Type')?.startsWith('application/problem+json');
  throw new ApiError(response.status, isProblem ? ((await response.json()) as Problem) : undefined);
}
