/**
 * Exceptions in the object store (the layout: exception-layout.ts). Records and revocations are
 * append-only; each control's index of open exceptions (exception-index.ts) is kept beside them
 * by compare-and-swap, and enforces the cap on active exceptions.
 *
 * What each read costs, however long the history grows:
 * - one exception: its record and its revocation (two reads);
 * - the exceptions in force for a report: one listing of the indexes and a read of each (at
 *   most one per control of the catalog); only a report made more than `keptDays` late for
 *   its day walks the records instead, those that expire after that day;
 * - a page of active ones: the indexes (one with a control), then a record per exception shown;
 * - a page of ended ones, or of all: a listing from the cursor's place (exception-history.ts),
 *   then a record and a revocation per exception shown.
 *
 * Order of writes: a record is created before its index entry, and deleted again when the index
 * refuses it (the cap, or writers outracing it every time), so no index names an exception that
 * has no record; one that died between the two leaves a record no report applies. A revocation
 * is created before the index says so; revoking again (409) brings an index that missed it (a
 * crash between the two) up to date.
 */
import { addDays } from '../assessment/dates.js';
import type { ActiveException } from '../assessment/exceptions.js';
import type { Actor } from '../assessment/model.js';
import type { PlacedPage } from '../storage/newest-first.js';
import {
  inBatches,
  listNames,
  mutateObject,
  ObjectNotFound,
  PreconditionFailed,
  type ObjectStore,
} from '../storage/object-store.js';
import { historyPage } from './exception-history.js';
import {
  answersFor,
  ExceptionLimitReached,
  inForceIn,
  isActive,
  parseIndex,
  withNewEntry,
  withRevocation,
  type ControlIndex,
  type IndexEntry,
} from './exception-index.js';
import {
  dayStart,
  idOfName,
  indexName,
  indexPrefix,
  recordName,
  recordsPrefix,
  revocationName,
  revocationsPrefix,
  writeOptionsFor,
} from './exception-layout.js';

export { newExceptionId } from './exception-layout.js';

export interface ExceptionRecord extends ActiveException {
  justification: string;
  createdAt: string;
}

export interface Revocation {
  at: string;
  by: Actor;
  reason: string | null;
}

export interface StoredException {
  record: ExceptionRecord;
  revocation: Revocation | undefined;
}

export type ExceptionState = 'active' | 'ended' | 'all';

export interface ExceptionQuery {
  state: ExceptionState;
  /** Today in the report time zone, which states are judged by. */
  today: string;
  control?: string;
  /** Only exceptions expiring on this day or before. */
  expiringBy?: string;
  /** The id to continue after (a cursor's place). */
  after?: string;
  limit: number;
}

const json = { contentType: 'application/json' };
const entryOf = ({ id, subject, expiresOn, createdAt, approver }: ExceptionRecord): IndexEntry => ({
  id,
  subject,
  expiresOn,
  createdAt,
  approver,
});

export class ExceptionStore {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /**
   * Records an exception, as of `today` in the report time zone; throws `ExceptionLimitReached`
   * when its subject has as many active exceptions of the control as it may.
   */
  async create(record: ExceptionRecord, today: string): Promise<void> {
    await this.#store.create(recordName(record.id), JSON.stringify(record), writeOptionsFor(record.controlId));
    try {
      await this.#mutateIndex(record.controlId, (index) => withNewEntry(index, record.controlId, entryOf(record), today));
    } catch (error) {
      // Refused, or outraced every time: the index surely lacks it, so the record goes too. Any
      // other failure may have written the index, so the record stays.
      if (error instanceof ExceptionLimitReached || error instanceof PreconditionFailed) {
        await this.#store.delete(recordName(record.id)).catch(() => undefined);
      }
      throw error;
    }
  }

