/**
 * The app's shared state: the server's mode and the session, and every API call wired through
 * the request flow of docs/authentication.md (bearer header, re-check and refresh on a 401, then
 * sign in again).
 */
import { untrack } from 'svelte';
import { useApiFetch } from './api.ts';
import { authorisedFetch, type AuthorisedFetchDeps } from './authorised-fetch.ts';
import { ServerMode } from './server-mode.svelte.ts';
import { Session } from './session.svelte.ts';

export const mode = new ServerMode();
export const session = new Session();

/**
 * The request flow, as every API call and every upload goes through it. Untracked:
 * a page that calls the API from an effect must not come to depend on the mode or the session
 * through this plumbing, or a 401's config re-check would rerun it in a loop.
 */
export const requestFlow: Omit<AuthorisedFetchDeps, 'fetch'> = {
  authRequired: () => untrack(() => mode.authRequired),
  recheckConfig: async () => {
    const required = await mode.recheck();
    await session.require(required);
    return required;
  },
  token: (forceRefresh) => untrack(() => session.token(forceRefresh)),
  signInAgain: () => session.signInAgain(),
};

useApiFetch(authorisedFetch({ fetch: (input, init) => fetch(input, init), ...requestFlow }));

/** Whether protected calls can be made now: public mode, or someone is signed in. */
export const canCallProtected = (): boolean => !mode.authRequired || session.state.status === 'signed-in';
