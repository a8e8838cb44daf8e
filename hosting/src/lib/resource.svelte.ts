/**
 * Something a page loads from the API, with the states it shows: loading, loaded, failed. A
 * newer load supersedes an older one, so a page whose address changed never shows stale data.
 * A load that could not reach the server is tried again by itself once the server is back, and
 * any failed load when the reader asks ("Try again": `retry`). Pages show it through `Loaded.svelte`.
 */
import { UnreachableError, type ApiError } from './api.ts';
import type { Connectivity } from './connectivity.svelte.ts';

export type Loaded<T> = { status: 'loading' } | { status: 'loaded'; value: T } | { status: 'failed'; error: ApiError | Error };

/** Something a page loads and can ask for again (a `Resource`, a `CursorPager`), as `Loaded.svelte` shows it. */
export interface Loadable<T> {
  readonly state: Loaded<T>;
  /** Asks again for what failed ("Try again"). */
  retry(): unknown;
}

export class Resource<T> implements Loadable<T> {
  #state = $state<Loaded<T>>({ status: 'loading' });
  #request = 0;
  #get: (() => Promise<T>) | undefined;
  readonly #connectivity: Connectivity;

  /** `connectivity` hears whether the server answered, and says when to try again. */
  constructor(connectivity: Connectivity) {
    this.#connectivity = connectivity;
  }

  get state(): Loaded<T> {
    return this.#state;
  }

  /** Resolves to the loaded value, or undefined when it failed or a newer load superseded it. */
  async load(get: () => Promise<T>): Promise<T | undefined> {
    const request = ++this.#request;
    this.#get = get;
    this.#state = { status: 'loading' };
    try {
      const value = await get();
      this.#connectivity.reached();
      if (request !== this.#request) return undefined;
      this.#state = { status: 'loaded', value };
      return value;
    } catch (error) {
      if (request !== this.#request) return undefined;
      this.#state = { status: 'failed', error: error as Error };
      if (error instanceof UnreachableError) {
        this.#connectivity.lost();
        this.#connectivity.whenBack(() => {
          if (request === this.#request) void this.load(get);
        });
      }
      return undefined;
    }
  }

  /** Loads again as the last load did; nothing before the first. */
  retry(): Promise<T | undefined> {
    return this.#get ? this.load(this.#get) : Promise.resolve(undefined);
  }
}
