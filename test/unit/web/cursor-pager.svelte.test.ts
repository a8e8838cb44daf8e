/**
 * CursorPager, compiled by Svelte with real runes: the first page, the next ones appended in
 * order with the cursors the pages gave, the end of a listing, a failure that keeps what was
 * shown, and a reload that an older page still on its way cannot spoil; what follows a page read
 * as the API says it; a page at a time with the way back; what a page shows meanwhile; a retry;
 * and a page asked for again by itself once the server can be reached.
 */
import { describe, expect, it, vi } from 'vitest';
import { UnreachableError } from '../../../hosting/src/lib/api.ts';
import { Connectivity } from '../../../hosting/src/lib/connectivity.svelte.ts';
import { CursorPager } from '../../../hosting/src/lib/cursor-pager.svelte.ts';
import type { CursorPage } from '../../../hosting/src/lib/cursor-pages.ts';

type Page = CursorPage<string> & { today: string };

/** A listing whose answers the test releases one by one; records the cursors asked for. */
function scripted() {
  const asked: (string | undefined)[] = [];
  const pending: { resolve: (page: Page) => void; reject: (error: Error) => void }[] = [];
  const get = (cursor: string | undefined) => {
    asked.push(cursor);
    return new Promise<Page>((resolve, reject) => pending.push({ resolve, reject }));
  };
  const answer = (page: Page) => pending.shift()!.resolve(page);
  const fail = (error: Error) => pending.shift()!.reject(error);
  return { asked, get, answer, fail };
}

const page = (items: string[], nextCursor?: string): Page => ({
  today: '2026-11-24',
  items,
  hasMore: nextCursor !== undefined,
  ...(nextCursor !== undefined ? { nextCursor } : {}),
});

describe('a cursor pager', () => {
  it('shows the first page, appends the next ones with the cursors they gave, and stops at the end', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity() });
    expect([pager.status, pager.page, pager.items]).toEqual(['loading', undefined, []]);
    const first = pager.reload();
    listing.answer(page(['a', 'b'], 'c1'));
    await first;
    expect([pager.status, pager.items, pager.follows, pager.page?.today]).toEqual(['loaded', ['a', 'b'], 'more', '2026-11-24']);
    const second = pager.more();
    expect(pager.status).toBe('loading');
    // A second "Show more" while one is on its way asks for nothing.
    await pager.more();
    listing.answer(page(['c'], 'c2'));
    await second;
    const third = pager.more();
    listing.answer(page(['d']));
    await third;
    expect([pager.items, pager.follows]).toEqual([['a', 'b', 'c', 'd'], 'end']);
    await pager.more();
    expect(listing.asked).toEqual([undefined, 'c1', 'c2']);
  });

  it('keeps what it shows when a page fails, and asks for the same page again', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity() });
    const first = pager.reload();
    listing.answer(page(['a'], 'c1'));
    await first;
    const failed = pager.more();
    listing.fail(new Error('offline'));
    await failed;
    expect([pager.status, pager.error?.message, pager.items, pager.follows]).toEqual(['failed', 'offline', ['a'], 'more']);
    const again = pager.more();
    listing.answer(page(['b']));
    await again;
    expect([pager.status, pager.error, pager.items]).toEqual(['loaded', undefined, ['a', 'b']]);
    expect(listing.asked).toEqual([undefined, 'c1', 'c1']);
  });

  it('drops an older page that arrives after a reload', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity() });
    const first = pager.reload();
    listing.answer(page(['a'], 'c1'));
    await first;
    const more = pager.more();
    const reload = pager.reload();
    listing.answer(page(['stale']));
    listing.answer(page(['a2'], 'c9'));
    await Promise.all([more, reload]);
    expect([pager.items, pager.follows, pager.status]).toEqual([['a2'], 'more', 'loaded']);
  });
});

/** A page that stopped looking before it was full: a cursor leads on, but no item is known to follow. */
const searched = (items: string[], nextCursor: string): Page => ({ today: '2026-11-24', items, hasMore: false, nextCursor });

describe('what follows a page', () => {
  it('is more when the API says hasMore, more to search when only a cursor leads on, and the end without one', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity() });
    expect([pager.follows, pager.hasNext]).toEqual(['end', false]);
    const first = pager.reload();
    listing.answer(page(['a', 'b'], 'c1'));
    await first;
    expect([pager.follows, pager.hasNext]).toEqual(['more', true]);
    const second = pager.more();
    listing.answer(searched(['c'], 'c2'));
    await second;
    expect([pager.follows, pager.hasNext]).toEqual(['search', true]);
    // "Show more" searches further with the cursor the short page gave.
    const third = pager.more();
    listing.answer(page([]));
    await third;
    expect([pager.follows, pager.hasNext, pager.items]).toEqual(['end', false, ['a', 'b', 'c']]);
    expect(listing.asked).toEqual([undefined, 'c1', 'c2']);
  });
});

