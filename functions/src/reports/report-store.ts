/**
 * Reports in the object store: one JSON object per day, `reports/day=<YYYY-MM-DD>/report.json`
 * (a hive-partitioned layout BigQuery reads as a table, one line per report), written
 * create-only so that two daily runs (or a run and an on-demand read) leave exactly one. Each
 * carries its summary in the object's metadata, so the list of days costs one `list` per
 * thousand days and no reads, and finding the latest report one `list` of the month before.
 * The bytes are served as stored, with a strong ETag of their SHA-256; an instance keeps what
 * it has read, keyed by generation. A past day's report never changes, so it is never checked
 * again; today's may be republished, so it is re-checked (one `stat`) at most once a second.
 */
import { createHash } from 'node:crypto';
import { addDays } from '../assessment/dates.js';
import type { Report, ReportSummary } from '../assessment/model.js';
import {
  inBatches,
  ObjectNotFound,
  PreconditionFailed,
  type ObjectInfo,
  type ObjectStore,
  type WriteOptions,
} from '../storage/object-store.js';

export const reportsPrefix = 'reports/';
export const reportObjectName = (date: string) => `${reportsPrefix}day=${date}/report.json`;
const reportNamePattern = /^reports\/day=(\d{4}-\d{2}-\d{2})\/report\.json$/;

/** How a report is written: JSON, with what the list of days shows in its metadata. */
export function reportWriteOptions(report: Report): WriteOptions {
  return {
    contentType: 'application/json',
    metadata: { generatedAt: report.generatedAt, summary: JSON.stringify(report.summary) },
  };
}

export interface StoredReport {
  date: string;
  bytes: Buffer;
  etag: string;
  generation: string;
  report: Report;
}

export interface ReportListing {
  date: string;
  generatedAt: string;
  summary: ReportSummary;
}

/** How long a cached report of today is served before its generation is checked again. */
const recheckAfterMs = 1000;
/** Reports kept per instance, least recently used dropped first (a year of history would not fit). */
const maxCached = 64;

export class ReportStore {
  readonly #store: ObjectStore;
  readonly #cache = new Map<string, StoredReport>();
  readonly #checkedAt = new Map<string, number>();

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  #remember(date: string, bytes: Buffer, generation: string): StoredReport {
    const stored: StoredReport = {
      date,
      bytes,
      generation,
      etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`,
      report: JSON.parse(bytes.toString('utf8')) as Report,
    };
    this.#cache.delete(date);
    this.#cache.set(date, stored);
    this.#checkedAt.set(date, performance.now());
    if (this.#cache.size > maxCached) {
      const oldest = this.#cache.keys().next().value!;
      this.#cache.delete(oldest);
      this.#checkedAt.delete(oldest);
    }
    return stored;
  }

  /**
   * The report of a day, or undefined when there is none. `immutable` (a past day) serves a
   * cached report without asking the store again; `fresh` always checks its generation.
   */
  async find(date: string, { immutable = false, fresh = false } = {}): Promise<StoredReport | undefined> {
    const cached = this.#cache.get(date);
    try {
      if (cached) {
        // Most recently used last, so the first entries are the ones to drop.
        this.#cache.delete(date);
        this.#cache.set(date, cached);
        const recent = performance.now() - (this.#checkedAt.get(date) ?? 0) < recheckAfterMs;
        if (immutable || (recent && !fresh)) return cached;
        const info = await this.#store.stat(reportObjectName(date));
        this.#checkedAt.set(date, performance.now());
        if (info.generation === cached.generation) return cached;
      }
      const { data, info } = await this.#store.read(reportObjectName(date));
      return this.#remember(date, data, info.generation);
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /**
   * Stores the report of its day unless one exists. Either way the answer is the one report
   * stored for that day, and `created` says whether it was this one.
   */
  async create(report: Report): Promise<{ stored: StoredReport; created: boolean }> {
    const bytes = Buffer.from(JSON.stringify(report));
    try {
      const info = await this.#store.create(reportObjectName(report.date), bytes, reportWriteOptions(report));
      return { stored: this.#remember(report.date, bytes, info.generation), created: true };
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      const existing = await this.find(report.date);
      if (!existing) throw error;
      return { stored: existing, created: false };
    }
  }

  /**
   * Republishes a day's report: replaces the stored one only if it is still at `ifGeneration`
   * (creates it when `ifGeneration` is undefined and there is none). `conflict` means someone
   * else wrote first; read again and decide again.
   */
  async publish(report: Report, ifGeneration: string | undefined): Promise<'published' | 'conflict'> {
    const bytes = Buffer.from(JSON.stringify(report));
    const name = reportObjectName(report.date);
    try {
      const info =
        ifGeneration === undefined
          ? await this.#store.create(name, bytes, reportWriteOptions(report))
          : await this.#store.replace(name, bytes, ifGeneration, reportWriteOptions(report));
      this.#remember(report.date, bytes, info.generation);
      return 'published';
    } catch (error) {
      if (error instanceof PreconditionFailed || error instanceof ObjectNotFound) return 'conflict';
      throw error;
    }
  }

  /**
   * The stored report objects from `from` (or the first) up to `upTo`, oldest day first, with
   * their metadata: one `list` per thousand days.
   */
  async #objects(range: { from?: string; upTo?: string } = {}): Promise<{ date: string; info: ObjectInfo }[]> {
    const found: { date: string; info: ObjectInfo }[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.#store.list(reportsPrefix, {
        ...(range.from ? { startOffset: `${reportsPrefix}day=${range.from}` } : {}),
        ...(range.upTo ? { endOffset: `${reportsPrefix}day=${addDays(range.upTo, 1)}` } : {}),
        ...(pageToken ? { pageToken } : {}),
      });
      for (const info of page.items) {
        const date = reportNamePattern.exec(info.name)?.[1];
        if (date) found.push({ date, info });
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
    return found;
  }

  /** The days that have a report, oldest first. */
  async dates(): Promise<string[]> {
    return (await this.#objects()).map(({ date }) => date);
  }

  /** Every day's summary, oldest first, from the objects' metadata (a report stored without it is read). */
  async list(): Promise<ReportListing[]> {
    const listings = await inBatches(await this.#objects(), 16, async ({ date, info }): Promise<ReportListing | undefined> => {
      const { generatedAt, summary } = info.metadata;
      if (generatedAt && summary) return { date, generatedAt, summary: JSON.parse(summary) as ReportSummary };
      const stored = await this.find(date);
      return stored && { date, generatedAt: stored.report.generatedAt, summary: stored.report.summary };
    });
    return listings.filter((listing): listing is ReportListing => listing !== undefined);
  }

  /**
   * The newest report of `day` or before it (`day` no later than today): looked for among the
   * month before, and only after a longer gap among all earlier days, so its cost does not grow
   * with the history. Days before `day` are past, so their reports are served from cache.
   */
  async latestOnOrBefore(day: string): Promise<StoredReport | undefined> {
    const monthBefore = addDays(day, -31);
    for (const range of [{ from: monthBefore, upTo: day }, { upTo: addDays(monthBefore, -1) }]) {
      const last = (await this.#objects(range)).at(-1);
      if (last) return this.find(last.date, { immutable: last.date < day });
    }
    return undefined;
  }

  /** The newest report before a day, for the diff. */
  latestBefore(date: string): Promise<StoredReport | undefined> {
    return this.latestOnOrBefore(addDays(date, -1));
  }
}