  async get(id: string): Promise<StoredException | undefined> {
    try {
      const [record, revocation] = await Promise.all([this.#record(id), this.#revocation(id)]);
      return { record, revocation };
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /**
   * Records the revocation unless there is one, and marks the index: `revoked` with this
   * revocation, or `already` with the one that stands.
   */
  async revoke(
    record: ExceptionRecord,
    revocation: Revocation,
  ): Promise<{ outcome: 'revoked' | 'already'; standing: Revocation }> {
    let result: { outcome: 'revoked' | 'already'; standing: Revocation } = { outcome: 'revoked', standing: revocation };
    try {
      await this.#store.create(revocationName(record.id), JSON.stringify(revocation), writeOptionsFor(record.controlId));
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      result = { outcome: 'already', standing: (await this.#revocation(record.id))! };
    }
    await this.#mutateIndex(record.controlId, (index) =>
      withRevocation(index, entryOf(record), result.standing.at, revocation.at),
    );
    return result;
  }

  /**
   * The exceptions in force for the report of `date` evaluated as of `asOf`: expiring after that
   * day, recorded before `asOf`, and not revoked before it.
   */
  async inForce(date: string, asOf: Date): Promise<ActiveException[]> {
    const indexes = await this.#indexes();
    if (!indexes.every(({ index }) => answersFor(index, asOf))) return this.#inForceFromRecords(date, asOf);
    return indexes.flatMap(({ controlId, index }) => inForceIn(index, controlId, date, asOf));
  }

  /** A page of exceptions in id order, which is soonest expiry first. */
  async page(query: ExceptionQuery): Promise<PlacedPage<StoredException>> {
    if (query.state === 'active') return this.#activePage(query);
    const { items, ...rest } = await historyPage(this.#store, { ...query, state: query.state });
    const found = await inBatches(items, 16, (id) => this.get(id));
    return { items: found.filter((stored): stored is StoredException => stored !== undefined), ...rest };
  }

  async #activePage(query: ExceptionQuery): Promise<PlacedPage<StoredException>> {
    const indexes =
      query.control !== undefined
        ? [{ controlId: query.control, index: await this.#index(query.control) }]
        : await this.#indexes();
    const ids = indexes
      .flatMap(({ index }) => index.entries)
      .filter(
        (entry) =>
          isActive(entry, query.today) &&
          (query.expiringBy === undefined || entry.expiresOn <= query.expiringBy) &&
          (query.after === undefined || entry.id > query.after),
      )
      .map((entry) => entry.id)
      .sort();
    const shown = ids.slice(0, query.limit);
    const items = await inBatches(shown, 16, async (id) => ({ record: await this.#record(id), revocation: undefined }));
    return ids.length > query.limit ? { items, hasMore: true, next: shown[shown.length - 1]! } : { items, hasMore: false };
  }

  /** Every control's index: one listing (at most one name per control) and a read of each. */
  async #indexes(): Promise<{ controlId: string; index: ControlIndex }[]> {
    const names = await listNames(this.#store, indexPrefix);
    return inBatches(names, 16, async (name) => {
      const controlId = name.slice(indexPrefix.length, -'.json'.length);
      return { controlId, index: parseIndex((await this.#store.read(name)).data) };
    });
  }

  async #index(controlId: string): Promise<ControlIndex> {
    try {
      return parseIndex((await this.#store.read(indexName(controlId))).data);
    } catch (error) {
      if (error instanceof ObjectNotFound) return parseIndex(undefined);
      throw error;
    }
  }

  #mutateIndex(controlId: string, change: (index: ControlIndex) => ControlIndex) {
    return mutateObject(this.#store, indexName(controlId), (current) => JSON.stringify(change(parseIndex(current))), json);
  }

  /**
   * The exceptions in force from the records, for a report made so late for its day that an
   * index has dropped what ended since: those expiring after the day, and their revocations.
   */
  async #inForceFromRecords(date: string, asOf: Date): Promise<ActiveException[]> {
    const from = addDays(date, 1);
    const [names, revoked] = await Promise.all([
      listNames(this.#store, recordsPrefix, { startOffset: dayStart(recordsPrefix, from) }),
      listNames(this.#store, revocationsPrefix, { startOffset: dayStart(revocationsPrefix, from) }),
    ]);
    const revokedIds = new Set(revoked.map(idOfName));
    const cutoff = asOf.toISOString();
    const found = await inBatches(names, 16, async (name): Promise<ActiveException[]> => {
      const id = idOfName(name);
      const [record, revocation] = await Promise.all([this.#record(id), revokedIds.has(id) ? this.#revocation(id) : undefined]);
      if (record.createdAt >= cutoff || (revocation && revocation.at < cutoff)) return [];
      return [
        { id, controlId: record.controlId, subject: record.subject, expiresOn: record.expiresOn, approver: record.approver },
      ];
    });
    return found.flat();
  }

  async #record(id: string): Promise<ExceptionRecord> {
    return JSON.parse((await this.#store.read(recordName(id))).data.toString('utf8')) as ExceptionRecord;
  }

  async #revocation(id: string): Promise<Revocation | undefined> {
    try {
      return JSON.parse((await this.#store.read(revocationName(id))).data.toString('utf8')) as Revocation;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }
}

/** Whether a store holds exceptions but no control index: written before indexes, to migrate. */
export async function hasUnindexedExceptions(store: ObjectStore): Promise<boolean> {
  const [records, indexes] = await Promise.all([
    store.list(recordsPrefix, { pageSize: 1 }),
    store.list(indexPrefix, { pageSize: 1 }),
  ]);
  return records.items.length > 0 && indexes.items.length === 0;
}
