/**
 * The request flow of docs/authentication.md as the app runs it, over the server's mode and the
 * session: the bearer header while the server requires one, a re-check of the mode and a fresh
 * token on a 401, then asking to sign in again. Every API call and every upload goes through it.
 */
import { untrack } from 'svelte';
import type { AuthorisedFetchDeps } from './authorised-fetch.ts';
import type { ServerMode } from './server-mode.svelte.ts';
import type { Session } from './session.svelte.ts';

export type RequestFlow = Omit<AuthorisedFetchDeps, 'fetch'>;

/**
 * Untracked: a page that calls the API from an effect must not come to depend on the mode or the
 * session through this plumbing, or a 401's config re-check would rerun it in a loop.
 */
export function requestFlowOf(mode: ServerMode, session: Session): RequestFlow {
  return {
    authRequired: () => untrack(() => mode.authRequired),
    recheckConfig: async () => {
      const required = await mode.recheck();
      await session.require(required);
      return required;
    },
    token: (forceRefresh) => untrack(() => session.token(forceRefresh)),
    signInAgain: () => session.signInAgain(),
  };
}
