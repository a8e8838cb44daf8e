/**
 * A listing the API pages with cursors, as a page shows it, in one of two modes. `more` appends
 * each next page under those shown ("Show more"); once a page is shown it stays shown while
 * another loads, and a reload replaces it when the new first page arrives. `pages` shows one page
 * at a time and keeps the cursors that led to it, so the page can go back (the API pages forward
 * only); the page is shown loading while the next one comes. Either way, what follows the page
 * is read one way (cursor-pages.ts): a `nextCursor` leads further, `hasMore` says the page was
 * full. A newer load supersedes an older one still on its way, so a list that was reloaded never
 * gets an older page; a load that could not reach the server is tried again by itself once the
 * server is back, as a `Resource`'s is.
 */
import { UnreachableError } from './api.ts';
import type { Connectivity } from './connectivity.svelte.ts';
import { nextPage, pageState, previousPage, type CursorPage, type PageState } from './cursor-pages.ts';
import type { Loadable, Loaded } from './resource.svelte.ts';

export type PagerStatus = 'loading' | 'loaded' | 'failed';

/** What a listing shows once a page is there: the items shown and the last page answered (for what it says besides its items). */
export interface Shown<Item, Page> {
  items: readonly Item[];
  page: Page;
}

export interface PagerOptions<Item> {
  /** Hears whether the server answered, and says when to try again (as a `Resource`'s does). */
  connectivity: Connectivity;
  /** `more` (the default) appends each next page under those shown; `pages` shows one page at a time. */
  mode?: 'more' | 'pages';
  /** How a next page joins those shown in `more` mode; after them, by default. */
  append?: (shown: readonly Item[], next: readonly Item[]) => Item[];
}

export class CursorPager<Item, Page extends CursorPage<Item> = CursorPage<Item>> implements Loadable<Shown<Item, Page>> {
  #items = $state<Item[]>([]);
  #last = $state<Page>();
  #cursors = $state<string[]>([]);
  #status = $state<PagerStatus>('loading');
  #error = $state<Error>();
  #appending = $state(false);
  #state = $derived.by((): Loaded<Shown<Item, Page>> => {
    const last = this.#last;
    if (last && (this.#mode === 'more' || this.#status === 'loaded'))
      return { status: 'loaded', value: { items: this.#items, page: last } };
    if (this.#status === 'failed' && this.#error) return { status: 'failed', error: this.#error };
    return { status: 'loading' };
  });
  #request = 0;
  readonly #get: (cursor: string | undefined) => Promise<Page>;
  readonly #mode: 'more' | 'pages';
  readonly #append: (shown: readonly Item[], next: readonly Item[]) => Item[];
  readonly #connectivity: Connectivity;

  /** `get` answers the page after `cursor`, the first one without. */
  constructor(
    get: (cursor: string | undefined) => Promise<Page>,
    { connectivity, mode = 'more', append = (shown, next) => [...shown, ...next] }: PagerOptions<Item>,
  ) {
    this.#get = get;
    this.#connectivity = connectivity;
    this.#mode = mode;
    this.#append = append;
  }

  /** What the listing shows: loading until a page is there; in `pages` mode, also while another page loads. */
  get state(): Loaded<Shown<Item, Page>> {
    return this.#state;
  }

  get items(): readonly Item[] {
    return this.#items;
  }

  /** The last page answered, undefined before the first. */
  get page(): Page | undefined {
    return this.#last;
  }

  /** The cursors that led to the page shown (or on its way), oldest first; empty on the first page. */
  get cursors(): readonly string[] {
    return this.#cursors;
  }

  /** What follows the last page answered; `end` before the first. */
  get follows(): PageState {
    return this.#last ? pageState(this.#last) : 'end';
  }

  /** Whether a cursor leads on from the last page: to more items, or to more of the listing to search. */
  get hasNext(): boolean {
    return Boolean(this.#last?.nextCursor);
  }

  get status(): PagerStatus {
    return this.#status;
  }

  get error(): Error | undefined {
    return this.#error;
  }

  /** Whether the load on its way, or the last one, appends a next page rather than replacing what is shown. */
  get appending(): boolean {
    return this.#appending;
  }

  /** Loads the first page again, in place of what is shown; resolves to it, or undefined when it failed or was superseded. */
  reload(): Promise<Page | undefined> {
    return this.open([]);
  }

  /** Shows the page `cursors` lead to (the first without), in place of what is shown. */
  open(cursors: readonly string[]): Promise<Page | undefined> {
    this.#cursors = [...cursors];
    return this.#load(cursors.at(-1), false);
  }

  /** Appends the next page (`more` mode); nothing when none follows or a load is on its way. */
  more(): Promise<Page | undefined> {
    const cursor = this.#onward();
    return cursor ? this.#load(cursor, true) : Promise.resolve(undefined);
  }

  /** Shows the next page in place of this one (`pages` mode); nothing when none follows or a load is on its way. */
  next(): Promise<Page | undefined> {
    const cursor = this.#onward();
    return cursor ? this.open(nextPage(this.#cursors, cursor)) : Promise.resolve(undefined);
  }

  /** Shows the page before this one (`pages` mode); the first page has none, so it is loaded again. */
  previous(): Promise<Page | undefined> {
    return this.open(previousPage(this.#cursors));
  }

  /** Asks again: for the next page after a "Show more" that failed, else for the page the cursors lead to. */
  retry(): Promise<Page | undefined> {
    return this.#appending ? this.more() : this.open(this.#cursors);
  }

  /** Changes the items shown, for one the page knows of before the server lists it (a delivery just queued). */
  update(change: (items: readonly Item[]) => Item[]): void {
    this.#items = change(this.#items);
  }

  /** The cursor to the page after the last one, unless none leads on or a load is on its way ("Show more" twice). */
  #onward(): string | undefined {
    return this.#status === 'loading' ? undefined : this.#last?.nextCursor || undefined;
  }

  async #load(cursor: string | undefined, appending: boolean): Promise<Page | undefined> {
    const request = ++this.#request;
    this.#status = 'loading';
    this.#error = undefined;
    this.#appending = appending;
    try {
      const page = await this.#get(cursor);
      this.#connectivity.reached();
      if (request !== this.#request) return undefined;
      this.#items = appending ? this.#append(this.#items, page.items) : page.items;
      this.#last = page;
      this.#status = 'loaded';
      return page;
    } catch (error) {
      if (request !== this.#request) return undefined;
      this.#error = error as Error;
      this.#status = 'failed';
      if (error instanceof UnreachableError) {
        this.#connectivity.lost();
        this.#connectivity.whenBack(() => {
          if (request === this.#request) void this.#load(cursor, appending);
        });
      }
      return undefined;
    }
  }
}
