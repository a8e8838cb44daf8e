/**
 * A run's events in the object store: one create-only object per event,
 * `analyses/events/<run>/<000001>.json`, numbered without gaps. The create-only write is what
 * keeps the log consistent with no lock: whoever writes event N first (the worker, a retried
 * worker, a cancel request) decides it, and every other writer learns so from the conflict.
 *
 * Events are immutable, so an instance keeps what it has read and only ever asks the store for
 * the next number. Every stream following a run in this instance shares one log and so one
 * poll of the store.
 */
import type { AnalysisEvent, AnalysisEventType } from './analysis-model.js';
import { isTerminal } from '@evident/contract';
import { ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';

/** How often followers look for a new event; the stream delay is about half of it on average. */
export const pollIntervalMs = 200;

const eventName = (runId: string, id: number) => `analyses/events/${runId}/${String(id).padStart(6, '0')}.json`;

/** Someone else wrote this event number first; `existing` is what they wrote. */
export class EventConflict extends Error {
  readonly existing: AnalysisEvent;

  constructor(existing: AnalysisEvent) {
    super(`Event ${existing.id} of the run is already "${existing.type}".`);
    this.existing = existing;
    this.name = 'EventConflict';
  }
}

export interface EventBatch {
  events: AnalysisEvent[];
  /** True when the run's terminal event is the last of `events` (or was already sent). */
  ended: boolean;
}

export class RunLog {
  readonly runId: string;
  readonly #store: ObjectStore;
  readonly #events: AnalysisEvent[] = [];
  #refreshing: Promise<void> | undefined;
  #refreshedAt = -Infinity;

  constructor(store: ObjectStore, runId: string) {
    this.#store = store;
    this.runId = runId;
  }

  get events(): readonly AnalysisEvent[] {
    return this.#events;
  }

  get lastId(): number {
    return this.#events.length;
  }

  get ended(): boolean {
    const last = this.#events[this.#events.length - 1];
    return last !== undefined && isTerminal(last.type);
  }

  /** Reads every event persisted after the ones known; concurrent callers share one read. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#readNewEvents().finally(() => {
      this.#refreshing = undefined;
      this.#refreshedAt = performance.now();
    });
    return this.#refreshing;
  }

  async #readNewEvents(): Promise<void> {
    while (!this.ended) {
      const next = this.lastId + 1;
      try {
        const { data } = await this.#store.read(eventName(this.runId, next));
        // An append in this instance may have added it while the read was in flight.
        if (this.lastId === next - 1) this.#events.push(JSON.parse(data.toString('utf8')) as AnalysisEvent);
      } catch (error) {
        if (error instanceof ObjectNotFound) return;
        throw error;
      }
    }
  }

  /**
   * Persists the next event. If another writer got that number first, the log catches up and
   * `EventConflict` says what was written instead.
   */
  async append<T extends AnalysisEventType>(
    type: T,
    data: Extract<AnalysisEvent, { type: T }>['data'],
    now: Date,
  ): Promise<AnalysisEvent> {
    await this.refresh();
    return this.appendAt(this.lastId + 1, type, data as never, now);
  }

  /**
   * Persists event number `id` — the number a writer means, not whatever comes next, so an
   * attempt that fell behind a twin compares with what its twin wrote instead of writing after
   * it. `EventConflict` gives the event already there, or the last one when the log has ended.
   */
  async appendAt<T extends AnalysisEventType>(
    id: number,
    type: T,
    data: Extract<AnalysisEvent, { type: T }>['data'],
    now: Date,
  ): Promise<AnalysisEvent> {
    if (id > this.lastId + 1) await this.refresh();
    const known = this.#events[id - 1];
    if (known) throw new EventConflict(known);
    if (this.ended) throw new EventConflict(this.#events[this.#events.length - 1]!);
    if (id !== this.lastId + 1) throw new Error(`event ${id} of ${this.runId} would leave a gap after ${this.lastId}`);
    const event = { id, type, time: now.toISOString(), data } as AnalysisEvent;
    try {
      await this.#store.create(eventName(this.runId, event.id), JSON.stringify(event), { contentType: 'application/json' });
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      // A refresh already in flight may have started before the other write; the next one did not.
      await this.refresh();
      if (this.lastId < event.id) await this.refresh();
      throw new EventConflict(this.#events[event.id - 1]!);
    }
    if (this.lastId === event.id - 1) this.#events.push(event);
    return event;
  }

  /** The events after `afterId` known now. */
  after(afterId: number): EventBatch {
    return { events: this.#events.slice(afterId), ended: this.ended };
  }

  /**
   * Events after `afterId`, waiting up to `waitMs` for at least one to be persisted; an empty
   * batch when none came in time or `signal` was aborted.
   */
  async next(afterId: number, waitMs: number, signal: AbortSignal): Promise<EventBatch> {
    const deadline = performance.now() + waitMs;
    for (;;) {
      if (this.lastId > afterId || this.ended) return this.after(afterId);
      const remaining = deadline - performance.now();
      if (remaining <= 0 || signal.aborted) return { events: [], ended: false };
      const sinceRefresh = performance.now() - this.#refreshedAt;
      if (sinceRefresh < pollIntervalMs) await sleep(Math.min(pollIntervalMs - sinceRefresh, remaining), signal);
      if (signal.aborted) return { events: [], ended: false };
      await this.refresh();
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
