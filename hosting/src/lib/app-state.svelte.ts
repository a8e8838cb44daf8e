/**
 * The app's shared state: the server's mode and the session, and every API call wired through
 * the contract's request flow (bearer header, re-check and refresh on a 401, then sign in again).
 */
import { useApiFetch } from './api.ts';
import { authorisedFetch } from './authorised-fetch.ts';
import { ServerMode } from './server-mode.svelte.ts';
import { Session } from './session.svelte.ts';

export const mode = new ServerMode();
export const session = new Session();

useApiFetch(
  authorisedFetch({
    fetch: (input, init) => fetch(input, init),
    authRequired: () => mode.authRequired,
    recheckConfig: async () => {
      const required = await mode.recheck();
      await session.require(required);
      return required;
    },
    token: (forceRefresh) => session.token(forceRefresh),
    signInAgain: () => session.signInAgain(),
  }),
);

/** Whether protected calls can be made now: public mode, or someone is signed in. */
export const canCallProtected = (): boolean => !mode.authRequired || session.state.status === 'signed-in';
