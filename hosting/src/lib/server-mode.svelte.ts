/**
 * What the app knows about the server's authentication mode: read from `/api/auth/config`
 * first thing, before any other call (docs/authentication.md § The request flow).
 */
import { apiVersionHeader } from '@evident/contract';
import { UnreachableError } from './api.ts';
import type { ApiClient } from './api-client.ts';
import type { Connectivity } from './connectivity.svelte.ts';

type ModeState =
  | { status: 'loading' }
  | { status: 'ready'; authRequired: boolean; apiVersion: string | undefined }
  | { status: 'failed'; message: string };

export class ServerMode {
  #state = $state<ModeState>({ status: 'loading' });
  readonly #network: ApiClient;
  readonly #connectivity: Connectivity;

  /**
   * `network` calls the API over the plain network: the configuration is public, read without a
   * token, and the authorised fetch itself asks it again after a 401.
   */
  constructor(network: ApiClient, connectivity: Connectivity) {
    this.#network = network;
    this.#connectivity = connectivity;
  }

  get state(): ModeState {
    return this.#state;
  }

  get authRequired(): boolean {
    return this.#state.status === 'ready' && this.#state.authRequired;
  }

  async load(): Promise<void> {
    this.#state = { status: 'loading' };
    try {
      this.#state = { status: 'ready', ...(await this.#read()) };
    } catch (error) {
      this.#state = { status: 'failed', message: (error as Error).message };
      // Opened without a network: read it again when there is one.
      if (error instanceof UnreachableError) {
        this.#connectivity.lost();
        this.#connectivity.whenBack(() => void this.load());
      }
    }
  }

  /** Reads the mode again without leaving the page (after a 401); a failed read keeps the last one. */
  async recheck(): Promise<boolean> {
    const read = await this.#read();
    this.#state = { status: 'ready', ...read };
    return read.authRequired;
  }

  /** The configuration, and the API's version its answer names. */
  #read = async () => {
    const { data, response } = await this.#network.GET('/api/auth/config');
    return { authRequired: data!.authRequired, apiVersion: response.headers.get(apiVersionHeader) ?? undefined };
  };
}
