/**
 * A page's code, fetched the first time the page is opened rather than with the app, so the
 * dashboard's first view carries only its own code (the first-view budget: scripts/bench/groups/web.ts).
 * Once fetched it is kept, so coming back to the page shows it at once. A fetch that failed while
 * the browser was offline is tried again by itself once it is back, as the pages' API calls are.
 */
import { UnreachableError } from './api.ts';
import type { Connectivity } from './connectivity.svelte.ts';

export class PageCode<Module> {
  readonly #fetch: () => Promise<Module>;
  readonly #connectivity: Connectivity;
  #module: Promise<Module> | undefined;
  /** Bumped to ask again after a failure; reading it makes `module` follow it. */
  #attempts = $state(0);

  /** `connectivity` says when a fetch that failed offline can be tried again. */
  constructor(fetch: () => Promise<Module>, connectivity: Connectivity) {
    this.#fetch = fetch;
    this.#connectivity = connectivity;
  }

  /**
   * The module: the same promise on every read while it is loading or loaded. A failed one
   * rejects with an `UnreachableError` when the browser was offline (the page's code may still be
   * there once the network is back), else with what went wrong (a new version of the app may
   * have replaced the files this one names).
   */
  get module(): Promise<Module> {
    void this.#attempts;
    this.#module ??= this.#fetch().catch((error: unknown) => {
      this.#module = undefined;
      if (typeof navigator === 'undefined' || navigator.onLine) throw error;
      this.#connectivity.whenBack(() => this.retry());
      throw new UnreachableError({ cause: error });
    });
    return this.#module;
  }

  /** Asks for the module again after a failure; a page that shows it follows. */
  retry(): void {
    // Once loading or loaded, a page showing it must keep the promise it has.
    if (this.#module === undefined) this.#attempts += 1;
  }
}