describe('a cursor pager that shows more', () => {
  it('is loading until its first page, then shows what it has while the next page or a reload loads', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity() });
    expect(pager.state).toEqual({ status: 'loading' });
    const first = pager.reload();
    listing.answer(page(['a'], 'c1'));
    expect(await first).toEqual(page(['a'], 'c1'));
    const shown = { status: 'loaded', value: { items: ['a'], page: page(['a'], 'c1') } };
    expect(pager.state).toEqual(shown);
    const more = pager.more();
    expect([pager.status, pager.appending, pager.state]).toEqual(['loading', true, shown]);
    listing.fail(new Error('offline'));
    await more;
    expect([pager.status, pager.appending, pager.state]).toEqual(['failed', true, shown]);
    const reload = pager.reload();
    expect([pager.status, pager.appending, pager.state]).toEqual(['loading', false, shown]);
    listing.answer(page(['a0', 'a'], 'c0'));
    await reload;
    expect(pager.state).toEqual({ status: 'loaded', value: { items: ['a0', 'a'], page: page(['a0', 'a'], 'c0') } });
  });

  it('fails with nothing shown when its first page fails, and a retry asks for the first page again', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity() });
    const first = pager.reload();
    const error = new Error('The server answered 500.');
    listing.fail(error);
    await first;
    expect(pager.state).toEqual({ status: 'failed', error });
    const retry = pager.retry();
    listing.answer(page(['a']));
    await retry;
    expect(pager.state).toEqual({ status: 'loaded', value: { items: ['a'], page: page(['a']) } });
    expect(listing.asked).toEqual([undefined, undefined]);
  });

  it('retries a next page that failed with its cursor, keeping what was shown', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity() });
    const first = pager.reload();
    listing.answer(page(['a'], 'c1'));
    await first;
    const more = pager.more();
    listing.fail(new Error('offline'));
    await more;
    const retry = pager.retry();
    listing.answer(page(['b']));
    await retry;
    expect([pager.items, listing.asked]).toEqual([
      ['a', 'b'],
      [undefined, 'c1', 'c1'],
    ]);
  });

  it('joins a next page as `append` says, and shows what `update` changes', async () => {
    const listing = scripted();
    const once = (shown: readonly string[], next: readonly string[]) => [
      ...shown,
      ...next.filter((item) => !shown.includes(item)),
    ];
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity(), append: once });
    const first = pager.reload();
    listing.answer(page(['b', 'a'], 'c1'));
    await first;
    pager.update((items) => ['c', ...items]);
    expect(pager.items).toEqual(['c', 'b', 'a']);
    const more = pager.more();
    // The new item pushed "a" onto the next page: it is shown once.
    listing.answer(page(['a', 'z']));
    await more;
    expect(pager.items).toEqual(['c', 'b', 'a', 'z']);
  });

  it('asks again by itself for a page that could not reach the server, once the server answers', async () => {
    const listing = scripted();
    const connectivity = new Connectivity();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity });
    const first = pager.reload();
    listing.fail(new UnreachableError());
    await first;
    expect([pager.status, connectivity.offline, listing.asked]).toEqual(['failed', true, [undefined]]);
    connectivity.reached();
    expect([pager.status, connectivity.offline, listing.asked]).toEqual(['loading', false, [undefined, undefined]]);
    listing.answer(page(['a']));
    await vi.waitFor(() => expect(pager.state).toEqual({ status: 'loaded', value: { items: ['a'], page: page(['a']) } }));
  });
});

describe('a cursor pager that shows a page at a time', () => {
  it('opens the page its cursors lead to, goes on with the next cursor and back along the way, loading in between', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity(), mode: 'pages' });
    const opened = pager.open(['c1', 'c2']);
    expect([pager.cursors, pager.state]).toEqual([['c1', 'c2'], { status: 'loading' }]);
    listing.answer(page(['e', 'f'], 'c3'));
    await opened;
    expect([pager.items, pager.follows]).toEqual([['e', 'f'], 'more']);

    const next = pager.next();
    expect([pager.cursors, pager.state]).toEqual([['c1', 'c2', 'c3'], { status: 'loading' }]);
    // Another "Next page" while one is on its way asks for nothing.
    await pager.next();
    listing.answer(searched([], 'c4'));
    await next;
    expect([pager.items, pager.follows]).toEqual([[], 'search']);

    const previous = pager.previous();
    expect(pager.cursors).toEqual(['c1', 'c2']);
    listing.answer(page(['e', 'f'], 'c3'));
    await previous;
    expect(pager.state).toEqual({ status: 'loaded', value: { items: ['e', 'f'], page: page(['e', 'f'], 'c3') } });

    const reload = pager.reload();
    expect(pager.cursors).toEqual([]);
    listing.answer(page(['a', 'b'], 'c1'));
    await reload;
    expect(listing.asked).toEqual(['c2', 'c3', 'c2', undefined]);
  });

  it('fails in place of the page, and a retry asks for the same page again', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get, { connectivity: new Connectivity(), mode: 'pages' });
    const first = pager.reload();
    listing.answer(page(['a', 'b'], 'c1'));
    await first;
    const next = pager.next();
    const error = new Error('The server answered 500.');
    listing.fail(error);
    await next;
    expect([pager.state, pager.cursors]).toEqual([{ status: 'failed', error }, ['c1']]);
    const retry = pager.retry();
    listing.answer(page(['c']));
    await retry;
    expect([pager.items, pager.cursors, listing.asked]).toEqual([['c'], ['c1'], [undefined, 'c1', 'c1']]);
  });
});
