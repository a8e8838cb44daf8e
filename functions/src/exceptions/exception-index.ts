/**
 * A control's open exceptions, one object per control (`exception-index/<controlId>.json`),
 * replaced only by compare-and-swap (storage/object-store.ts `mutateObject`). It is what makes
 * exceptions cheap however long their history grows:
 *
 * - the cap: a new exception is added to its control's index, and refused there when the subject
 *   has as many requested or active ones as it may (`maxActiveExceptionsPerSubject`), so requests
 *   awaiting review cannot pile up without bound either. Two requests racing
 *   for the last place both read the same generation; only one write succeeds, and the other
 *   counts again with the winner in;
 * - the daily job: the exceptions in force are the approved entries of the indexes, one read per
 *   control that has any, never the records of every exception ever made;
 * - the listings of active and of requested ones, which read the indexes and then only the
 *   records of their page.
 *
 * Entries written before requests were reviewed name an `approver` and no requester; they are
 * read as approved at once by that person (exception-records.ts), and written back so.
 *
 * An entry stays a while after its exception ends (expired, refused or revoked): `keptDays`, so a report
 * made late for a past day still sees what was in force then. An index dropping older entries
 * says from when it is complete (`keptFrom`); an evaluation as of an earlier instant is answered
 * from the records instead (exception-store.ts).
 */
import type { ActiveException } from '../assessment/exceptions.js';
import type { Actor } from '../assessment/model.js';
import { maxActiveExceptionsPerSubject } from '@evident/contract';
import { approvalAtOnce } from './exception-records.js';

export interface IndexEntry {
  id: string;
  subject: string | null;
  expiresOn: string;
  /** When it was requested. */
  createdAt: string;
  requestedBy: Actor;
  /** Once approved: when, by whom, and whether by a person known to be another. */
  approval?: { at: string; by: Actor; independent: boolean };
  /** When it was refused; absent while it is not. */
  refusedAt?: string;
  /** When it was revoked; absent while it is not. */
  revokedAt?: string;
}

/** An entry as written before requests were reviewed. */
type EntryRecordedAtOnce = Omit<IndexEntry, 'requestedBy' | 'approval'> & { approver: Actor };

export interface ControlIndex {
  /** Entries that ended before this instant may have been dropped; null while none was. */
  keptFrom: string | null;
  /** In id order, which is expiry order. */
  entries: IndexEntry[];
}

/** Days an entry is kept after its exception ends: a month of late reports stays exact. */
export const keptDays = 31;
const dayMs = 86_400_000;

/** A subject already has as many requested or active exceptions of a control as it may. */
export class ExceptionLimitReached extends Error {
  readonly controlId: string;
  readonly subject: string | null;
  readonly limit: number;

  constructor(controlId: string, subject: string | null, limit: number) {
    super(`${controlId} has ${limit} exceptions requested or active for ${subject ?? 'the whole control'} already.`);
    this.name = 'ExceptionLimitReached';
    this.controlId = controlId;
    this.subject = subject;
    this.limit = limit;
  }
}

function entryOfEitherAge(entry: IndexEntry | EntryRecordedAtOnce): IndexEntry {
  if (!('approver' in entry)) return entry;
  const { approver, ...rest } = entry;
  const { at, by, independent } = approvalAtOnce(approver, entry.createdAt);
  return { ...rest, requestedBy: approver, approval: { at, by, independent } };
}

export function parseIndex(data: Buffer | undefined): ControlIndex {
  if (!data) return { keptFrom: null, entries: [] };
  const index = JSON.parse(data.toString('utf8')) as { keptFrom: string | null; entries: (IndexEntry | EntryRecordedAtOnce)[] };
  return { keptFrom: index.keptFrom, entries: index.entries.map(entryOfEitherAge) };
}

/** Active on `today` (the report time zone's): approved, not revoked, and before its expiry day. */
export const isActive = (entry: IndexEntry, today: string): boolean =>
  entry.approval !== undefined && entry.revokedAt === undefined && today < entry.expiresOn;

/** Awaiting review on `today`: neither approved nor refused, not withdrawn, and before its expiry day. */
export const isRequested = (entry: IndexEntry, today: string): boolean =>
  entry.approval === undefined && entry.refusedAt === undefined && entry.revokedAt === undefined && today < entry.expiresOn;

/**
 * When an entry's exception ended: its refusal or revocation, or the end of its expiry day
 * wherever that day ends last (a day after its UTC midnight: no time zone is more than 14 hours
 * behind).
 */
function endOf(entry: IndexEntry): number {
  const expired = Date.parse(`${entry.expiresOn}T00:00:00Z`) + dayMs;
  const ended = [entry.refusedAt, entry.revokedAt].flatMap((at) => (at === undefined ? [] : [Date.parse(at)]));
  return Math.min(expired, ...ended);
}

