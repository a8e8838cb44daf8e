/**
 * A control's open exceptions, one object per control (`exception-index/<controlId>.json`),
 * replaced only by compare-and-swap (storage/object-store.ts `mutateObject`). It is what makes
 * exceptions cheap however long their history grows:
 *
 * - the cap: a new exception is added to its control's index, and refused there when the subject
 *   has as many active ones as it may (`maxActiveExceptionsPerSubject`). Two requests racing
 *   for the last place both read the same generation; only one write succeeds, and the other
 *   counts again with the winner in;
 * - the daily job: the exceptions in force are the entries of the indexes, one read per control
 *   that has any, never the records of every exception ever made;
 * - the active listing, which reads the indexes and then only the records of its page.
 *
 * An entry stays a while after its exception ends (expired or revoked): `keptDays`, so a report
 * made late for a past day still sees what was in force then. An index dropping older entries
 * says from when it is complete (`keptFrom`); an evaluation as of an earlier instant is answered
 * from the records instead (exception-store.ts).
 */
import type { ActiveException } from '../assessment/exceptions.js';
import type { Actor } from '../assessment/model.js';
import { maxActiveExceptionsPerSubject } from '@evident/contract';

export interface IndexEntry {
  id: string;
  subject: string | null;
  expiresOn: string;
  createdAt: string;
  approver: Actor;
  /** When it was revoked; absent while it is not. */
  revokedAt?: string;
}

export interface ControlIndex {
  /** Entries that ended before this instant may have been dropped; null while none was. */
  keptFrom: string | null;
  /** In id order, which is expiry order. */
  entries: IndexEntry[];
}

/** Days an entry is kept after its exception ends: a month of late reports stays exact. */
export const keptDays = 31;
const dayMs = 86_400_000;

/** A subject already has as many active exceptions of a control as it may. */
export class ExceptionLimitReached extends Error {
  readonly controlId: string;
  readonly subject: string | null;
  readonly limit: number;

  constructor(controlId: string, subject: string | null, limit: number) {
    super(`${controlId} has ${limit} active exceptions for ${subject ?? 'the whole control'} already.`);
    this.name = 'ExceptionLimitReached';
    this.controlId = controlId;
    this.subject = subject;
    this.limit = limit;
  }
}

export const parseIndex = (data: Buffer | undefined): ControlIndex =>
  data ? (JSON.parse(data.toString('utf8')) as ControlIndex) : { keptFrom: null, entries: [] };

/** Active on `today` (the report time zone's): not revoked, and before its expiry day. */
export const isActive = (entry: IndexEntry, today: string): boolean => entry.revokedAt === undefined && today < entry.expiresOn;

/**
 * When an entry's exception ended: its revocation, or the end of its expiry day wherever that
 * day ends last (a day after its UTC midnight: no time zone is more than 14 hours behind).
 */
function endOf(entry: IndexEntry): number {
  const expired = Date.parse(`${entry.expiresOn}T00:00:00Z`) + dayMs;
  return entry.revokedAt === undefined ? expired : Math.min(expired, Date.parse(entry.revokedAt));
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
 * `ExceptionLimitReached` when its subject has as many active ones as it may.
 */
export function withNewEntry(index: ControlIndex, controlId: string, entry: IndexEntry, today: string): ControlIndex {
  const current = pruned(index, entry.createdAt);
  const active = current.entries.filter((each) => each.subject === entry.subject && isActive(each, today)).length;
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
 * The index with entries merged in (the migration's), each kept as the index has it when it
 * has it already, revoked when either says so.
 */
export function withEntries(index: ControlIndex, entries: readonly IndexEntry[], now: string): ControlIndex {
  const byId = new Map(index.entries.map((entry) => [entry.id, entry]));
  for (const entry of entries) {
    const known = byId.get(entry.id);
    const revokedAt = known?.revokedAt ?? entry.revokedAt;
    byId.set(entry.id, { ...(known ?? entry), ...(revokedAt !== undefined ? { revokedAt } : {}) });
  }
  const merged = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  return pruned({ ...index, entries: merged }, now);
}

/** Whether the index holds every exception that may be in force for a report as of `asOf`. */
export const answersFor = (index: ControlIndex, asOf: Date): boolean =>
  index.keptFrom === null || Date.parse(index.keptFrom) <= asOf.getTime();

/**
 * The exceptions in force for the report of `date` evaluated as of `asOf`: expiring after that
 * day, recorded before `asOf`, and not revoked before it.
 */
export function inForceIn(index: ControlIndex, controlId: string, date: string, asOf: Date): ActiveException[] {
  const cutoff = asOf.toISOString();
  return index.entries
    .filter(
      (entry) =>
        entry.expiresOn > date && entry.createdAt < cutoff && (entry.revokedAt === undefined || entry.revokedAt >= cutoff),
    )
    .map(({ id, subject, expiresOn, approver }) => ({ id, controlId, subject, expiresOn, approver }));
}
