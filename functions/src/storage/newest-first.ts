/**
 * Names that list newest first. Cloud Storage lists in ascending name order only, so a record
 * that should be listed by time, newest first, gets an index entry named by its inverted time:
 * a page is then one `list` from the key it continues after, whatever the history holds. The
 * evidence, submission and analysis listings all page this way; families/paging.ts turns a key
 * into the cursor a client sees.
 */
import type { ObjectStore } from './object-store.js';

/** Milliseconds from 0000-01-01 to 1970-01-01, so every four-digit year gives a positive offset. */
const epochOffset = 62_167_219_200_000;
const maxKeyTime = 999_999_999_999_999;
const timeDigits = 15;

/**
 * A time as a fixed-width number that sorts newest first. Times outside the four-digit years
 * (only a range bound can be) are held to its ends, so the width, and the order, hold.
 */
export function invertedTime(time: number): string {
  const since = Math.min(Math.max(time + epochOffset, 0), maxKeyTime);
  return String(maxKeyTime - since).padStart(timeDigits, '0');
}

/** The time an inverted time stands for: `timeOfInverted(invertedTime(t)) === t` for every time of a four-digit year. */
export const timeOfInverted = (inverted: string) => maxKeyTime - Number(inverted) - epochOffset;

/** A record's place: newest first, then by id. */
export const newestFirstKey = (time: number, id: string) => `${invertedTime(time)}-${id}`;

const keyPattern = /^\d{15}-[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$/;

/** Whether text has the shape of an index key: an inverted time and an id. */
export const isIndexKey = (text: string) => keyPattern.test(text);

/** The id a key names. */
export const idOfKey = (key: string) => key.slice(timeDigits + 1);

/** The time a key was placed at, in milliseconds. */
export const timeOfKey = (key: string) => timeOfInverted(key.slice(0, timeDigits));

/**
 * The first name of an index that is older than `time`: listing up to it (`endOffset`) keeps
 * the records at or after `time`, since one a millisecond older has a key one greater.
 */
export const olderThan = (prefix: string, time: number) => `${prefix}${invertedTime(time - 1)}`;

/** The first name after `key` under a prefix: ids use no character below `!`, so this skips exactly `key`. */
export const nameAfter = (prefix: string, key: string) => `${prefix}${key}!`;

/** A page of a listing: its items, whether more follow, and the key to continue after when there is one. */
export interface PlacedPage<T> {
  items: T[];
  hasMore: boolean;
  next?: string;
}

export interface IndexEntry {
  key: string;
  metadata: Record<string, string>;
}

/**
 * One page of an index that needs no filtering: `limit` entries after the key `after`, and only
 * those placed at or after the time `since` when it is given; whether more follow, and then the
 * key to continue after.
 */
export async function pageNewestFirst(
  store: ObjectStore,
  prefix: string,
  { after, limit, since }: { after?: string; limit: number; since?: number },
): Promise<{ entries: IndexEntry[]; hasMore: boolean; next?: string }> {
  const page = await store.list(prefix, {
    pageSize: limit + 1,
    ...(after !== undefined ? { startOffset: nameAfter(prefix, after) } : {}),
    ...(since !== undefined ? { endOffset: olderThan(prefix, since) } : {}),
  });
  const entries = page.items.map((info) => ({ key: info.name.slice(prefix.length), metadata: info.metadata }));
  const shown = entries.slice(0, limit);
  return entries.length > limit
    ? { entries: shown, hasMore: true, next: shown[shown.length - 1]!.key }
    : { entries: shown, hasMore: false };
}
