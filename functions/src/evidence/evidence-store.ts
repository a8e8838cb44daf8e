/**
 * Evidence in the object store (the layout is in evidence-layout.ts). Items are append-only;
 * ingest is idempotent by item id and by `Idempotency-Key`, across any number of concurrent
 * writers, with no lock:
 *
 *   1. each item's id is claimed create-only (`evidence-ids/<id>.json`, the item itself);
 *   2. the items whose claims this request won are written as one batch object in the day's
 *      partition — the commit point: evaluation reads batches, nothing else;
 *   3. the listing index entries are written, then a marker saying the batch is indexed.
 *
 * A retry finds its claims: same content and a committed batch → `existing`; other content → a
 * conflict, refused before anything is written. A claim whose batch never appeared (its writer
 * died between 1 and 2) is taken over by the next request for that id once it is older than
 * `settleMs`; until then that request waits briefly for the batch, then answers "in flight".
 * Writers give up before writing a batch more than `commitDeadlineMs` after it was stamped, so
 * a batch's receivedAt is never more than `settleMs` behind the moment it becomes visible —
 * which is what lets the daily job's checkpoints trail the present by `settleMs` and miss
 * nothing (see evidence-snapshot.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EvidenceInput, EvidenceItem } from '../assessment/model.js';
import { inBatches, listNames, ObjectNotFound, pages, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import { canonicalJson } from './canonical-json.js';
import {
  batchNameFrom,
  batchObjectName,
  batchOfIndexedMarker,
  batchReceivedAt,
  claimObjectName,
  indexedMarkerName,
  indexedMarkersPrefix,
  indexKey,
  indexesOf,
  indexPrefixOf,
  partitionsPrefix,
  utcDay,
} from './evidence-layout.js';
import { parseNdjson, parseSizedNdjson, toNdjson, type SizedItem } from './ndjson.js';
import { checkDistinctIds, checkLimits } from './evidence-checks.js';
import { EvidenceConflict, EvidenceInFlight } from './evidence-errors.js';
import { IdempotencyKeys } from './idempotency-keys.js';

const parallelWrites = 64;

export interface IngestOutcome {
  id: string;
  status: 'created' | 'existing';
}

export interface EvidenceStoreOptions {
  /** How long an uncommitted claim is presumed alive, and how far checkpoints trail the present. */
  settleMs?: number;
  /** How long a request waits for a concurrent request's batch that holds the same item. */
  waitForPeerMs?: number;
  /** A writer that took longer than this since stamping its batch gives up instead of writing it. */
  commitDeadlineMs?: number;
}

const defaultSettleMs = 5 * 60_000;

interface Claim {
  item: EvidenceItem;
  /** The size of the item as stored, for the cache's accounting. */
  bytes: number;
  batch: string;
  fingerprint: string;
  generation: string;
  updated: number;
}

type Decision =
  | { action: 'existing'; batch: string }
  | { action: 'claim' }
  | { action: 'takeover'; generation: string }
  /** Claimed by a request still writing it: `existing` once its batch appears. */
  | { action: 'peer'; batch: string };

/**
 * What makes two items the same item: everything the sender chose, not when it arrived nor the
 * collection run it arrived under — the same item sent again in a later run is that item, and
 * counts for that run too (runs/run-store.ts).
 */
