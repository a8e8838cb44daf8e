/**
 * CursorPager, compiled by Svelte with real runes: the first page, the next ones appended in
 * order with the cursors the pages gave, the end of a listing, a failure that keeps what was
 * shown, and a reload that an older page still on its way cannot spoil.
 */
import { describe, expect, it } from 'vitest';
import { CursorPager, type CursorPage } from '../../../hosting/src/lib/cursor-pager.svelte.ts';

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
    const pager = new CursorPager<string, Page>(listing.get);
    expect([pager.status, pager.page, pager.items]).toEqual(['loading', undefined, []]);
    const first = pager.reload();
    listing.answer(page(['a', 'b'], 'c1'));
    await first;
    expect([pager.status, pager.items, pager.hasMore, pager.page?.today]).toEqual(['loaded', ['a', 'b'], true, '2026-11-24']);
    const second = pager.more();
    expect(pager.status).toBe('loading');
    // A second "Show more" while one is on its way asks for nothing.
    await pager.more();
    listing.answer(page(['c'], 'c2'));
    await second;
    const third = pager.more();
    listing.answer(page(['d']));
    await third;
    expect([pager.items, pager.hasMore]).toEqual([['a', 'b', 'c', 'd'], false]);
    await pager.more();
    expect(listing.asked).toEqual([undefined, 'c1', 'c2']);
  });

  it('keeps what it shows when a page fails, and asks for the same page again', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get);
    const first = pager.reload();
    listing.answer(page(['a'], 'c1'));
    await first;
    const failed = pager.more();
    listing.fail(new Error('offline'));
    await failed;
    expect([pager.status, pager.error?.message, pager.items, pager.hasMore]).toEqual(['failed', 'offline', ['a'], true]);
    const again = pager.more();
    listing.answer(page(['b']));
    await again;
    expect([pager.status, pager.error, pager.items]).toEqual(['loaded', undefined, ['a', 'b']]);
    expect(listing.asked).toEqual([undefined, 'c1', 'c1']);
  });

  it('drops an older page that arrives after a reload', async () => {
    const listing = scripted();
    const pager = new CursorPager<string, Page>(listing.get);
    const first = pager.reload();
    listing.answer(page(['a'], 'c1'));
    await first;
    const more = pager.more();
    const reload = pager.reload();
    listing.answer(page(['stale']));
    listing.answer(page(['a2'], 'c9'));
    await Promise.all([more, reload]);
    expect([pager.items, pager.hasMore, pager.status]).toEqual([['a2'], true, 'loaded']);
  });
});
