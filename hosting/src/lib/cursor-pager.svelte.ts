/**
 * A listing the API pages with cursors (`items`, `hasMore`, `nextCursor`), as a page shows it:
 * the items loaded so far, the last page's answer (for what it says besides its items), whether
 * more follow, and how the last load went. `reload` starts again from the first page; `more`
 * appends the next one. A newer load supersedes an older one still on its way, so a list that
 * was reloaded never gets an older page appended.
 */
export interface CursorPage<Item> {
  items: Item[];
  hasMore: boolean;
  nextCursor?: string;
}

export type PagerStatus = 'loading' | 'loaded' | 'failed';

export class CursorPager<Item, Page extends CursorPage<Item> = CursorPage<Item>> {
  #items = $state<Item[]>([]);
  #last = $state<Page>();
  #next = $state<string>();
  #status = $state<PagerStatus>('loading');
  #error = $state<Error>();
  #request = 0;
  readonly #get: (cursor: string | undefined) => Promise<Page>;

  /** `get` answers the page after `cursor`, the first one without. */
  constructor(get: (cursor: string | undefined) => Promise<Page>) {
    this.#get = get;
  }

  get items(): readonly Item[] {
    return this.#items;
  }

  /** The last page answered, undefined before the first. */
  get page(): Page | undefined {
    return this.#last;
  }

  /** Whether a cursor leads further (`hasMore`, or a listing that stopped looking before its page was full). */
  get hasMore(): boolean {
    return this.#next !== undefined;
  }

  get status(): PagerStatus {
    return this.#status;
  }

  get error(): Error | undefined {
    return this.#error;
  }

  /** Loads the first page again, replacing what was shown. */
  reload(): Promise<void> {
    return this.#load(undefined);
  }

  /** Appends the next page; nothing when none follows or a load is on its way. */
  more(): Promise<void> {
    if (this.#next === undefined || this.#status === 'loading') return Promise.resolve();
    return this.#load(this.#next);
  }

  async #load(cursor: string | undefined): Promise<void> {
    const request = ++this.#request;
    this.#status = 'loading';
    this.#error = undefined;
    try {
      const page = await this.#get(cursor);
      if (request !== this.#request) return;
      if (cursor === undefined) this.#items = page.items;
      else this.#items.push(...page.items);
      this.#last = page;
      this.#next = page.nextCursor;
      this.#status = 'loaded';
    } catch (error) {
      if (request !== this.#request) return;
      this.#error = error as Error;
      this.#status = 'failed';
    }
  }
}
