/** The catalog with each control's latest status, and one control in full, as the control pages need them. */
import type { components } from '$api-types';
import { getJson, type ApiError } from './api.ts';

export type ControlList = components['schemas']['ControlList'];
export type ControlDetail = components['schemas']['ControlDetail'];

export type Loaded<T> = { status: 'loading' } | { status: 'loaded'; value: T } | { status: 'failed'; error: ApiError | Error };

/** One GET, with the states a page shows; a newer load supersedes an older one. */
export class Resource<T> {
  #state = $state<Loaded<T>>({ status: 'loading' });
  #request = 0;

  get state(): Loaded<T> {
    return this.#state;
  }

  async load(path: string, fetcher: typeof fetch = fetch): Promise<void> {
    const request = ++this.#request;
    this.#state = { status: 'loading' };
    try {
      const value = await getJson<T>(path, fetcher);
      if (request === this.#request) this.#state = { status: 'loaded', value };
    } catch (error) {
      if (request === this.#request) this.#state = { status: 'failed', error: error as Error };
    }
  }
}
