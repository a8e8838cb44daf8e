/**
 * Names that list newest first. Cloud Storage lists in ascending name order only, so a record
 * that should be listed by time, newest first, gets an index entry named by its inverted time:
 * a page is then one `list` from the cursor's place, whatever the history holds. The evidence,
 * submission and analysis listings all page this way.
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

/** A record's place: newest first, then by id. */
export const newestFirstKey = (time: number, id: string) => `${invertedTime(time)}-${id}`;

const keyPattern = /^\d{15}-[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$/;

/** The id a key names. */
export const idOfKey = (key: string) => key.slice(timeDigits + 1);

/** The first name after `key` under a prefix: ids use no character below `!`, so this skips exactly `key`. */
export const nameAfter = (prefix: string, key: string) => `${prefix}${key}!`;

export function encodeCursor(key: string): string {
  return Buffer.from(JSON.stringify({ after: key })).toString('base64url');
}

/** The key a cursor stands for, or undefined for anything this API did not give out. */
export function decodeCursor(cursor: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    const after = (parsed as { after?: unknown } | null)?.after;
    if (typeof after === 'string' && keyPattern.test(after)) return after;
  } catch {
    // not ours
  }
  return undefined;
}

export interface IndexEntry {
  key: string;
  metadata: Record<string, string>;
}

/** One page of an index that needs no filtering: `limit` entries after `after`, and whether more follow. */
export async function pageNewestFirst(
  store: ObjectStore,
  prefix: string,
  { after, limit }: { after?: string; limit: number },
): Promise<{ entries: IndexEntry[]; hasMore: boolean }> {
  const page = await store.list(prefix, {
    pageSize: limit + 1,
    ...(after !== undefined ? { startOffset: nameAfter(prefix, after) } : {}),
  });
  const entries = page.items.map((info) => ({ key: info.name.slice(prefix.length), metadata: info.metadata }));
  return { entries: entries.slice(0, limit), hasMore: entries.length > limit };
}
