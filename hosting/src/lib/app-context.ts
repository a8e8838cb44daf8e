/**
 * What the pages and components share, made once by the shell (App.svelte) and handed down as a
 * typed Svelte context: the address bar, the server's mode and the session, whether the server
 * can be reached, and the API through the request flow of docs/authentication.md. Nothing here is
 * made when a module is imported, so each mount of the app (and each test) has its own.
 */
import { createContext } from 'svelte';
import type { ApiClient } from './api-client.ts';
import type { Connectivity } from './connectivity.svelte.ts';
import type { Downloads } from './download.ts';
import type { RequestFlow } from './request-flow.ts';
import type { Router } from './router.svelte.ts';
import type { ServerMode } from './server-mode.svelte.ts';
import type { Session } from './session.svelte.ts';

export interface AppContext {
  readonly router: Router;
  readonly mode: ServerMode;
  readonly session: Session;
  readonly connectivity: Connectivity;
  /** JSON calls, typed by the API's description, through the request flow. */
  readonly api: ApiClient;
  /** The authorised fetch itself, for what needs the raw response: event streams. */
  readonly apiFetch: typeof fetch;
  /** The request flow, for uploads, which bring their own network (to report progress). */
  readonly requestFlow: RequestFlow;
  readonly downloads: Downloads;
}

export const [getAppContext, setAppContext] = createContext<AppContext>();
