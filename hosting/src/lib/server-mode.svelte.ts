/**
 * What the app knows about the server's authentication mode: read from `/api/auth/config`
 * first thing, before any other call (docs/authentication.md § The request flow).
 */
import { apiVersionHeader } from '@evident/contract';
import { getAnswer, UnreachableError, type AuthConfig } from './api.ts';
import { connectivity } from './connectivity.svelte.ts';

type ModeState =
  | { status: 'loading' }
  | { status: 'ready'; authRequired: boolean; apiVersion: string | undefined }
  | { status: 'failed'; message: string };

export class ServerMode {
  #state = $state<ModeState>({ status: 'loading' });

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
        connectivity.lost();
        connectivity.whenBack(() => void this.load());
      }
    }
  }

  /** Reads the mode again without leaving the page (after a 401); a failed read keeps the last one. */
  async recheck(): Promise<boolean> {
    const read = await this.#read();
    this.#state = { status: 'ready', ...read };
    return read.authRequired;
  }

  /** The configuration is public: it goes over the plain network, never with a token. */
  #read = async () => {
    const { body, headers } = await getAnswer<AuthConfig>('/api/auth/config', fetch);
    return { authRequired: body.authRequired, apiVersion: headers.get(apiVersionHeader) ?? undefined };
  };
}