export function fingerprint(item: Omit<EvidenceItem, 'receivedAt'> & { receivedAt?: string }): string {
  const { receivedAt: _receivedAt, runId: _runId, ...content } = item;
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/** A new id that sorts by creation time: `ev-` + base36 milliseconds + randomness. */
export function newEvidenceId(now: Date): string {
  return `ev-${now.getTime().toString(36).padStart(9, '0')}-${randomBytes(6).toString('hex')}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Items kept per instance, by bytes: a listing page re-read is free, a function's memory is not. */
const maxCachedBytes = 16 * 1024 * 1024;

export class EvidenceStore {
  readonly #store: ObjectStore;
  readonly #settleMs: number;
  readonly #waitForPeerMs: number;
  readonly #commitDeadlineMs: number;
  readonly #cache = new Map<string, { item: EvidenceItem; bytes: number }>();
  #cachedBytes = 0;
  /** Batches known to exist: a batch, once written, is never removed. */
  readonly #committed = new Set<string>();

  constructor(store: ObjectStore, options: EvidenceStoreOptions = {}) {
    this.#store = store;
    this.#settleMs = options.settleMs ?? defaultSettleMs;
    this.#waitForPeerMs = options.waitForPeerMs ?? 5_000;
    this.#commitDeadlineMs = options.commitDeadlineMs ?? 60_000;
  }

  get settleMs(): number {
    return this.#settleMs;
  }

  /**
   * Stores items sent by a collector or a submission. Ids come from the items, else from the
   * idempotency key (so a retried request derives the same ids), else are new. Limits and
   * conflicts are checked before anything is written, so a refused request stores nothing; a
   * refusal is one of the errors of evidence-errors.ts, naming items by their index in `inputs`.
   */
  async ingest(
    inputs: readonly EvidenceInput[],
    options: { receivedAt: Date; idempotencyKey?: string; extra?: Partial<EvidenceItem> },
  ): Promise<IngestOutcome[]> {
    checkLimits(inputs);
    const keyHash = options.idempotencyKey ? createHash('sha256').update(options.idempotencyKey).digest('hex') : undefined;
    const items: EvidenceItem[] = inputs.map((input, index) => ({
      ...input,
      id: input.id ?? (keyHash ? `k-${keyHash.slice(0, 24)}-${index}` : newEvidenceId(options.receivedAt)),
      receivedAt: options.receivedAt.toISOString(),
      attachments: [],
      ...options.extra,
    }));
    checkDistinctIds(items);

    const keys = new IdempotencyKeys(this.#store);
    const key = keyHash ? await keys.claim(keyHash, items.map(fingerprint)) : undefined;
    if (key?.outcomes) return key.outcomes;
    const outcomes = await this.#commit(items);
    if (key) await keys.record(key, outcomes);
    return outcomes;
  }

  /**
   * Stores items that already carry their `receivedAt` (the migration from the old layout): the
   * same claims and conflicts as ingest, one batch per UTC day of arrival.
   */
  async importItems(items: readonly EvidenceItem[]): Promise<IngestOutcome[]> {
    checkDistinctIds(items);
    return this.#commit(items);
  }

  /** The steps of a commit, in order: decide from the claims, claim, settle races, write batches, index. */
  async #commit(items: readonly EvidenceItem[]): Promise<IngestOutcome[]> {
    const started = performance.now();
    const fingerprints = items.map(fingerprint);
    const claims = await inBatches(items, parallelWrites, (item) => this.#readClaim(item.id));
    const decisions = await this.#decide(items, fingerprints, claims);
    const batchFor = batchNamer(items);
    const { written, raced } = await this.#claim(items, fingerprints, decisions, batchFor);
    await this.#settleRaces(items, fingerprints, decisions, raced, written);
    if (performance.now() - started > this.#commitDeadlineMs) {
      await this.#withdraw(written);
      throw new EvidenceInFlight('too_slow');
    }
    const won = new Set(written.map((claim) => claim.id));
    await this.#writeBatches(
      items.filter((item) => won.has(item.id)),
      batchFor,
    );
    await this.#repairIndexOf(
      items.flatMap((item, index) => {
        const decision = decisions[index]!;
        return decision.action === 'existing' ? [{ item, batch: decision.batch }] : [];
      }),
    );
    await this.#waitForPeers(decisions);
    return items.map((item) => ({ id: item.id, status: won.has(item.id) ? 'created' : 'existing' }));
  }

  /** Writes the claims decided on; those another writer took first meanwhile are `raced`. */
  async #claim(
    items: readonly EvidenceItem[],
    fingerprints: readonly string[],
    decisions: readonly Decision[],
    batchFor: (item: EvidenceItem) => string,
  ): Promise<{ written: { id: string; generation: string }[]; raced: number[] }> {
    const written: { id: string; generation: string }[] = [];
    const raced: number[] = [];
    await inBatches(items, parallelWrites, async (item, index) => {
      const decision = decisions[index]!;
      if (decision.action !== 'claim' && decision.action !== 'takeover') return;
      const body = JSON.stringify(item);
      const options = { contentType: 'application/json', metadata: { batch: batchFor(item), fingerprint: fingerprints[index]! } };
      try {
        const info =
          decision.action === 'claim'
            ? await this.#store.create(claimObjectName(item.id), body, options)
            : await this.#store.replace(claimObjectName(item.id), body, decision.generation, options);
        written.push({ id: item.id, generation: info.generation });
      } catch (error) {
        if (!(error instanceof PreconditionFailed)) throw error;
        raced.push(index);
      }
    });
    return { written, raced };
  }

  /**
   * Someone claimed an id between our check and our write: the same item waits for their
   * batch; another item means the request is refused, and our claims are withdrawn.
   */
  async #settleRaces(
    items: readonly EvidenceItem[],
    fingerprints: readonly string[],
    decisions: Decision[],
    raced: readonly number[],
    written: readonly { id: string; generation: string }[],
  ): Promise<void> {
    for (const index of raced) {
      const claim = await this.#readClaim(items[index]!.id);
      if (claim && claim.fingerprint === fingerprints[index]) {
        decisions[index] = { action: 'peer', batch: claim.batch };
        continue;
      }
      await this.#withdraw(written);
      throw new EvidenceConflict(items[index]!.id, 'raced');
    }
  }

  /** The commit point: the won items as one batch object per day, then their index entries. */
  async #writeBatches(won: readonly EvidenceItem[], batchFor: (item: EvidenceItem) => string): Promise<void> {
    const batches = new Map<string, EvidenceItem[]>();
    for (const item of won) appendTo(batches, batchFor(item), item);
    for (const [batch, items] of batches) {
      await this.#store.create(batch, toNdjson(items), { contentType: 'application/x-ndjson' });
      this.#committed.add(batch);
      for (const item of items) this.#remember(item);
    }
    for (const [batch, items] of batches) await this.writeIndex(batch, items);
  }

  /** Decides, per item, from its claim: refuses conflicts and young claims of others before anything is written. */
  async #decide(
    items: readonly EvidenceItem[],
    fingerprints: readonly string[],
    claims: readonly (Claim | undefined)[],
  ): Promise<Decision[]> {
    const batches = [...new Set(claims.flatMap((claim) => (claim ? [claim.batch] : [])))];
    const committed = new Set(
      (await inBatches(batches, parallelWrites, async (batch) => ((await this.#isCommitted(batch)) ? batch : undefined))).filter(
        (batch) => batch !== undefined,
      ),
    );
    const now = Date.now();
    return items.map((item, index): Decision => {
      const claim = claims[index];
      if (!claim) return { action: 'claim' };
      if (!committed.has(claim.batch) && now - claim.updated >= this.#settleMs) {
        // Its writer died before committing: the id is free again.
        return { action: 'takeover', generation: claim.generation };
      }
      if (claim.fingerprint !== fingerprints[index]) {
        throw new EvidenceConflict(item.id, 'exists');
      }
      return committed.has(claim.batch) ? { action: 'existing', batch: claim.batch } : { action: 'peer', batch: claim.batch };
    });
  }

  /** Waits for the batches of concurrent requests that hold some of our items. */
  async #waitForPeers(decisions: Decision[]): Promise<void> {
    const pending = new Set(decisions.flatMap((decision) => (decision.action === 'peer' ? [decision.batch] : [])));
    const deadline = performance.now() + this.#waitForPeerMs;
    for (let pause = 20; pending.size > 0; pause = Math.min(pause * 2, 500)) {
      for (const batch of [...pending]) if (await this.#isCommitted(batch)) pending.delete(batch);
      if (pending.size === 0) return;
      if (performance.now() > deadline) {
        throw new EvidenceInFlight('peer_pending');
      }
      await sleep(pause);
    }
  }

  async #withdraw(claims: readonly { id: string; generation: string }[]): Promise<void> {
    await inBatches(claims, parallelWrites, async ({ id, generation }) => {
      await this.#store.delete(claimObjectName(id), { ifGeneration: generation }).catch((error: unknown) => {
        if (!(error instanceof PreconditionFailed) && !(error instanceof ObjectNotFound)) throw error;
      });
    });
  }

  /**
   * Files a committed batch's items in the listing indexes, then marks the batch indexed. Entries
   * are create-only and named by the item, so doing it again (a retry, a repair) changes nothing.
   */
  async writeIndex(batch: string, items: readonly EvidenceItem[]): Promise<void> {
    await this.#fileInIndexes(items);
    await this.#store.create(indexedMarkerName(batch), '').catch(ignoreExisting);
  }

  async #fileInIndexes(items: readonly EvidenceItem[]): Promise<void> {
    const entries = items.flatMap((item) =>
      indexesOf(item).map((path) => ({
        name: `${indexPrefixOf(path)}${indexKey(Date.parse(item.collectedAt), item.id)}`,
        metadata: indexMetadata(item),
      })),
    );
    await inBatches(entries, parallelWrites, ({ name, metadata }) =>
      this.#store.create(name, '', { metadata }).catch(ignoreExisting),
    );
  }

  /**
   * A retry of items whose first writer stopped between its batch and its index files them again
   * (the marker is left to the daily job, which knows every item of the batch).
   */
  async #repairIndexOf(existing: readonly { item: EvidenceItem; batch: string }[]): Promise<void> {
    const byBatch = new Map<string, EvidenceItem[]>();
    for (const { item, batch } of existing) appendTo(byBatch, batch, item);
    for (const [batch, items] of byBatch) {
      const indexed = await this.#store.stat(indexedMarkerName(batch)).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ObjectNotFound) return false;
          throw error;
        },
      );
      if (!indexed) await this.#fileInIndexes(items);
    }
  }

  async #readClaim(id: string): Promise<Claim | undefined> {
    try {
      const { data, info } = await this.#store.read(claimObjectName(id));
      return {
        item: JSON.parse(data.toString('utf8')) as EvidenceItem,
        bytes: data.length,
        batch: info.metadata['batch'] ?? '',
        fingerprint: info.metadata['fingerprint'] ?? '',
        generation: info.generation,
        updated: Date.parse(info.updated),
      };
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  async #isCommitted(batch: string): Promise<boolean> {
    if (this.#committed.has(batch)) return true;
    try {
      await this.#store.stat(batch);
    } catch (error) {
      if (error instanceof ObjectNotFound) return false;
      throw error;
    }
    if (this.#committed.size > 10_000) this.#committed.clear();
    this.#committed.add(batch);
    return true;
  }

  #remember(item: EvidenceItem, bytes = JSON.stringify(item).length): void {
    if (bytes > maxCachedBytes / 16) return;
    this.#cache.delete(item.id);
    this.#cache.set(item.id, { item, bytes });
    this.#cachedBytes += bytes;
    while (this.#cachedBytes > maxCachedBytes) {
      const [oldest, entry] = this.#cache.entries().next().value!;
      this.#cache.delete(oldest);
      this.#cachedBytes -= entry.bytes;
    }
  }

  /** One committed item; `ObjectNotFound` when there is none (or its request never committed it). */
  async get(id: string): Promise<EvidenceItem> {
    const cached = this.#cache.get(id);
    if (cached) return cached.item;
    const claim = await this.#readClaim(id);
    if (!claim || !(await this.#isCommitted(claim.batch))) throw new ObjectNotFound(claimObjectName(id));
    this.#remember(claim.item, claim.bytes);
    return claim.item;
  }

  /**
   * Items named by the listing indexes, in the order given. Index entries are written only after
   * their batch, so these are committed without asking.
   */
  async getIndexed(ids: readonly string[]): Promise<EvidenceItem[]> {
    return inBatches(ids, parallelWrites, async (id) => {
      const cached = this.#cache.get(id);
      if (cached) return cached.item;
      const claim = await this.#readClaim(id);
      if (!claim) throw new Error(`the evidence index names ${id}, which has no claim`);
      this.#remember(claim.item, claim.bytes);
      return claim.item;
    });
  }

  /** The items of one batch object, each line as written. */
  async readBatch(name: string): Promise<EvidenceItem[]> {
    return parseNdjson((await this.#store.read(name)).data);
  }

  /** The same, each item with the bytes of its line. */
  async readSizedBatch(name: string): Promise<SizedItem[]> {
    return parseSizedNdjson((await this.#store.read(name)).data);
  }

  /**
   * The names of the batches that arrived after `after` and up to `upTo` (milliseconds), in
   * arrival order. With no `after` (no checkpoint yet), every batch ever stored.
   */
  async *batchesBetween(after: number, upTo: number): AsyncGenerator<string> {
    for await (const { name } of this.batchObjectsBetween(after, upTo)) yield name;
  }

  /**
   * The same batches with their sizes, for a reader that bounds the bytes it holds. A batch's
   * name starts with its arrival time, so the batches between two times are the names between
   * two offsets of one listing, a page per thousand batches: a year of daily batches is two
   * pages, not a listing per UTC day.
   */
  async *batchObjectsBetween(after: number, upTo: number): AsyncGenerator<{ name: string; size: number }> {
    if (after > upTo) return;
    const range = {
      ...(Number.isFinite(after) ? { startOffset: batchNameFrom(after + 1) } : {}),
      ...(Number.isFinite(upTo) ? { endOffset: batchNameFrom(upTo + 1) } : {}),
    };
    for await (const page of pages(this.#store, partitionsPrefix, range)) {
      for (const { name, size } of page.items) {
        const received = batchReceivedAt(name);
        if (received !== undefined && received > after && received <= upTo) yield { name, size };
      }
    }
  }

  /** Batches of a UTC day whose index entries are known to be complete. */
  async indexedBatches(day: string): Promise<Set<string>> {
    return new Set((await listNames(this.#store, indexedMarkersPrefix(day))).map(batchOfIndexedMarker));
  }
}

/**
 * The batch each item goes in: one per UTC day of arrival (ingest has one; an import may span
 * days), named by the latest arrival in it, so a batch is never older by name than any item it holds.
 */
function batchNamer(items: readonly EvidenceItem[]): (item: EvidenceItem) => string {
  const latestByDay = new Map<string, number>();
  for (const item of items) {
    const received = Date.parse(item.receivedAt);
    const day = utcDay(received);
    latestByDay.set(day, Math.max(received, latestByDay.get(day) ?? -Infinity));
  }
  const token = randomBytes(6).toString('hex');
  const names = new Map([...latestByDay].map(([day, latest]) => [day, batchObjectName(latest, token)]));
  return (item) => names.get(utcDay(Date.parse(item.receivedAt)))!;
}

function indexMetadata(item: EvidenceItem): Record<string, string> {
  return {
    kind: item.kind,
    subject: item.subject,
    source: item.source,
    ...(item.controls && item.controls.length > 0 ? { controls: item.controls.join(',') } : {}),
  };
}

/** Adds to a map of lists in place: copying the list for each item would cost the square of an import's 5,000. */
function appendTo<T>(lists: Map<string, T[]>, key: string, value: T): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

function ignoreExisting(error: unknown): void {
  if (!(error instanceof PreconditionFailed)) throw error;
}
