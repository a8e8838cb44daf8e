/**
 * Analysis runs in the object store: the request of each run, written once at
 * `analyses/runs/<id>.json`, its `Idempotency-Key` at `analyses/idempotency/<sha256>.json`, and
 * its events through a `RunLog` per run (shared by everyone in this instance who follows it).
 *
 * The list of runs is an index, newest first (`analyses/index/<key>`, storage/newest-first.ts).
 * Once a run has ended its index entry carries the run as readers see it, in its metadata, so
 * a page of ended runs costs one `list`; a run still going is described from its events.
 */
import { createHash, randomBytes } from 'node:crypto';
import { analysisIdPattern } from '@evident/contract';
import { canonicalJson } from '../evidence/canonical-json.js';
import { newestFirstKey, pageNewestFirst, idOfKey, type PlacedPage } from '../storage/newest-first.js';
import { ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import {
  AnalysisEnded,
  AnalysisKeyReused,
  describeRun,
  newRunId,
  type Analysis,
  type DescribeFailure,
  type RunRecord,
} from './analysis-model.js';
import { EventConflict, RunLog } from './run-log.js';

const runsPrefix = 'analyses/runs/';
const keysPrefix = 'analyses/idempotency/';
const runObjectName = (id: string) => `${runsPrefix}${id}.json`;
const indexPrefix = 'analyses/index/';
/** Cloud Storage keeps at most 8 KiB of metadata per object; a larger outcome is read from the events instead. */
const maxOutcomeBytes = 6 * 1024;

const runIdShape = new RegExp(analysisIdPattern);

/** A run's place in the list, from the creation time its id records; undefined for a malformed id. */
export function runKey(id: string): string | undefined {
  if (!runIdShape.test(id)) return undefined;
  // `an-<yyyyMMddHHmmssSSS>-…`: the stamp's fields by position.
  const field = (from: number, to: number) => Number(id.slice(3 + from, 3 + to));
  const time = Date.UTC(field(0, 4), field(4, 6) - 1, field(6, 8), field(8, 10), field(10, 12), field(12, 14), field(14, 17));
  return newestFirstKey(time, id);
}
const publishedMarker = (id: string) => `analyses/published/${id}`;
/** Logs and records kept per instance; the oldest ended ones are dropped first. */
const maxLogs = 500;
/**
 * A run with no new event for this long has lost its worker for good: longer than an attempt
 * may run (540 s) plus the queue's backoff between all its attempts. Such a run is ended with
 * `run.failed` when it is next read, so its followers stop waiting.
 */
export const abandonedAfterMs = 30 * 60 * 1000;

export class AnalysisStore {
  readonly #store: ObjectStore;
  readonly #records = new Map<string, RunRecord>();
  readonly #logs = new Map<string, RunLog>();
  readonly #outcomesRecorded = new Set<string>();
  readonly #describeFailure: DescribeFailure | undefined;

  /**
   * `describeFailure` words a run's failure; a store given it ends abandoned runs when it reads
   * them. Without it (the migration, which only files runs) abandoned runs are left as they are.
   */
  constructor(store: ObjectStore, options: { describeFailure?: DescribeFailure } = {}) {
    this.#store = store;
    this.#describeFailure = options.describeFailure;
  }

  /**
   * Records a new run. With an idempotency key, the first request's run is returned for every
   * retry (`created: false`); the same key with another request is refused.
   */
  async create(
    request: Omit<RunRecord, 'id' | 'createdAt'>,
    options: { now: Date; idempotencyKey?: string; asSent?: unknown },
  ): Promise<{ record: RunRecord; created: boolean }> {
    const fresh: RunRecord = {
      id: newRunId(options.now, randomBytes(4).toString('hex')),
      createdAt: options.now.toISOString(),
      ...request,
    };
    if (!options.idempotencyKey) {
      await this.#write(fresh);
      return { record: fresh, created: true };
    }
    // The key's record holds the whole run, so a retry racing the first request can write it too.
    const keyName = `${keysPrefix}${createHash('sha256').update(options.idempotencyKey).digest('hex')}.json`;
    // The body as sent, not as resolved: a retry after midnight without a date is the same request.
    const fingerprint = createHash('sha256')
      .update(canonicalJson(options.asSent ?? { date: request.date, controls: request.controls, publish: request.publish }))
      .digest('hex');
    try {
      await this.#store.create(keyName, JSON.stringify({ fingerprint, record: fresh }), { contentType: 'application/json' });
      await this.#write(fresh);
      return { record: fresh, created: true };
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
    }
    const { data } = await this.#store.read(keyName);
    const claimed = JSON.parse(data.toString('utf8')) as { fingerprint: string; record: RunRecord };
    if (claimed.fingerprint !== fingerprint) throw new AnalysisKeyReused();
    await this.#write(claimed.record);
    return { record: claimed.record, created: false };
  }

  async #write(record: RunRecord): Promise<void> {
    try {
      await this.#store.create(runObjectName(record.id), JSON.stringify(record), { contentType: 'application/json' });
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error; // written by a concurrent retry
    }
    await this.index(record.id);
    this.#remember(record);
  }

  /** Files a run in the list; create-only, so doing it again changes nothing. */
  async index(id: string): Promise<void> {
    await this.#store.create(`${indexPrefix}${runKey(id)!}`, '').catch((error: unknown) => {
      if (!(error instanceof PreconditionFailed)) throw error;
    });
  }

  #remember(record: RunRecord): void {
    this.#records.set(record.id, record);
    if (this.#records.size > maxLogs) this.#records.delete(this.#records.keys().next().value!);
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const cached = this.#records.get(id);
    if (cached) return cached;
    try {
      const { data } = await this.#store.read(runObjectName(id));
      const record = JSON.parse(data.toString('utf8')) as RunRecord;
      this.#remember(record);
      return record;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /** The run's event log, shared within this instance. */
  log(id: string): RunLog {
    let log = this.#logs.get(id);
    if (log) {
      // Most recently used last, so the first entries are the ones to drop.
      this.#logs.delete(id);
      this.#logs.set(id, log);
      return log;
    }
    log = new RunLog(this.#store, id);
    this.#logs.set(id, log);
    if (this.#logs.size > maxLogs) {
      const idle = [...this.#logs.values()].find((candidate) => candidate.ended) ?? this.#logs.values().next().value!;
      this.#logs.delete(idle.runId);
    }
    return log;
  }

  /** The run as it stands now, or undefined for an unknown id. `now` lets an abandoned run be ended. */
  async describe(id: string, now?: Date): Promise<Analysis | undefined> {
    const record = await this.get(id);
    if (!record) return undefined;
    const log = this.log(id);
    await log.refresh();
    if (now && this.#describeFailure && !log.ended) {
      const lastSign = log.events.at(-1)?.time ?? record.createdAt;
      if (now.getTime() - Date.parse(lastSign) > abandonedAfterMs) {
        const problem = this.#describeFailure({ failure: 'worker_lost', started: log.lastId !== 0 });
        await log.append('run.failed', { problem }, now).catch((error: unknown) => {
          if (!(error instanceof EventConflict)) throw error; // someone ended it meanwhile
        });
      }
    }
    const analysis = describeRun(record, log.events);
    if (log.ended) await this.#recordOutcome(analysis);
    return analysis;
  }

  /** Puts an ended run, as readers see it, in its index entry's metadata (once per instance). */
  async #recordOutcome(analysis: Analysis): Promise<void> {
    if (this.#outcomesRecorded.has(analysis.id)) return;
    const json = JSON.stringify(analysis);
    const name = `${indexPrefix}${runKey(analysis.id)!}`;
    if (Buffer.byteLength(json) <= maxOutcomeBytes) {
      try {
        const info = await this.#store.stat(name);
        if (!info.metadata['analysis']) await this.#store.replace(name, '', info.generation, { metadata: { analysis: json } });
      } catch (error) {
        // A missing entry (a run from before the index) or a concurrent writer: the listing reads the events instead.
        if (!(error instanceof ObjectNotFound) && !(error instanceof PreconditionFailed)) throw error;
      }
    }
    this.#outcomesRecorded.add(analysis.id);
    if (this.#outcomesRecorded.size > maxLogs) this.#outcomesRecorded.delete(this.#outcomesRecorded.values().next().value!);
  }

  /**
   * A page of runs as readers see them, newest first, after the index key `after`: ended runs
   * from their index entries, the others described from their events.
   */
  async page(query: { after?: string; limit: number; now: Date }): Promise<PlacedPage<Analysis>> {
    const { entries, hasMore, next } = await pageNewestFirst(this.#store, indexPrefix, {
      limit: query.limit,
      ...(query.after !== undefined ? { after: query.after } : {}),
    });
    const items = await Promise.all(
      entries.map(async (entry) => {
        const stored = entry.metadata['analysis'];
        if (stored) return JSON.parse(stored) as Analysis;
        const analysis = await this.describe(idOfKey(entry.key), query.now);
        if (!analysis) throw new Error(`the analyses index names ${idOfKey(entry.key)}, which has no record`);
        return analysis;
      }),
    );
    return { items, hasMore, ...(next !== undefined ? { next } : {}) };
  }

  /** Publishing is recorded once it happened, so a retry never publishes an older result over a newer run's. */
  async markPublished(id: string): Promise<void> {
    try {
      await this.#store.create(publishedMarker(id), id);
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
    }
  }

  async wasPublished(id: string): Promise<boolean> {
    try {
      await this.#store.stat(publishedMarker(id));
      return true;
    } catch (error) {
      if (error instanceof ObjectNotFound) return false;
      throw error;
    }
  }

  /**
   * Ends a queued or running run with `run.cancelled`. The event log decides races: if the
   * worker persists its next event first, the cancel is tried again after it; once the last
   * control is evaluated the run is publishing, and it is too late.
   */
  async cancel(id: string, by: string | undefined, now: () => Date): Promise<void> {
    const log = this.log(id);
    for (;;) {
      await log.refresh();
      const last = log.events[log.events.length - 1];
      if (last?.type === 'run.cancelled') return;
      if (log.ended) throw new AnalysisEnded(id, last?.type, false);
      if (last?.type === 'control.evaluated' && last.data.index === last.data.total) {
        throw new AnalysisEnded(id, last.type, true);
      }
      const evaluated = last?.type === 'control.evaluated' ? last.data.index : 0;
      try {
        await log.append('run.cancelled', { evaluated, ...(by ? { by } : {}) }, now());
        return;
      } catch (error) {
        if (!(error instanceof EventConflict)) throw error;
      }
    }
  }
}
