/**
 * Uploads a form with progress. `fetch` cannot report how much of a body has been sent, so the
 * upload goes through `XMLHttpRequest` (`upload.onprogress`), wrapped as a fetch and put through
 * the same request flow as every other API call (`authorisedFetch`: bearer header, re-check and
 * refresh on a 401, then sign in again). A `FormData` body can be sent again, so the retry works.
 * Takes its dependencies as arguments: no app state here, so it is tested without a browser.
 */
import { authorisedFetch, type AuthorisedFetchDeps } from './authorised-fetch.ts';

/** How much of the body has been sent; `total` is unknown until the browser has measured it. */
export interface UploadProgress {
  loaded: number;
  total: number | undefined;
}

/** The request flow's dependencies, without the network (the upload brings its own). */
export type UploadDeps = Omit<AuthorisedFetchDeps, 'fetch'>;

/** A fetch that also reports upload progress. */
export type ProgressFetch = (
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  onProgress: (progress: UploadProgress) => void,
) => Promise<Response>;

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** POSTs a form through the request flow; resolves to the (last) response, whatever its status. */
export function uploadForm(
  path: string,
  form: FormData,
  options: UploadOptions,
  deps: UploadDeps,
  send: ProgressFetch = xhrFetch,
): Promise<Response> {
  const onProgress = options.onProgress ?? (() => undefined);
  const fetcher = authorisedFetch({ ...deps, fetch: (input, init) => send(input, init, onProgress) });
  return fetcher(path, {
    method: 'POST',
    body: form,
    headers: { Accept: 'application/json' },
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** `getAllResponseHeaders()`'s text as `Headers`. */
export function headersOf(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** Statuses whose response may not have a body (the `Response` constructor refuses one). */
const bodiless = new Set([101, 103, 204, 205, 304]);

/** A fetch made with `XMLHttpRequest`, which can report upload progress. Rejects as fetch does: `TypeError` offline, `AbortError` aborted. */
export const xhrFetch: ProgressFetch = (input, init, onProgress) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init?.method ?? 'GET', input instanceof Request ? input.url : String(input));
    new Headers(init?.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.responseType = 'arraybuffer';
    xhr.upload.onprogress = (event) =>
      onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : undefined });
    xhr.onload = () =>
      resolve(
        new Response(bodiless.has(xhr.status) ? null : (xhr.response as ArrayBuffer), {
          status: xhr.status,
          statusText: xhr.statusText,
          headers: headersOf(xhr.getAllResponseHeaders()),
        }),
      );
    xhr.onerror = () => reject(new TypeError('The upload could not reach the server.'));
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => reject(new DOMException('The upload was stopped.', 'AbortError'));
    const signal = init?.signal;
    if (signal?.aborted) return reject(new DOMException('The upload was stopped.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send((init?.body ?? null) as XMLHttpRequestBodyInit | null);
  });
