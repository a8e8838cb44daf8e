/**
 * The Evident API as the web app calls it: a client typed by the description's `paths`
 * (openapi-fetch over the generated types), so a call's path, parameters, body and answer cannot
 * disagree with the API. A non-2xx answer throws an `ApiError` with the server's problem, a call
 * that got no answer an `UnreachableError`, as every page expects. Streams, uploads and downloads
 * need the raw response and call the authorised fetch themselves, at a path built by `apiPath`.
 */
import createClient, { createFinalURL, defaultPathSerializer, type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '$api-types';
import { errorOf, UnreachableError } from './api.ts';

export type ApiClient = Client<paths, 'application/json'>;

/**
 * A query as the web app has always written it (`URLSearchParams`: a space is `+`), in the order
 * its parameters are given; an absent one is left out, a list repeats its name.
 */
export function searchOf(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const each of [value].flat()) if (each !== undefined && each !== null) search.append(name, String(each));
  }
  return search.toString();
}

type Operations<Path extends keyof paths> = NonNullable<paths[Path][Exclude<keyof paths[Path], 'parameters'>]>;
type ParametersOf<Operation> = Operation extends { parameters: infer Parameters }
  ? (Parameters extends { path: infer Path } ? { path: Path } : { path?: never }) &
      (Parameters extends { query?: infer Query } ? { query?: Query } : { query?: never })
  : never;
type PathParameters<Path extends keyof paths> = ParametersOf<Operations<Path>>;

/**
 * The address of one of the API's paths with its parameters, written as the client writes its
 * own: for what calls the authorised fetch itself (a stream, an upload, a download).
 */
export function apiPath<Path extends keyof paths>(
  template: Path,
  ...[parameters]: object extends PathParameters<Path> ? [PathParameters<Path>?] : [PathParameters<Path>]
): string {
  return createFinalURL(template, {
    baseUrl: '',
    params: (parameters ?? {}) as { path?: Record<string, unknown>; query?: Record<string, unknown> },
    querySerializer: searchOf,
    pathSerializer: defaultPathSerializer,
  });
}

/** Every answer but a 2xx becomes the error the pages show; a call that got none, `UnreachableError`. */
const answers: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await errorOf(response);
  },
  onError: ({ error }) => new UnreachableError({ cause: error }),
};

/**
 * The client over `fetcher` (the authorised fetch, or the plain network for what is public).
 * openapi-fetch hands its fetch a `Request`, whose URL is absolute; the authorised fetch signs only
 * a path of this site, so the call reaches it as the path and init the request was made from.
 * `origin` is the page's; tests, which have none, name one.
 */
export function createApiClient(fetcher: typeof fetch, origin = location.origin): ApiClient {
  const client = createClient<paths, 'application/json'>({
    baseUrl: origin,
    headers: { Accept: 'application/json' },
    querySerializer: searchOf,
    fetch: async (request) => {
      const url = new URL(request.url);
      return fetcher(url.pathname + url.search, {
        method: request.method,
        headers: request.headers,
        body: request.body ? await request.text() : undefined,
        signal: request.signal,
      });
    },
  });
  client.use(answers);
  return client;
}

/** What a call answered: the client has thrown for every answer that is not a 2xx. */
export async function dataOf<Data>(call: Promise<{ data?: Data }>): Promise<Data> {
  return (await call).data as Data;
}
