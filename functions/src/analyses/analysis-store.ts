/**
 * Analysis runs in the object store: the request of each run, written once at
 * `analyses/runs/<id>.json`, its `Idempotency-Key` at `analyses/idempotency/<sha256>.json`, and
 * its events through a `RunLog` per run (shared by everyone in this instance who follows it).
 */
import { createHash, randomBytes } from 'node:crypto';
import { canonicalJson } from '../evidence/evidence-store.js';
import { ApiProblem } from '../http/problem.js';
import { listNames, ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import { describeRun, newRunId, type Analysis, type RunRecord } from './analysis-model.js';
import { EventConflict, RunLog } from './run-log.js';

const runsPrefix = 'analyses/runs/';
const keysPrefix = 'analyses/idempotency/';
const runObjectName = (id: string) => `${runsPrefix}${id}.json`;
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

  constructor(store: ObjectStore) {
    this.#store = store;
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
    if (claimed.fingerprint !== fingerprint) {
      throw new ApiProblem(
        'idempotency_key_reused',
        'This Idempotency-Key already started an analysis with a different request; use a new key for a new run.',
      );
    }
    await this.#write(claimed.record);
    return { record: claimed.record, created: false };
  }

  async #write(record: RunRecord): Promise<void> {
    try {
      await this.#store.create(runObjectName(record.id), JSON.stringify(record), { contentType: 'application/json' });
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error; // written by a concurrent retry
    }
    this.#remember(record);
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
    if (now && !log.ended) {
      const lastSign = log.events.at(-1)?.time ?? record.createdAt;
      if (now.getTime() - Date.parse(lastSign) > abandonedAfterMs) {
        const detail =
          log.lastId === 0 ? 'The run never started: no worker took it.' : 'The run\u2019s worker stopped without finishing it.';
        await log
          .append('run.failed', { problem: { code: 'worker_lost', title: 'Analysis abandoned', detail } }, now)
          .catch((error: unknown) => {
            if (!(error instanceof EventConflict)) throw error; // someone ended it meanwhile
          });
      }
    }
    return describeRun(record, log.events);
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

  /** Run ids, newest first. */
  async ids(): Promise<string[]> {
    const names = await listNames(this.#store, runsPrefix);
    return names.map((name) => name.slice(runsPrefix.length, -'.json'.length)).sort((a, b) => (a < b ? 1 : -1));
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
      if (log.ended) {
        throw new ApiProblem(
          'analysis_ended',
          `The analysis ${id} already ended (${last!.type}); it can no longer be cancelled.`,
        );
      }
      if (last?.type === 'control.evaluated' && last.data.index === last.data.total) {
        throw new ApiProblem(
          'analysis_ended',
          `The analysis ${id} has evaluated every control and is finishing; it can no longer be cancelled.`,
        );
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
