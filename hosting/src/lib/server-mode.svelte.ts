/**
 * What the app knows about the server's authentication mode: read from `/api/auth/config`
 * first thing, before any other call, as the contract's request flow says.
 */
import { getJson, type AuthConfig } from './api.ts';

type ModeState = { status: 'loading' } | { status: 'ready'; authRequired: boolean } | { status: 'failed'; message: string };

export class ServerMode {
  #state = $state<ModeState>({ status: 'loading' });

  get state(): ModeState {
    return this.#state;
  }

  async load(fetcher: typeof fetch = fetch): Promise<void> {
    this.#state = { status: 'loading' };
    try {
      const config = await getJson<AuthConfig>('/api/auth/config', fetcher);
      this.#state = { status: 'ready', authRequired: config.authRequired };
    } catch (error) {
      this.#state = { status: 'failed', message: (error as Error).message };
    }
  }
}
