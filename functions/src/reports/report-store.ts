/**
 * Reports in the object store: one JSON object per day, `reports/day=<YYYY-MM-DD>/report.json`
 * (a hive-partitioned layout BigQuery reads as a table, one line per report), written
 * create-only so that two daily runs (or a run and an on-demand read) leave exactly one. Each
 * carries its summary in the object's metadata, so the list of days costs one `list` per
 * thousand days and no reads, and finding the latest report one `list` of the month before.
 * The bytes are served as stored, with a strong ETag of their SHA-256; an instance keeps what
 * it has read, keyed by generation. A past day's report never changes, so it is never checked
 * again; today's may be republished, so it is re-checked (one `stat`) at most once a second.
 * A stored object that is not a report (empty, or cut short by a crash of an earlier version
 * of the local store) is logged and passed over as if missing.
 *
 * That a past report never changes is kept here, at the write, whoever calls: `publish` (the
 * only write that replaces) refuses any day but today by the clock it is given, read just before
 * the write, so a run that decided to publish before midnight cannot replace what became a past
 * day's report while it ran. Before it replaces today's report, `publish` keeps the one it
 * replaces as a version (report-versions.ts), so every version of a day survives.
 */
import { createHash } from 'node:crypto';
import { addDays, dayIn } from '../assessment/dates.js';
import type { Report, ReportSummary } from '../assessment/model.js';
import type { MaybePromise } from '../common/maybe-async.js';
import { logs } from '../logs.js';
import {
  inBatches,
  listAll,
  ObjectNotFound,
  PreconditionFailed,
  type ObjectInfo,
  type ObjectStore,
} from '../storage/object-store.js';
import {
  describeVersion,
  parseVersionName,
  publicationIn,
  reportVersionsPrefix,
  reportWriteOptions,
  versionIn,
  versionObjectName,
  versionsPrefixOf,
  type Publication,
  type ReportVersion,
} from './report-versions.js';

export const reportsPrefix = 'reports/';
export const reportObjectName = (date: string) => `${reportsPrefix}day=${date}/report.json`;
const reportNamePattern = /^reports\/day=(\d{4}-\d{2}-\d{2})\/report\.json$/;

export interface StoredReport {
  date: string;
  bytes: Buffer;
  etag: string;
  generation: string;
  report: Report;
  /** The object's metadata as read (keys in lower case): its version and how it was published. */
  metadata: Record<string, string>;
}

export interface ReportListing {
  date: string;
  generatedAt: string;
  summary: ReportSummary;
}

/** A write would have changed the report of a day that is not today: past reports never change. */
export class ReportImmutable extends Error {
  readonly date: string;
  /** Today, in the report's time zone, when the write was refused. */
  readonly today: string;

  constructor(date: string, today: string) {
    super(`the report of ${date} is not today's (${today}) and never changes`);
    this.name = 'ReportImmutable';
    this.date = date;
    this.today = today;
  }
}

/** The report in a stored object's bytes, or why they hold none. */
function parseReport(bytes: Buffer): { report: Report } | { unreadable: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { unreadable: (error as Error).message };
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? { report: parsed as Report }
    : { unreadable: 'the JSON is not an object' };
}

/** A report as read or written, with the strong ETag of its bytes. */
function storedReport(
  date: string,
  bytes: Buffer,
  info: Pick<ObjectInfo, 'generation' | 'metadata'>,
  report: Report,
): StoredReport {
  const etag = `"${createHash('sha256').update(bytes).digest('base64url')}"`;
  return { date, bytes, generation: info.generation, etag, report, metadata: info.metadata };
}

/** How long a cached report of today is served before its generation is checked again. */
const recheckAfterMs = 1000;
/** Reports kept per instance, least recently used dropped first (a year of history would not fit). */
const maxCached = 64;

