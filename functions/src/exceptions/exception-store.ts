/**
 * Exceptions in the object store (the layout: exception-layout.ts). Records, reviews and
 * revocations are append-only; each control's index of open exceptions (exception-index.ts) is
 * kept beside them by compare-and-swap, and enforces the cap on requested and active exceptions.
 *
 * What each read costs, however long the history grows:
 * - one exception: its record, its review and its revocation (three reads);
 * - the exceptions in force for a report: one listing of the indexes and a read of each (at
 *   most one per control of the catalog); only a report made more than `keptDays` late for
 *   its day walks the records instead, those that expire after that day;
 * - a page of active or requested ones: the indexes (one with a control), then a record (and for
 *   an active one its review) per exception shown;
 * - a page of refused or ended ones, or of all: a listing from the cursor's place
 *   (exception-history.ts), then a record, a review and a revocation per exception shown.
 *
 * Order of writes: a record is created before its index entry, and deleted again when the index
 * refuses it (the cap, or writers outracing it every time), so no index names an exception that
 * has no record; one that died between the two leaves a record no report applies. A review and a
 * revocation are each created before the index says so; reviewing or revoking again (409)
 * brings an index that missed it (a crash between the two) up to date.
 */
import { addDays } from '../assessment/dates.js';
import type { ActiveException } from '../assessment/exceptions.js';
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
  isRequested,
  parseIndex,
  withNewEntry,
  withReview,
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
  reviewName,
  reviewsPrefix,
  revocationName,
  revocationsPrefix,
  writeOptionsFor,
} from './exception-layout.js';
import { readRecord, type ExceptionRecord, type Review, type Revocation, type StoredException } from './exception-records.js';

export { newExceptionId } from './exception-layout.js';
export type { ExceptionRecord, Review, Revocation, StoredException } from './exception-records.js';

export type ExceptionState = 'active' | 'requested' | 'refused' | 'ended' | 'all';

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
/** The index entry of a record, as requested. */
const entryOf = ({ id, subject, expiresOn, createdAt, requestedBy }: ExceptionRecord): IndexEntry => ({
  id,
  subject,
  expiresOn,
  createdAt,
  requestedBy,
});

/** What a review or a revocation found: its own outcome, or `already` with the one that stands. */
export type Outcome<T> = { outcome: 'recorded'; standing: T } | { outcome: 'already'; standing: T };

export class ExceptionStore {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /**
   * Records a requested exception, as of `today` in the report time zone; throws
   * `ExceptionLimitReached` when its subject has as many requested or active exceptions of the
   * control as it may.
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
      const [{ record, approvedAtOnce }, review, revocation] = await Promise.all([
        this.#read(id),
        this.#optional<Review>(reviewName(id)),
        this.#optional<Revocation>(revocationName(id)),
      ]);
      return { record, review: approvedAtOnce ?? review, revocation };
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /**
   * Records the approval or refusal unless there is one (the create-only write decides between
   * two reviewers at once), and marks the index: `recorded`, or `already` with the review that stands.
   */
  async review(record: ExceptionRecord, review: Review): Promise<Outcome<Review>> {
    const options = writeOptionsFor(record.controlId, { decision: review.decision });
    const result = await this.#createOnce(reviewName(record.id), review, options);
    await this.#mutateIndex(record.controlId, (index) => withReview(index, entryOf(record), result.standing, review.at));
    return result;
  }

