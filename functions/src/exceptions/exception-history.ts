/**
 * Exceptions listed from their records, soonest expiry first, for the states the control
 * indexes do not answer: `all` (every exception ever recorded), `ended` (expired or revoked)
 * and `refused` (the reviews whose metadata says so). A page is a walk of names from the cursor's place — one `list` for most pages —
 * after which only the exceptions shown are read, however long the history.
 *
 * `ended` is, in id order, every exception expiring today or before (each of them has ended)
 * and then the revoked ones expiring later: the records up to tomorrow's partition, then the
 * revocations from it on. Neither needs an object read to be told apart. A filter by control, and
 * a review's decision, are checked on each name's metadata; such a walk stops after `maxListCalls` listings with what
 * it found and the place it reached, as the evidence listing does.
 */
import { addDays } from '../assessment/dates.js';
import type { PlacedPage } from '../storage/newest-first.js';
import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';
import {
  dayStart,
  idOfName,
  nameAfterId,
  recordName,
  recordsPrefix,
  reviewsPrefix,
  revocationsPrefix,
} from './exception-layout.js';

export interface HistoryQuery {
  state: 'all' | 'ended' | 'refused';
  /** Today in the report time zone: what has ended is judged by it. */
  today: string;
  control?: string;
  /** Only exceptions expiring on this day or before. */
  expiringBy?: string;
  /** The id to continue after. */
  after?: string;
  limit: number;
}

/** Listings one page may make before it answers with what it found. */
export const maxListCalls = 10;
const fullPage = 1000;

/**
 * A run of names in id order: the names under `prefix` expiring from the day `from` and before
 * the day `until`, and only those whose metadata has `decision` when it is given.
 */
interface Source {
  prefix: string;
  from?: string;
  until?: string;
  decision?: string;
}

function sourcesOf(query: HistoryQuery): Source[] {
  const byExpiry = query.expiringBy !== undefined ? addDays(query.expiringBy, 1) : undefined;
  if (query.state === 'all') return [{ prefix: recordsPrefix, ...(byExpiry ? { until: byExpiry } : {}) }];
  if (query.state === 'refused') {
    return [{ prefix: reviewsPrefix, decision: 'refused', ...(byExpiry ? { until: byExpiry } : {}) }];
  }
  const tomorrow = addDays(query.today, 1);
  const expired: Source = { prefix: recordsPrefix, until: byExpiry !== undefined && byExpiry < tomorrow ? byExpiry : tomorrow };
  if (byExpiry !== undefined && byExpiry <= tomorrow) return [expired];
  return [expired, { prefix: revocationsPrefix, from: tomorrow, ...(byExpiry ? { until: byExpiry } : {}) }];
}

/** The control a record or revocation is about: from its metadata, or (written before it carried one) from its record. */
async function controlOf(store: ObjectStore, info: ObjectInfo): Promise<string> {
  const named = info.metadata['controlId'];
  if (named !== undefined) return named;
  const record = await store.read(recordName(idOfName(info.name)));
  return (JSON.parse(record.data.toString('utf8')) as { controlId: string }).controlId;
}

/** One page of ids: `limit` of them, whether more follow, and the id to continue after. */
export async function historyPage(store: ObjectStore, query: HistoryQuery): Promise<PlacedPage<string>> {
  const walk = { calls: 0, found: [] as string[], examined: undefined as string | undefined, stopped: false };
  for (const source of sourcesOf(query)) {
    await walkSource(store, query, source, walk);
    if (walk.stopped || walk.found.length > query.limit) break;
  }
  const items = walk.found.slice(0, query.limit);
  if (walk.found.length > query.limit) return { items, hasMore: true, next: items[items.length - 1]! };
  return { items, hasMore: false, ...(walk.stopped && walk.examined !== undefined ? { next: walk.examined } : {}) };
}

async function walkSource(
  store: ObjectStore,
  query: HistoryQuery,
  source: Source,
  walk: { calls: number; found: string[]; examined: string | undefined; stopped: boolean },
): Promise<void> {
  const start = [
    source.from !== undefined ? dayStart(source.prefix, source.from) : '',
    query.after !== undefined ? nameAfterId(source.prefix, query.after) : '',
  ].reduce((a, b) => (a > b ? a : b));
  const end = source.until !== undefined ? dayStart(source.prefix, source.until) : undefined;
  if (end !== undefined && start >= end) return;
  // Without a filter every name is one to show: a page needs no more names than it shows, and one.
  const filtered = query.control !== undefined || source.decision !== undefined;
  const pageSize = filtered ? fullPage : query.limit + 1 - walk.found.length;
  let pageToken: string | undefined;
  do {
    if (walk.calls >= maxListCalls) {
      walk.stopped = true;
      return;
    }
    walk.calls++;
    const page = await store.list(source.prefix, {
      pageSize,
      ...(start ? { startOffset: start } : {}),
      ...(end !== undefined ? { endOffset: end } : {}),
      ...(pageToken ? { pageToken } : {}),
    });
    for (const info of page.items) {
      walk.examined = idOfName(info.name);
      if (source.decision !== undefined && info.metadata['decision'] !== source.decision) continue;
      if (query.control !== undefined && (await controlOf(store, info)) !== query.control) continue;
      walk.found.push(walk.examined);
      if (walk.found.length > query.limit) return;
    }
    pageToken = page.nextPageToken;
  } while (pageToken);
}
