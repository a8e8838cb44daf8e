/**
 * The request flow for every API call (docs/authentication.md § The request flow): in protected
 * mode a call to the site's own API carries the bearer header; on a 401 the client re-checks
 * `/api/auth/config`, refreshes the token and tries once more, and only if the 401 persists asks
 * the person to sign in again.
 * Pure over its dependencies, so the flow is tested without a browser or an identity provider.
 */

export interface AuthorisedFetchDeps {
  /** The network (the browser's `fetch`). */
  fetch: typeof fetch;
  /** Whether the server currently requires a token, as last read from `/api/auth/config`. */
  authRequired: () => boolean;
  /** Reads `/api/auth/config` again; resolves to the new `authRequired`. */
  recheckConfig: () => Promise<boolean>;
  /** The session's ID token (`forceRefresh` asks the identity provider for a new one), or none. */
  token: (forceRefresh: boolean) => Promise<string | undefined>;
  /** Called when a 401 survives the re-check and the refresh: the session is no longer good. */
  signInAgain: () => void;
}

export function authorisedFetch(deps: AuthorisedFetchDeps): typeof fetch {
  const attempt = async (input: RequestInfo | URL, init: RequestInit | undefined, forceRefresh: boolean) => {
    const headers = new Headers(init?.headers);
    const token = deps.authRequired() && isOwnPath(input) ? await deps.token(forceRefresh) : undefined;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    else headers.delete('Authorization');
    return deps.fetch(input, { ...init, headers });
  };

  return async (input, init) => {
    const first = await attempt(input, init, false);
    if (first.status !== 401) return first;
    // A body that is a stream can be sent only once; such a call cannot be retried here.
    if (init?.body instanceof ReadableStream) {
      deps.signInAgain();
      return first;
    }
    await first.body?.cancel();
    const required = await deps.recheckConfig().catch(() => deps.authRequired());
    const second = await attempt(input, init, required);
    if (second.status === 401) deps.signInAgain();
    return second;
  };
}

/**
 * The token goes only to this site's own API: a path, never a full URL or `//host`, so a link
 * the server names (an attachment's `href`) can never carry it elsewhere.
 */
function isOwnPath(input: RequestInfo | URL): boolean {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}
