/**
 * Reports in the object store: one JSON object per day, `reports/<YYYY-MM-DD>.json`, written
 * create-only so that two daily runs (or a run and an on-demand read) leave exactly one. The
 * bytes are served as stored, with a strong ETag of their SHA-256; an instance keeps what it
 * has read, keyed by generation. A past day's report never changes, so it is never checked
 * again; today's may be republished, so it is re-checked (one `stat`) at most once a second.
 */
import { createHash } from 'node:crypto';
import type { Report, ReportSummary } from '../assessment/model.js';
import { inBatches, listNames, ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';

const prefix = 'reports/';
export const reportObjectName = (date: string) => `${prefix}${date}.json`;

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
  readonly #listings = new Map<string, ReportListing>();

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
      const info = await this.#store.create(reportObjectName(report.date), bytes, { contentType: 'application/json' });
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
          ? await this.#store.create(name, bytes, { contentType: 'application/json' })
          : await this.#store.replace(name, bytes, ifGeneration, { contentType: 'application/json' });
      this.#remember(report.date, bytes, info.generation);
      return 'published';
    } catch (error) {
      if (error instanceof PreconditionFailed || error instanceof ObjectNotFound) return 'conflict';
      throw error;
    }
  }

  /** The days that have a report, oldest first. */
  async dates(): Promise<string[]> {
    const names = await listNames(this.#store, prefix);
    return names.flatMap((name) => /^reports\/(\d{4}-\d{2}-\d{2})\.json$/.exec(name)?.[1] ?? []).sort();
  }

  /** Every day's summary, oldest first. Past days' summaries are kept (they are small; their reports may not be). */
  async list(): Promise<ReportListing[]> {
    const dates = await this.dates();
    const last = dates[dates.length - 1];
    const listings = await inBatches(dates, 16, async (date) => {
      const known = date !== last ? this.#listings.get(date) : undefined;
      if (known) return known;
      const stored = await this.find(date, { immutable: date !== last });
      if (!stored) return undefined;
      const listing = { date, generatedAt: stored.report.generatedAt, summary: stored.report.summary };
      if (date !== last) this.#listings.set(date, listing);
      return listing;
    });
    return listings.filter((listing): listing is ReportListing => listing !== undefined);
  }

  /** The newest report before a day, for the diff. */
  async latestBefore(date: string): Promise<StoredReport | undefined> {
    const earlier = (await this.dates()).filter((candidate) => candidate < date);
    for (const candidate of earlier.reverse()) {
      const stored = await this.find(candidate, { immutable: true });
      if (stored) return stored;
    }
    return undefined;
  }

  async latest(): Promise<StoredReport | undefined> {
    const dates = await this.dates();
    return dates.length > 0 ? this.find(dates[dates.length - 1]!) : undefined;
  }
}
