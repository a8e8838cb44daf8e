/**
 * What the API's cursor-paged listings promise (`items`, `hasMore`, `nextCursor`: openapi/paths/evidence.ts
 * and the other listings), read one way everywhere: a `nextCursor` leads further; `hasMore` says
 * that at least one more item follows, so the page was full. A listing that checks items one by
 * one may stop looking at its bound before the page is full: then a cursor leads on without
 * `hasMore`, and the next request searches further. Pure, so it is tested without a browser;
 * `CursorPager` (cursor-pager.svelte.ts) pages with it.
 */
export interface CursorPage<Item> {
  items: Item[];
  hasMore: boolean;
  nextCursor?: string;
}

/** What follows a page: more items, more of the listing to search, or nothing. */
export type PageState = 'more' | 'search' | 'end';

/**
 * What follows a page, from the API's answer: `more` when another matching item exists; `search`
 * when the server stopped looking at its bound before it knew (filters it checks item by item
 * over a long history), so the next request searches further; `end` when this is the last page.
 */
export function pageState(page: { hasMore: boolean; nextCursor?: string }): PageState {
  if (page.hasMore) return 'more';
  return page.nextCursor ? 'search' : 'end';
}

/** The next page: the API's `nextCursor` joins the cursors that led to the page shown. */
export const nextPage = (cursors: readonly string[], nextCursor: string): string[] => [...cursors, nextCursor];

/** The previous page: the last cursor is dropped (the first page has none). */
export const previousPage = (cursors: readonly string[]): string[] => cursors.slice(0, -1);
