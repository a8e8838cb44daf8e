/**
 * `GET /api/evidence` as reads of the listing indexes (evidence-layout.ts): a query picks the
 * index (or, for a control, the few indexes) whose entries are exactly — or nearly — what it
 * asks for, lists from the cursor's place in newest-first order, checks the rest of the
 * filters against each entry's metadata, and reads only the items on the page. So a page costs
 * one `list` per index plus one read per item shown, whatever the history holds.
 *
 * A few combinations of filters (a subject with a source or a control; a control's attestations
 * with a source) are checked on entries rather than found by name. Those scans are bounded: after
 * `maxListCalls` listings the page ends early with a cursor to continue from, and says so
 * (`hasMore: false` with a `nextCursor`).
 */
import type { EvidenceItem } from '../assessment/model.js';
import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';
import { idOfKey, type IndexEntry, invertedTime, nameAfter } from '../storage/newest-first.js';
import { indexPrefixOf, type IndexPath } from './evidence-layout.js';
import type { EvidenceStore } from './evidence-store.js';

export interface EvidenceQuery {
  kind?: string;
  subject?: string;
  source?: string;
  /** A control: the items of its evidence kinds, and the attestations that name it. */
  control?: { id: string; kinds: readonly string[] };
  /** `collectedAt` at or after (milliseconds). */
  from?: number;
  /** `collectedAt` before (milliseconds). */
  to?: number;
  limit: number;
  /** The index key after which to continue (a cursor's place, families/paging.ts). */
  after?: string;
}

export interface EvidenceListing {
  items: EvidenceItem[];
  /** At least one more matching item exists after this page. */
  hasMore: boolean;
  /** The key to continue after: the last item's when `hasMore`, the last entry examined when a scan stopped early. */
  next?: string;
}

/** Listings one page may make before it answers with what it found. */
export const maxListCalls = 10;
const fullPage = 1000;

/** Which indexes hold the answer; `[]` when the filters cannot match anything. */
export function indexesFor(query: EvidenceQuery): IndexPath[] {
  const { kind, subject, source, control } = query;
  const controlKinds = control ? control.kinds.filter((candidate) => candidate !== 'attestation') : [];
  if (control && kind && kind !== 'attestation' && !controlKinds.includes(kind)) return [];
  if (subject !== undefined) return [{ dimension: 'subject', subject }];
  if (source !== undefined) {
    if (kind) return [{ dimension: 'kind-source', kind, source }];
    if (control) {
      return [
        ...controlKinds.map((each): IndexPath => ({ dimension: 'kind-source', kind: each, source })),
        { dimension: 'control', control: control.id },
      ];
    }
    return [{ dimension: 'source', source }];
  }
  if (control) {
    if (kind === 'attestation') return [{ dimension: 'control', control: control.id }];
    if (kind) return [{ dimension: 'kind', kind }];
    return [
      ...controlKinds.map((each): IndexPath => ({ dimension: 'kind', kind: each })),
      { dimension: 'control', control: control.id },
    ];
  }
  if (kind) return [{ dimension: 'kind', kind }];
  return [{ dimension: 'all' }];
}

/** Whether an entry's metadata satisfies every filter (the index chosen satisfies some already). */
function matches(query: EvidenceQuery, metadata: Record<string, string>): boolean {
  if (query.kind && metadata['kind'] !== query.kind) return false;
  if (query.subject !== undefined && metadata['subject'] !== query.subject) return false;
  if (query.source !== undefined && metadata['source'] !== query.source) return false;
  if (query.control) {
    if (metadata['kind'] === 'attestation') return (metadata['controls'] ?? '').split(',').includes(query.control.id);
    return query.control.kinds.includes(metadata['kind'] ?? '');
  }
  return true;
}

/** One index read in order from a start key, a page at a time, within a shared budget of listings. */
class IndexCursor {
  readonly #store: ObjectStore;
  readonly #prefix: string;
  readonly #start: string;
  readonly #end: string | undefined;
  readonly #budget: { calls: number };
  #buffer: IndexEntry[] = [];
  /** The next entry of `#buffer` to give (a position, so taking one is not a copy of the page). */
  #next = 0;
  #pageToken: string | undefined;
  #done = false;
  #pageSize: number;

  constructor(
    store: ObjectStore,
    prefix: string,
    range: { start: string; end?: string },
    budget: { calls: number },
    firstPage: number,
  ) {
    this.#store = store;
    this.#prefix = prefix;
    this.#start = range.start;
    this.#end = range.end;
    this.#budget = budget;
    this.#pageSize = firstPage;
  }

  /** The next entry, undefined at the end of the index, or 'budget' when out of listings. */
  async peek(): Promise<IndexEntry | undefined | 'budget'> {
    while (this.#next === this.#buffer.length && !this.#done) {
      if (this.#budget.calls >= maxListCalls) return 'budget';
      this.#budget.calls++;
      const page = await this.#store.list(this.#prefix, {
        pageSize: this.#pageSize,
        startOffset: this.#prefix + this.#start,
        ...(this.#end !== undefined ? { endOffset: this.#prefix + this.#end } : {}),
        ...(this.#pageToken ? { pageToken: this.#pageToken } : {}),
      });
      this.#next = 0;
      this.#buffer = page.items.map((info: ObjectInfo) => ({
        key: info.name.slice(this.#prefix.length),
        metadata: info.metadata,
      }));
      this.#pageToken = page.nextPageToken;
      this.#done = !page.nextPageToken;
      this.#pageSize = fullPage;
    }
    return this.#buffer[this.#next];
  }

  shift(): void {
    this.#next++;
  }
}

export async function listEvidence(store: ObjectStore, evidence: EvidenceStore, query: EvidenceQuery): Promise<EvidenceListing> {
  const paths = indexesFor(query);
  if (paths.length === 0) return { items: [], hasMore: false };

  // Newest first means ascending keys: `to` is where the range starts, `from` where it ends.
  let start = query.to !== undefined ? invertedTime(query.to - 1) : '';
  if (query.after !== undefined && nameAfter('', query.after) > start) start = nameAfter('', query.after);
  const end = query.from !== undefined ? invertedTime(query.from - 1) : undefined;
  if (end !== undefined && start >= end) return { items: [], hasMore: false };

  const budget = { calls: 0 };
  const cursors = paths.map(
    (path) =>
      new IndexCursor(store, indexPrefixOf(path), { start, ...(end !== undefined ? { end } : {}) }, budget, query.limit + 1),
  );
  const found: IndexEntry[] = [];
  let lastExamined: string | undefined;
  let stopped = false;
  while (found.length <= query.limit) {
    // The smallest key across the indexes comes next (a k-way merge of sorted lists).
    let next: { cursor: IndexCursor; entry: IndexEntry } | undefined;
    for (const cursor of cursors) {
      const entry = await cursor.peek();
      if (entry === 'budget') {
        stopped = true;
        break;
      }
      if (entry && (!next || entry.key < next.entry.key)) next = { cursor, entry };
    }
    if (stopped || !next) break;
    next.cursor.shift();
    if (next.entry.key === lastExamined) continue;
    lastExamined = next.entry.key;
    if (matches(query, next.entry.metadata)) found.push(next.entry);
  }

  const page = found.slice(0, query.limit);
  const hasMore = found.length > query.limit;
  const items = await evidence.getIndexed(page.map((entry) => idOfKey(entry.key)));
  const listing: EvidenceListing = { items, hasMore };
  if (hasMore) listing.next = page[page.length - 1]!.key;
  else if (stopped && lastExamined !== undefined) listing.next = lastExamined;
  return listing;
}
