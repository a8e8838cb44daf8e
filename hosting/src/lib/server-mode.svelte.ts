/**
 * What the app knows about the server's authentication mode: read from `/api/auth/config`
 * first thing, before any other call (docs/authentication.md § The request flow).
 */
import { errorOf, unreachable, type AuthConfig } from './api.ts';

/** The header every API answer carries the server's API version in (docs/api-versions.md). */
export const apiVersionHeader = 'Evident-Api-Version';

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
    let response: Response;
    try {
      response = await fetch('/api/auth/config', { headers: { Accept: 'application/json' } });
    } catch {
      throw new Error(unreachable);
    }
    if (!response.ok) throw await errorOf(response);
    const { authRequired } = (await response.json()) as AuthConfig;
    return { authRequired, apiVersion: response.headers.get(apiVersionHeader) ?? undefined };
  };
}