/** The index without the entries that ended more than `keptDays` before `now`, saying so. */
function pruned(index: ControlIndex, now: string): ControlIndex {
  const threshold = Date.parse(now) - keptDays * dayMs;
  const entries = index.entries.filter((entry) => endOf(entry) >= threshold);
  if (entries.length === index.entries.length) return index;
  const from = new Date(threshold).toISOString();
  return { keptFrom: index.keptFrom !== null && index.keptFrom > from ? index.keptFrom : from, entries };
}

/** Puts an entry in its place in id order, replacing one with the same id. */
function placed(entries: readonly IndexEntry[], entry: IndexEntry): IndexEntry[] {
  const others = entries.filter((each) => each.id !== entry.id);
  const at = others.findIndex((each) => each.id > entry.id);
  return at < 0 ? [...others, entry] : [...others.slice(0, at), entry, ...others.slice(at)];
}

/**
 * The index with a new exception added, as of `today` and the instant it was recorded; throws
 * `ExceptionLimitReached` when its subject has as many requested or active ones as it may.
 */
export function withNewEntry(index: ControlIndex, controlId: string, entry: IndexEntry, today: string): ControlIndex {
  const current = pruned(index, entry.createdAt);
  const active = current.entries.filter(
    (each) => each.subject === entry.subject && (isActive(each, today) || isRequested(each, today)),
  ).length;
  if (active >= maxActiveExceptionsPerSubject) {
    throw new ExceptionLimitReached(controlId, entry.subject, maxActiveExceptionsPerSubject);
  }
  return { ...current, entries: placed(current.entries, entry) };
}

/**
 * The index with an exception marked revoked at `at` (the revocation that stands), as of the
 * instant `now`. An exception the index lacks (recorded before indexes) is added, revoked.
 */
export function withRevocation(index: ControlIndex, entry: IndexEntry, at: string, now: string): ControlIndex {
  const current = pruned(index, now);
  const known = current.entries.find((each) => each.id === entry.id);
  if (known?.revokedAt !== undefined) return current;
  return pruned({ ...current, entries: placed(current.entries, { ...(known ?? entry), revokedAt: at }) }, now);
}

/**
 * The index with an exception's review marked (the review that stands), as of the instant `now`.
 * An exception the index lacks (its writer died between record and index) is added, reviewed.
 */
export function withReview(
  index: ControlIndex,
  entry: IndexEntry,
  review: { decision: 'approved' | 'refused'; at: string; by: Actor; independent: boolean },
  now: string,
): ControlIndex {
  const current = pruned(index, now);
  const known = current.entries.find((each) => each.id === entry.id) ?? entry;
  if (known.approval !== undefined || known.refusedAt !== undefined) return current;
  const { decision, at, by, independent } = review;
  const reviewed = decision === 'approved' ? { ...known, approval: { at, by, independent } } : { ...known, refusedAt: at };
  return pruned({ ...current, entries: placed(current.entries, reviewed) }, now);
}

/**
 * The index with entries merged in (the migration's), each kept as the index has it when it
 * has it already, reviewed and revoked when either says so.
 */
export function withEntries(index: ControlIndex, entries: readonly IndexEntry[], now: string): ControlIndex {
  const byId = new Map(index.entries.map((entry) => [entry.id, entry]));
  for (const entry of entries) {
    const known = byId.get(entry.id);
    const revokedAt = known?.revokedAt ?? entry.revokedAt;
    const reviewed = known?.approval !== undefined || known?.refusedAt !== undefined ? known : entry;
    const { approval, refusedAt } = reviewed;
    byId.set(entry.id, {
      ...(known ?? entry),
      ...(approval !== undefined ? { approval } : {}),
      ...(refusedAt !== undefined ? { refusedAt } : {}),
      ...(revokedAt !== undefined ? { revokedAt } : {}),
    });
  }
  const merged = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  return pruned({ ...index, entries: merged }, now);
}

/** Whether the index holds every exception that may be in force for a report as of `asOf`. */
export const answersFor = (index: ControlIndex, asOf: Date): boolean =>
  index.keptFrom === null || Date.parse(index.keptFrom) <= asOf.getTime();

/**
 * The exceptions in force for the report of `date` evaluated as of `asOf`: expiring after that
 * day, approved before `asOf`, and not revoked before it.
 */
export function inForceIn(index: ControlIndex, controlId: string, date: string, asOf: Date): ActiveException[] {
  const cutoff = asOf.toISOString();
  return index.entries.flatMap(({ id, subject, expiresOn, requestedBy, approval, revokedAt }) =>
    approval !== undefined && expiresOn > date && approval.at < cutoff && (revokedAt === undefined || revokedAt >= cutoff)
      ? [{ id, controlId, subject, expiresOn, approver: approval.by, requestedBy, independent: approval.independent }]
      : [],
  );
}
