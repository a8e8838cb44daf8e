/**
 * Newest-first index keys (storage/newest-first.ts): the inverted time a key starts with gives
 * back the time it was made from, to the millisecond, and `since` keeps exactly the entries
 * placed at or after a time, whichever ids they carry.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import {
  invertedTime,
  newestFirstKey,
  pageNewestFirst,
  timeOfInverted,
  timeOfKey,
} from '../../../functions/src/storage/newest-first.ts';

describe('inverted times', () => {
  it('give back the time they were made from, from the first four-digit year to the last', () => {
    const times = [
      Date.parse('0000-01-01T00:00:00.000Z'),
      Date.parse('1970-01-01T00:00:00.000Z'),
      Date.parse('2026-11-24T10:00:00.123Z'),
      Date.parse('9999-12-31T23:59:59.999Z'),
    ];
    expect(times.map((time) => timeOfInverted(invertedTime(time)))).toEqual(times);
  });

  it('give back the time of a key whatever its id', () => {
    const time = Date.parse('2026-11-24T10:00:00.007Z');
    expect(timeOfKey(newestFirstKey(time, 'run-0mhxk2b40-0123456789ab'))).toBe(time);
  });
});

describe('a page since a time', () => {
  it('keeps the entries placed at or after it, newest first, and none a millisecond older', async () => {
    const store = new MemoryStore();
    const since = Date.parse('2026-09-01T00:00:00Z');
    const placed = [since - 1, since, since + 1, since + 86_400_000];
    for (const [index, time] of placed.entries()) await store.create(`index/${newestFirstKey(time, `id-${index}`)}`, '');
    const page = await pageNewestFirst(store, 'index/', { limit: 10, since });
    expect(page.entries.map((entry) => timeOfKey(entry.key))).toEqual([since + 86_400_000, since + 1, since]);
    expect(page.hasMore).toBe(false);
  });
});