  /**
   * Records the revocation unless there is one, and marks the index: `recorded` with this
   * revocation, or `already` with the one that stands.
   */
  async revoke(record: ExceptionRecord, revocation: Revocation): Promise<Outcome<Revocation>> {
    const result = await this.#createOnce(revocationName(record.id), revocation, writeOptionsFor(record.controlId));
    await this.#mutateIndex(record.controlId, (index) =>
      withRevocation(index, entryOf(record), result.standing.at, revocation.at),
    );
    return result;
  }

  /** Writes an object unless one is there: `recorded`, or `already` with what is there. */
  async #createOnce<T>(name: string, value: T, options: ReturnType<typeof writeOptionsFor>): Promise<Outcome<T>> {
    try {
      await this.#store.create(name, JSON.stringify(value), options);
      return { outcome: 'recorded', standing: value };
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      return { outcome: 'already', standing: (await this.#optional<T>(name))! };
    }
  }

  /**
   * The exceptions in force for the report of `date` evaluated as of `asOf`: expiring after that
   * day, approved before `asOf`, and not revoked before it.
   */
  async inForce(date: string, asOf: Date): Promise<ActiveException[]> {
    const indexes = await this.#indexes();
    if (!indexes.every(({ index }) => answersFor(index, asOf))) return this.#inForceFromRecords(date, asOf);
    return indexes.flatMap(({ controlId, index }) => inForceIn(index, controlId, date, asOf));
  }

  /**
   * The exceptions in force for each of several reports (the audit package's days), reading the
   * indexes once: `inForce` of each, in order.
   */
  async inForceEach(reports: readonly { date: string; asOf: Date }[]): Promise<ActiveException[][]> {
    if (reports.length === 0) return [];
    const indexes = await this.#indexes();
    const answers: ActiveException[][] = [];
    for (const { date, asOf } of reports) {
      answers.push(
        indexes.every(({ index }) => answersFor(index, asOf))
          ? indexes.flatMap(({ controlId, index }) => inForceIn(index, controlId, date, asOf))
          : await this.#inForceFromRecords(date, asOf),
      );
    }
    return answers;
  }

  /** A page of exceptions in id order, which is soonest expiry first. */
  async page(query: ExceptionQuery): Promise<PlacedPage<StoredException>> {
    if (query.state === 'active' || query.state === 'requested') return this.#openPage({ ...query, state: query.state });
    const { items, ...rest } = await historyPage(this.#store, { ...query, state: query.state });
    const found = await inBatches(items, 16, (id) => this.get(id));
    return { items: found.filter((stored): stored is StoredException => stored !== undefined), ...rest };
  }

  /** A page of active or of requested exceptions, from the indexes. */
  async #openPage(query: ExceptionQuery & { state: 'active' | 'requested' }): Promise<PlacedPage<StoredException>> {
    const open = query.state === 'active' ? isActive : isRequested;
    const indexes =
      query.control !== undefined
        ? [{ controlId: query.control, index: await this.#index(query.control) }]
        : await this.#indexes();
    const ids = indexes
      .flatMap(({ index }) => index.entries)
      .filter(
        (entry) =>
          open(entry, query.today) &&
          (query.expiringBy === undefined || entry.expiresOn <= query.expiringBy) &&
          (query.after === undefined || entry.id > query.after),
      )
      .map((entry) => entry.id)
      .sort();
    const shown = ids.slice(0, query.limit);
    const items = await inBatches(shown, 16, async (id) => {
      const [{ record, approvedAtOnce }, review] = await Promise.all([
        this.#read(id),
        query.state === 'active' ? this.#optional<Review>(reviewName(id)) : undefined,
      ]);
      return { record, review: approvedAtOnce ?? review, revocation: undefined };
    });
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
   * index has dropped what ended since: those expiring after the day, with their reviews and
   * revocations.
   */
  async #inForceFromRecords(date: string, asOf: Date): Promise<ActiveException[]> {
    const from = addDays(date, 1);
    const namesFrom = (prefix: string) => listNames(this.#store, prefix, { startOffset: dayStart(prefix, from) });
    const [names, reviewed, revoked] = await Promise.all([
      namesFrom(recordsPrefix),
      namesFrom(reviewsPrefix),
      namesFrom(revocationsPrefix),
    ]);
    const reviewedIds = new Set(reviewed.map(idOfName));
    const revokedIds = new Set(revoked.map(idOfName));
    const cutoff = asOf.toISOString();
    const found = await inBatches(names, 16, async (name): Promise<ActiveException[]> => {
      const id = idOfName(name);
      const [{ record, approvedAtOnce }, review, revocation] = await Promise.all([
        this.#read(id),
        reviewedIds.has(id) ? this.#optional<Review>(reviewName(id)) : undefined,
        revokedIds.has(id) ? this.#optional<Revocation>(revocationName(id)) : undefined,
      ]);
      const approval = approvedAtOnce ?? review;
      if (approval?.decision !== 'approved' || approval.at >= cutoff || (revocation && revocation.at < cutoff)) return [];
      const { controlId, subject, expiresOn, requestedBy } = record;
      return [{ id, controlId, subject, expiresOn, approver: approval.by, requestedBy, independent: approval.independent }];
    });
    return found.flat();
  }

  /** A record of either age (exception-records.ts). */
  async #read(id: string): Promise<ReturnType<typeof readRecord>> {
    return readRecord((await this.#store.read(recordName(id))).data);
  }

  async #optional<T>(name: string): Promise<T | undefined> {
    try {
      return JSON.parse((await this.#store.read(name)).data.toString('utf8')) as T;
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
