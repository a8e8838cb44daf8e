/**
 * Collection runs in the object store (the layout is in run-layout.ts). A collector opens a run
 * for one source and the kinds it will send, sends its batches under the run, and completes it
 * with the count it sent per kind; the run is complete when those agree with what arrived.
 *
 * Everything is create-only and nothing is ever rewritten, so there is no lock:
 * - a batch is admitted (the run open, its items of the run's kinds and source, the bounds
 *   kept), its items are ingested as any others, and then its receipt is written;
 * - completing lists and reads the receipts, counts distinct item ids per kind (a retried batch
 *   counts once), writes a complete run's populations, then the end record — the commit point;
 *   of two requests ending a run at once, the one whose end record is written first wins.
 *   A batch answered after completing listed its receipts is not counted: the counts then
 *   disagree and the run is incomplete, never complete without it;
 * - a run not ended by its `expiresAt` reads as incomplete (`abandoned`), from the clock alone.
 *
 * A complete run is compared with the previous complete population of each (source, kind), the
 * newest entry of its population index: a count that shrank by more than `POPULATION_DROP_PERCENT`
 * is a drop, recorded in the end record. The run's index entries are written once its end record
 * is, so only the winner of a race is indexed; a drop is acknowledged once, create-only.
 */
import { collectionRunLimits } from '@evident/contract';
import { subjectsDigest } from '../assessment/populations.js';
import type { components } from '../generated/api-types.js';
import { idOfKey, pageNewestFirst, timeOfKey, type PlacedPage } from '../storage/newest-first.js';
import { inBatches, listAll, ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import {
  acknowledgementObjectName,
  endObjectName,
  newRunId,
  populationKey,
  populationObjectName,
  populationsIndexPrefix,
  receiptObjectName,
  receiptsPrefix,
  runKey,
  runObjectName,
  segmentIndexPrefix,
  segmentOfMarker,
  sourceIndexPrefix,
  sourceKindMarkerName,
  sourceMarkerName,
  sourcesPrefix,
} from './run-layout.js';
import {
  DropAcknowledged,
  DropNotFound,
  RunCountsRefused,
  RunEnded,
  RunFull,
  RunMismatch,
  RunNotFound,
  type RunMismatchIssue,
} from './run-errors.js';

/** A run as the API shows it: as opened, as ended, and its status now. */
export type CollectionRun = components['schemas']['CollectionRun'];
/** The population a complete run defined for its source and one kind, as its index entry holds it. */
export type PopulationEntry = components['schemas']['CollectionPopulation'];
/** A source that has opened a run, with its newest run. */
export type CollectionSource = components['schemas']['CollectionSource'];
type Actor = CollectionRun['openedBy'];
/** A complete run's population that shrank since the previous complete one, with its acknowledgement once made. */
export type PopulationDrop = components['schemas']['CollectionRunDrop'];
type Acknowledgement = NonNullable<PopulationDrop['acknowledged']>;
type Kind = CollectionRun['kinds'][number];
type Counts = Record<string, number>;

/** A run as opened (`run.json`). */
type Opened = Pick<CollectionRun, 'id' | 'source' | 'kinds' | 'openedAt' | 'openedBy' | 'expiresAt'>;

/** How a run ended (`end.json`). */
type Ended = Pick<CollectionRun, 'endedAt' | 'endedBy' | 'declared' | 'received' | 'incompleteReason' | 'note' | 'drops'> & {
  status: 'complete' | 'incomplete' | 'cancelled';
  endedAt: string;
};

/** A complete run's subjects of one kind, as `population/<kind>.json` holds them. */
export interface Population {
  runId: string;
  source: string;
  kind: string;
  count: number;
  /** The subjects' SHA-256 as the sampling method publishes it (assessment/populations.ts `subjectsDigest`). */
  sha256: string;
  subjects: string[];
}

/** One item of an accepted batch, as its receipt names it. */
export interface ReceivedItem {
  id: string;
  kind: string;
  subject: string;
}

type Receipt = Record<string, [id: string, subject: string][]>;

const parallelReads = 64;

export class RunStore {
  readonly #store: ObjectStore;
  readonly #abandonMs: () => number;
  readonly #dropPercent: () => number;

  /**
   * `abandonHours`: how long a run stays open (`RUN_ABANDON_HOURS`), read when a run opens;
   * `dropPercent`: how far a population may shrink before it is a drop (`POPULATION_DROP_PERCENT`).
   */
  constructor(store: ObjectStore, abandonHours: () => number, dropPercent: () => number) {
    this.#store = store;
    this.#abandonMs = () => abandonHours() * 3_600_000;
    this.#dropPercent = dropPercent;
  }

  async open(input: { source: string; kinds: readonly Kind[]; openedBy: Actor }, now: Date): Promise<CollectionRun> {
    const id = newRunId(now);
    const opened: Opened = {
      id,
      source: input.source,
      kinds: [...new Set(input.kinds)].sort(),
      openedAt: now.toISOString(),
      openedBy: input.openedBy,
      expiresAt: new Date(now.getTime() + this.#abandonMs()).toISOString(),
    };
    // Before the run itself, so every kind of a run that can be read is marked for its source.
    await Promise.all(
      opened.kinds.map((kind) => this.#store.create(sourceKindMarkerName(opened.source, kind), '').catch(ignoreExisting)),
    );
    await this.#store.create(runObjectName(id), JSON.stringify(opened), { contentType: 'application/json' });
    await this.#store.create(`${sourceIndexPrefix(opened.source)}${runKey(id)!}`, '');
    // Written after the index entry, so a listed source always has a run to show; tried at every
    // opening, so a marker whose first write failed is written by the next run.
    await this.#store
      .create(sourceMarkerName(opened.source), JSON.stringify({ source: opened.source }), {
        contentType: 'application/json',
        metadata: { source: encodeURIComponent(opened.source) },
      })
      .catch(ignoreExisting);
    return { ...opened, status: 'running' };
  }

  /** The run as it stands at `now`; `RunNotFound` when there is none. */
  async get(id: string, now: Date): Promise<CollectionRun> {
    const [opened, ended] = await Promise.all([this.#opened(id), this.#ended(id)]);
    return shown(opened, ended && (await this.#withAcknowledgements(id, ended)), now);
  }

  /** A page of a source's runs, newest opening first, after the index key `after`. */
  async page(query: { source: string; after?: string; limit: number }, now: Date): Promise<PlacedPage<CollectionRun>> {
    const { entries, hasMore, next } = await pageNewestFirst(this.#store, sourceIndexPrefix(query.source), {
      limit: query.limit,
      ...(query.after !== undefined ? { after: query.after } : {}),
    });
    const items = await inBatches(entries, parallelReads, (entry) => this.get(idOfKey(entry.key), now));
    return { items, hasMore, ...(next !== undefined ? { next } : {}) };
  }

  /**
   * A page of the sources that have opened runs, in segment order, after the segment `after`:
   * one `list` of the markers, then for each source one `list` of its index and its newest run read.
   */
  async sources(query: { after?: string; limit: number }, now: Date): Promise<PlacedPage<CollectionSource>> {
    const { entries, hasMore } = await pageNewestFirst(this.#store, sourcesPrefix, {
      limit: query.limit,
      ...(query.after !== undefined ? { after: `${query.after}.json` } : {}),
    });
    const segments = entries.map((entry) => segmentOfMarker(`${sourcesPrefix}${entry.key}`));
    const items = await inBatches(segments, parallelReads, async (segment) => {
      const newest = await this.#store.list(segmentIndexPrefix(segment), { pageSize: 1 });
      const run = await this.get(idOfKey(newest.items[0]!.name.slice(segmentIndexPrefix(segment).length)), now);
      return { source: run.source, newestRun: run };
    });
    return { items, hasMore, ...(hasMore ? { next: segments[segments.length - 1]! } : {}) };
  }

  /**
   * A page of the complete populations of a (source, kind), newest completion first, after the
   * index key `after` and completed at or after `since` (ms) when given: one `list` of the index,
   * whose entries carry everything shown, and no read.
   */
  async populations(query: {
    source: string;
    kind: string;
    after?: string;
    since?: number;
    limit: number;
  }): Promise<PlacedPage<PopulationEntry>> {
    const { entries, hasMore, next } = await pageNewestFirst(this.#store, populationsIndexPrefix(query.source, query.kind), {
      limit: query.limit,
      ...(query.after !== undefined ? { after: query.after } : {}),
      ...(query.since !== undefined ? { since: query.since } : {}),
    });
    const items = entries.map(({ key, metadata }) => ({
      runId: idOfKey(key),
      completedAt: new Date(timeOfKey(key)).toISOString(),
      count: Number(metadata['count']),
      sha256: metadata['sha256']!,
    }));
    return { items, hasMore, ...(next !== undefined ? { next } : {}) };
  }

  /**
   * Checks that a batch may be sent under the run: the run is open, every item is of a kind it
   * opened and of its source, and the batch keeps it within its bounds. Throws the run's errors.
   */
  async admit(id: string, items: readonly { kind: Kind; source: string }[], now: Date): Promise<void> {
    const [opened, ended] = await Promise.all([this.#opened(id), this.#ended(id)]);
    refuseEnded(opened, ended, now);
    const issues: RunMismatchIssue[] = [];
    items.forEach((item, index) => {
      if (!opened.kinds.includes(item.kind)) issues.push({ item: index, field: 'kind', expected: opened.kinds });
      if (item.source !== opened.source) issues.push({ item: index, field: 'source', expected: opened.source });
    });
    if (issues.length > 0) throw new RunMismatch(id, issues);
    const receipts = await listAll(this.#store, receiptsPrefix(id));
    if (receipts.length >= collectionRunLimits.batches) throw new RunFull(id, 'batches', collectionRunLimits.batches);
    const received = receipts.reduce((sum, receipt) => sum + Number(receipt.metadata['items'] ?? 0), 0);
    if (received + items.length > collectionRunLimits.items) throw new RunFull(id, 'items', collectionRunLimits.items);
  }

  /** Records an accepted batch's items; the same items again write nothing. */
  async recordBatch(id: string, items: readonly ReceivedItem[]): Promise<void> {
    const receipt: Receipt = {};
    for (const item of items) (receipt[item.kind] ??= []).push([item.id, item.subject]);
    const name = receiptObjectName(
      id,
      items.map((item) => item.id),
    );
    await this.#store
      .create(name, JSON.stringify(receipt), { contentType: 'application/json', metadata: { items: String(items.length) } })
      .catch(ignoreExisting);
  }

  /**
   * Ends a run with the counts its collector sent: complete when they equal what arrived, else
   * incomplete (`counts_disagree`). `RunCountsRefused` when the counts do not name exactly its kinds.
   */
  async complete(id: string, declared: Counts, endedBy: Actor, now: Date): Promise<CollectionRun> {
    const [opened, ended] = await Promise.all([this.#opened(id), this.#ended(id)]);
    refuseEnded(opened, ended, now);
    const missing = opened.kinds.filter((kind) => declared[kind] === undefined);
    const extra = Object.keys(declared).filter((kind) => !(opened.kinds as string[]).includes(kind));
    if (missing.length > 0 || extra.length > 0) throw new RunCountsRefused(missing, extra);
    const subjects = await this.#received(id, opened.kinds);
    const received = Object.fromEntries(opened.kinds.map((kind) => [kind, subjects.get(kind)!.ids.size]));
    const agree = opened.kinds.every((kind) => received[kind] === declared[kind]);
    const populations = agree ? await this.#writePopulations(opened, subjects) : [];
    const drops = await this.#drops(opened.source, populations);
    const end: Ended = {
      status: agree ? 'complete' : 'incomplete',
      endedAt: now.toISOString(),
      endedBy,
      declared: Object.fromEntries(opened.kinds.map((kind) => [kind, declared[kind]!])),
      received,
      ...(agree ? {} : { incompleteReason: 'counts_disagree' as const }),
      ...(drops.length > 0 ? { drops } : {}),
    };
    const run = await this.#end(opened, end, now);
    await this.#index(populations, end.endedAt);
    return run;
  }

  /**
   * Acknowledges a complete run's population drop of one kind, with who and why; once.
   * `RunNotFound`, `DropNotFound` when the run has no drop of the kind, `DropAcknowledged` after the first.
   */
  async acknowledgeDrop(
    id: string,
    kind: string,
    acknowledgement: { by: Actor; reason: string },
    now: Date,
  ): Promise<CollectionRun> {
    const [opened, ended] = await Promise.all([this.#opened(id), this.#ended(id)]);
    if (!ended?.drops?.some((drop) => drop.kind === kind)) throw new DropNotFound(id, kind);
    const made: Acknowledgement = { by: acknowledgement.by, at: now.toISOString(), reason: acknowledgement.reason };
    try {
      await this.#store.create(acknowledgementObjectName(id, kind), JSON.stringify(made), { contentType: 'application/json' });
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      throw new DropAcknowledged(id, kind, (await this.#acknowledgement(id, kind))!.at);
    }
    return shown(opened, await this.#withAcknowledgements(id, ended), now);
  }

  /** Ends a run as cancelled, with an optional note of why. */
  async cancel(id: string, note: string | undefined, endedBy: Actor, now: Date): Promise<CollectionRun> {
    const [opened, ended] = await Promise.all([this.#opened(id), this.#ended(id)]);
    refuseEnded(opened, ended, now);
    const end: Ended = {
      status: 'cancelled',
      endedAt: now.toISOString(),
      endedBy,
      incompleteReason: 'cancelled',
      ...(note !== undefined ? { note } : {}),
    };
    return this.#end(opened, end, now);
  }

  /**
   * Ends a run as incomplete because its collector could not finish (`failed`), with why: what it
   * sent stays stored, and, the run being incomplete, no population shrinks for it.
   */
  async fail(id: string, note: string, endedBy: Actor, now: Date): Promise<CollectionRun> {
    const [opened, ended] = await Promise.all([this.#opened(id), this.#ended(id)]);
    refuseEnded(opened, ended, now);
    const end: Ended = { status: 'incomplete', endedAt: now.toISOString(), endedBy, incompleteReason: 'failed', note };
    return this.#end(opened, end, now);
  }

  /** A complete run's population of one kind; `ObjectNotFound` when the run is not complete or has no such kind. */
  async population(id: string, kind: string): Promise<Population> {
    return JSON.parse((await this.#store.read(populationObjectName(id, kind))).data.toString('utf8')) as Population;
  }

  /** Writes the end record; the loser of a race is told how the winner ended the run. */
  async #end(opened: Opened, end: Ended, now: Date): Promise<CollectionRun> {
    try {
      await this.#store.create(endObjectName(opened.id), JSON.stringify(end), { contentType: 'application/json' });
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      refuseEnded(opened, await this.#ended(opened.id), now);
    }
    return shown(opened, end, now);
  }

  /** Every receipt of the run read: the distinct item ids and subjects per kind. */
  async #received(id: string, kinds: readonly string[]): Promise<Map<string, { ids: Set<string>; subjects: Set<string> }>> {
    const byKind = new Map(kinds.map((kind) => [kind, { ids: new Set<string>(), subjects: new Set<string>() }]));
    const names = (await listAll(this.#store, receiptsPrefix(id))).map((info) => info.name);
    await inBatches(names, parallelReads, async (name) => {
      const receipt = JSON.parse((await this.#store.read(name)).data.toString('utf8')) as Receipt;
      for (const [kind, items] of Object.entries(receipt)) {
        const received = byKind.get(kind);
        for (const [itemId, subject] of received ? items : []) {
          received!.ids.add(itemId);
          received!.subjects.add(subject);
        }
      }
    });
    return byKind;
  }

  async #writePopulations(opened: Opened, received: Map<string, { subjects: Set<string> }>): Promise<Population[]> {
    return Promise.all(
      [...received].map(async ([kind, { subjects }]) => {
        const population = populationOf(opened, kind, subjects);
        await this.#store
          .create(populationObjectName(opened.id, kind), JSON.stringify(population), { contentType: 'application/json' })
          .catch(ignoreExisting);
        return population;
      }),
    );
  }

  /** The populations that shrank by more than the threshold since the newest complete one of their (source, kind). */
  async #drops(source: string, populations: readonly Population[]): Promise<PopulationDrop[]> {
    const threshold = this.#dropPercent();
    const drops = await Promise.all(
      populations.map(async ({ kind, count }): Promise<PopulationDrop | undefined> => {
        const prefix = populationsIndexPrefix(source, kind);
        const previous = (await this.#store.list(prefix, { pageSize: 1 })).items[0];
        if (!previous) return undefined;
        const previousCount = Number(previous.metadata['count']);
        // In whole numbers, so a drop of exactly the threshold is never one by a rounding error.
        if ((previousCount - count) * 100 <= threshold * previousCount) return undefined;
        const percent = Math.round(((previousCount - count) * 1000) / previousCount) / 10;
        return { kind: kind as Kind, previousRunId: idOfKey(previous.name.slice(prefix.length)), previousCount, count, percent };
      }),
    );
    return drops.filter((drop) => drop !== undefined);
  }

  /** The complete run's index entries: its populations become the newest of their (source, kind). */
  async #index(populations: readonly Population[], endedAt: string): Promise<void> {
    await Promise.all(
      populations.map((population) =>
        this.#store
          .create(
            `${populationsIndexPrefix(population.source, population.kind)}${populationKey(population.runId, endedAt)}`,
            '',
            {
              metadata: { count: String(population.count), sha256: population.sha256 },
            },
          )
          .catch(ignoreExisting),
      ),
    );
  }

  /** The end record with each drop's acknowledgement, when made: one read per drop, none for a run without. */
  async #withAcknowledgements(id: string, ended: Ended): Promise<Ended> {
    if (!ended.drops) return ended;
    const drops = await Promise.all(
      ended.drops.map(async (drop) => {
        const acknowledged = await this.#acknowledgement(id, drop.kind);
        return acknowledged ? { ...drop, acknowledged } : drop;
      }),
    );
    return { ...ended, drops };
  }

  async #acknowledgement(id: string, kind: string): Promise<Acknowledgement | undefined> {
    try {
      return JSON.parse((await this.#store.read(acknowledgementObjectName(id, kind))).data.toString('utf8')) as Acknowledgement;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  async #opened(id: string): Promise<Opened> {
    try {
      return JSON.parse((await this.#store.read(runObjectName(id))).data.toString('utf8')) as Opened;
    } catch (error) {
      if (error instanceof ObjectNotFound) throw new RunNotFound(id);
      throw error;
    }
  }

  async #ended(id: string): Promise<Ended | undefined> {
    try {
      return JSON.parse((await this.#store.read(endObjectName(id))).data.toString('utf8')) as Ended;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }
}

/** The population of a kind: its subjects sorted, counted and hashed. */
export function populationOf(opened: { id: string; source: string }, kind: string, subjects: Iterable<string>): Population {
  const sorted = [...subjects].sort();
  return {
    runId: opened.id,
    source: opened.source,
    kind,
    count: sorted.length,
    sha256: subjectsDigest(sorted),
    subjects: sorted,
  };
}

/** The run as it stands at `now`: as it ended, else running until it expires, then abandoned. */
function shown(opened: Opened, ended: Ended | undefined, now: Date): CollectionRun {
  if (ended) return { ...opened, ...ended };
  if (now.getTime() < Date.parse(opened.expiresAt)) return { ...opened, status: 'running' };
  return { ...opened, status: 'incomplete', incompleteReason: 'abandoned' };
}

/** Refuses anything more of a run that ended, or expired unfinished. */
function refuseEnded(opened: Opened, ended: Ended | undefined, now: Date): void {
  if (ended) throw new RunEnded(opened.id, ended.status === 'complete' ? 'complete' : ended.incompleteReason!, ended.endedAt);
  if (now.getTime() >= Date.parse(opened.expiresAt)) throw new RunEnded(opened.id, 'abandoned', opened.expiresAt);
}

function ignoreExisting(error: unknown): void {
  if (!(error instanceof PreconditionFailed)) throw error;
}