export class ReportStore {
  readonly #store: ObjectStore;
  readonly #cache = new Map<string, StoredReport>();
  /** For each day whose cached report was checked against the store less than `recheckAfterMs` ago, the timer that ends that. */
  readonly #recheckTimers = new Map<string, NodeJS.Timeout>();
  readonly #loading = new Map<string, Promise<StoredReport | undefined>>();
  /** The last entry of `#cache`, which a read of the same day (the common case) need not move. */
  #lastUsed: string | undefined;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /**
   * Notes that the cached report of `date` matches the store, for `recheckAfterMs`. A timer ends
   * that, rather than a clock read on every request: in a loaded instance, reading the clock was
   * a tenth of what serving today's report from memory cost (docs/http-api.md, "Throughput").
   */
  #markChecked(date: string): void {
    const timer = this.#recheckTimers.get(date);
    if (timer) timer.refresh();
    else this.#recheckTimers.set(date, setTimeout(() => this.#recheckTimers.delete(date), recheckAfterMs).unref());
  }

  #remember(date: string, bytes: Buffer, info: Pick<ObjectInfo, 'generation' | 'metadata'>, report: Report): StoredReport {
    const stored = storedReport(date, bytes, info, report);
    this.#cache.delete(date);
    this.#cache.set(date, stored);
    this.#lastUsed = date;
    this.#markChecked(date);
    if (this.#cache.size > maxCached) {
      const oldest = this.#cache.keys().next().value!;
      this.#cache.delete(oldest);
      clearTimeout(this.#recheckTimers.get(oldest));
      this.#recheckTimers.delete(oldest);
    }
    return stored;
  }

  /**
   * The report of a day, or undefined when there is none. `immutable` (a past day) serves a
   * cached report without asking the store again; `fresh` always checks its generation. A
   * cached report that needs no check is returned as is, not in a promise: serving today's
   * report from memory creates none (see common/maybe-async.ts).
   */
  find(date: string, { immutable = false, fresh = false } = {}): MaybePromise<StoredReport | undefined> {
    const cached = this.#cache.get(date);
    if (cached) {
      // Most recently used last, so the first entries are the ones to drop.
      if (this.#lastUsed !== date) {
        this.#cache.delete(date);
        this.#cache.set(date, cached);
        this.#lastUsed = date;
      }
      if (immutable || (this.#recheckTimers.has(date) && !fresh)) return cached;
    }
    if (fresh) return this.#load(date, cached);
    // Requests that arrive while the report is being checked share that check.
    let pending = this.#loading.get(date);
    if (!pending) {
      pending = this.#load(date, cached).finally(() => this.#loading.delete(date));
      this.#loading.set(date, pending);
    }
    return pending;
  }

  async #load(date: string, cached: StoredReport | undefined): Promise<StoredReport | undefined> {
    try {
      if (cached) {
        const info = await this.#store.stat(reportObjectName(date));
        this.#markChecked(date);
        if (info.generation === cached.generation) return cached;
      }
      const { data, info } = await this.#store.read(reportObjectName(date));
      const parsed = parseReport(data);
      if ('report' in parsed) return this.#remember(date, data, info, parsed.report);
      logs.reportUnreadable(date, info.generation, data.length, parsed.unreadable);
      return undefined;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /**
   * Stores the report of its day unless one exists. Either way the answer is the one report
   * stored for that day, and `created` says whether it was this one.
   */
  async create(report: Report, publication?: Publication): Promise<{ stored: StoredReport; created: boolean }> {
    const bytes = Buffer.from(JSON.stringify(report));
    try {
      const options = reportWriteOptions(report, 1, publication);
      const info = await this.#store.create(reportObjectName(report.date), bytes, options);
      return { stored: this.#remember(report.date, bytes, { ...info, metadata: options.metadata! }, report), created: true };
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      const existing = await this.find(report.date);
      if (!existing) throw error;
      return { stored: existing, created: false };
    }
  }

  /**
   * Republishes today's report over `current`, the stored one as the caller read it (undefined:
   * there is none yet, and it is created). `current` is first kept as a version, then replaced
   * only if it is still at its generation; `conflict` means someone else wrote first: read again
   * and decide again. Two publishers that read the same report both keep it, under its one
   * number, and only one replaces it, so no version is lost. Throws `ReportImmutable` when the
   * report's day is not today in its time zone by `now`, read here rather than when the caller
   * decided, so only the store's own latency lies between the check and the write.
   */
  async publish(
    report: Report,
    current: StoredReport | undefined,
    now: () => Date,
    publication: Publication,
  ): Promise<'published' | 'conflict'> {
    const bytes = Buffer.from(JSON.stringify(report));
    const name = reportObjectName(report.date);
    const today = dayIn(report.timeZone, now());
    if (report.date !== today) throw new ReportImmutable(report.date, today);
    const version = current ? versionIn(current.metadata) + 1 : 1;
    const options = reportWriteOptions(report, version, publication);
    try {
      if (current) await this.#keep(current);
      const info = current
        ? await this.#store.replace(name, bytes, current.generation, options)
        : await this.#store.create(name, bytes, options);
      this.#remember(report.date, bytes, { ...info, metadata: options.metadata! }, report);
      return 'published';
    } catch (error) {
      if (error instanceof PreconditionFailed || error instanceof ObjectNotFound) return 'conflict';
      throw error;
    }
  }

  /** Keeps a report about to be replaced as its version; one kept already (by a twin publisher) is the same bytes. */
  async #keep(stored: StoredReport): Promise<void> {
    const version = versionIn(stored.metadata);
    const options = reportWriteOptions(stored.report, version, publicationIn(stored.metadata));
    try {
      await this.#store.create(versionObjectName(stored.date, version), stored.bytes, options);
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
    }
  }

  /**
   * The versions of a day's report, oldest first: those publishes replaced and then the current
   * one, `limit` at a time after version `after`. One `list` per page, and the current report's
   * read on the last page.
   */
  async versions(
    date: string,
    current: StoredReport,
    page: { limit: number; after?: number },
  ): Promise<{ items: ReportVersion[]; hasMore: boolean }> {
    const prefix = versionsPrefixOf(date);
    const { items: objects } = await this.#store.list(prefix, {
      pageSize: Math.min(page.limit + 1, 1000),
      ...(page.after === undefined ? {} : { startOffset: versionObjectName(date, page.after + 1) }),
    });
    const kept = objects.flatMap((info) => {
      const named = parseVersionName(info.name);
      const version = named && describeVersion(info.metadata, false);
      return version ? [{ ...version, version: named.version }] : [];
    });
    const last = describeVersion(current.metadata, true, current.report)!;
    const items = [...kept.filter((version) => version.version < last.version), last].filter(
      (version) => page.after === undefined || version.version > page.after,
    );
    return { items: items.slice(0, page.limit), hasMore: items.length > page.limit };
  }

  /**
   * The versions publishes replaced on the days from `from` to `to`, by day then number, from
   * their names alone: one `list` per thousand versions.
   */
  async keptVersionsBetween(from: string, to: string): Promise<{ date: string; version: number }[]> {
    const objects = await listAll(this.#store, reportVersionsPrefix, {
      startOffset: versionsPrefixOf(from),
      endOffset: versionsPrefixOf(addDays(to, 1)),
    });
    return objects.flatMap((info) => {
      const named = parseVersionName(info.name);
      return named ? [named] : [];
    });
  }

  /** One kept version of a day's report (not the current one, which `find` reads), or undefined. */
  async version(date: string, version: number): Promise<StoredReport | undefined> {
    try {
      const { data, info } = await this.#store.read(versionObjectName(date, version));
      const parsed = parseReport(data);
      return 'report' in parsed ? storedReport(date, data, info, parsed.report) : undefined;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /**
   * The stored report objects from `from` (or the first) up to `upTo`, oldest day first, with
   * their metadata: one `list` per thousand days.
   */
  async #objects(range: { from?: string; upTo?: string } = {}): Promise<{ date: string; info: ObjectInfo }[]> {
    const objects = await listAll(this.#store, reportsPrefix, {
      ...(range.from ? { startOffset: `${reportsPrefix}day=${range.from}` } : {}),
      ...(range.upTo ? { endOffset: `${reportsPrefix}day=${addDays(range.upTo, 1)}` } : {}),
    });
    return objects.flatMap((info) => {
      const date = reportNamePattern.exec(info.name)?.[1];
      return date ? [{ date, info }] : [];
    });
  }

  /** The days that have a report, oldest first. */
  async dates(): Promise<string[]> {
    return (await this.#objects()).map(({ date }) => date);
  }

  /** The days from `from` to `to` that have a report, each with its report's generation (a publish changes it): one `list`. */
  async generationsBetween(from: string, to: string): Promise<{ date: string; generation: string }[]> {
    return (await this.#objects({ from, upTo: to })).map(({ date, info }) => ({ date, generation: info.generation }));
  }

  /** The days from `from` to `to` (inclusive) that have a report, oldest first: one `list`. */
  async datesBetween(from: string, to: string): Promise<string[]> {
    return (await this.#objects({ from, upTo: to })).map(({ date }) => date);
  }

  /**
   * The days from `from` to `to` that have a report, and those of the month before `from`, where
   * the report before the period usually is (`latestOnOrBefore` takes them): one `list` where
   * asking for each would take two.
   */
  async periodDates(from: string, to: string): Promise<{ dates: string[]; monthBefore: string[] }> {
    const all = (await this.#objects({ from: monthBefore(addDays(from, -1)), upTo: to })).map(({ date }) => date);
    return { dates: all.filter((date) => date >= from), monthBefore: all.filter((date) => date < from) };
  }

  /**
   * Every day's summary from `from` up to `upTo` (all days without them), oldest first, from the
   * objects' metadata (a report stored without it is read).
   */
  async list(range: { from?: string; upTo?: string } = {}): Promise<ReportListing[]> {
    const listings = await inBatches(
      await this.#objects(range),
      16,
      async ({ date, info }): Promise<ReportListing | undefined> => {
        const { generatedAt, summary } = info.metadata;
        if (generatedAt && summary) return { date, generatedAt, summary: JSON.parse(summary) as ReportSummary };
        const stored = await this.find(date);
        return stored && { date, generatedAt: stored.report.generatedAt, summary: stored.report.summary };
      },
    );
    return listings.filter((listing): listing is ReportListing => listing !== undefined);
  }

  /**
   * The newest report of `day` or before it (`day` no later than today): looked for among the
   * month before, and only after a longer gap among all earlier days, so its cost does not grow
   * with the history. Days before `day` are past, so their reports are served from cache.
   * An unreadable report is passed over for the one before it.
   */
  async latestOnOrBefore(day: string, listed?: { monthBefore: readonly string[] }): Promise<StoredReport | undefined> {
    const first = monthBefore(day);
    for (const range of [{ from: first, upTo: day }, { upTo: addDays(first, -1) }]) {
      // The month's days as `periodDates` listed them, when given (for the day before its period).
      const dates = range.from && listed ? listed.monthBefore : (await this.#objects(range)).map(({ date }) => date);
      for (const date of [...dates].reverse()) {
        const found = await this.find(date, { immutable: date < day });
        if (found) return found;
      }
    }
    return undefined;
  }

  /** The newest report before a day, for the diff. */
  latestBefore(date: string): Promise<StoredReport | undefined> {
    return this.latestOnOrBefore(addDays(date, -1));
  }
}

/** The first day of the month `latestOnOrBefore(day)` looks in first. */
const monthBefore = (day: string) => addDays(day, -31);
