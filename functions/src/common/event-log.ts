/**
 * A run's events in the object store: one create-only object per event,
 * `<folder>/<run>/<000001>.json`, numbered without gaps. The create-only write is what keeps the
 * log consistent with no lock: whoever writes event N first (the worker, a retried worker, a
 * cancel request) decides it, and every other writer learns so from the conflict. Analyses and
 * connector runs each keep their events this way, in their own folder.
 *
 * Events are immutable, so an instance keeps what it has read and only ever asks the store for
 * the next number. Every stream following a run in this instance shares one log and so one
 * poll of the store.
 */
import { isTerminal } from '@evident/contract';
import { ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';

/** What every logged event has; its type decides its data. */
export interface LoggedEvent {
  id: number;
  type: string;
  time: string;
  data: unknown;
}

/** How often followers look for a new event; the stream delay is about half of it on average. */
export const pollIntervalMs = 200;

/** Someone else wrote this event number first; `existing` is what they wrote. */
export class EventConflict<E extends LoggedEvent = LoggedEvent> extends Error {
  readonly existing: E;

  constructor(existing: E) {
    super(`Event ${existing.id} of the run is already "${existing.type}".`);
    this.existing = existing;
    this.name = 'EventConflict';
  }
}

export interface EventBatch<E extends LoggedEvent> {
  events: E[];
  /** True when the run's terminal event is the last of `events` (or was already sent). */
  ended: boolean;
}

export class EventLog<E extends LoggedEvent> {
  readonly runId: string;
  readonly #store: ObjectStore;
  readonly #folder: string;
  readonly #events: E[] = [];
  #refreshing: Promise<void> | undefined;
  #refreshedAt = -Infinity;

  /** `folder`: where the events of every run of this log's kind live, e.g. `analyses/events`. */
  constructor(store: ObjectStore, folder: string, runId: string) {
    this.#store = store;
    this.#folder = folder;
    this.runId = runId;
  }

  #eventName(id: number): string {
    return `${this.#folder}/${this.runId}/${String(id).padStart(6, '0')}.json`;
  }

  get events(): readonly E[] {
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
        const { data } = await this.#store.read(this.#eventName(next));
        // An append in this instance may have added it while the read was in flight.
        if (this.lastId === next - 1) this.#events.push(JSON.parse(data.toString('utf8')) as E);
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
  async append<T extends E['type']>(type: T, data: Extract<E, { type: T }>['data'], now: Date): Promise<E> {
    await this.refresh();
    return this.appendAt(this.lastId + 1, type, data as never, now);
  }

  /**
   * Persists event number `id` — the number a writer means, not whatever comes next, so an
   * attempt that fell behind a twin compares with what its twin wrote instead of writing after
   * it. `EventConflict` gives the event already there, or the last one when the log has ended.
   */
  async appendAt<T extends E['type']>(id: number, type: T, data: Extract<E, { type: T }>['data'], now: Date): Promise<E> {
    if (id > this.lastId + 1) await this.refresh();
    const known = this.#events[id - 1];
    if (known) throw new EventConflict(known);
    if (this.ended) throw new EventConflict(this.#events[this.#events.length - 1]!);
    if (id !== this.lastId + 1) throw new Error(`event ${id} of ${this.runId} would leave a gap after ${this.lastId}`);
    const event = { id, type, time: now.toISOString(), data } as unknown as E;
    try {
      await this.#store.create(this.#eventName(event.id), JSON.stringify(event), { contentType: 'application/json' });
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
  after(afterId: number): EventBatch<E> {
    return { events: this.#events.slice(afterId), ended: this.ended };
  }

  /**
   * Events after `afterId`, waiting up to `waitMs` for at least one to be persisted; an empty
   * batch when none came in time or `signal` was aborted.
   */
  async next(afterId: number, waitMs: number, signal: AbortSignal): Promise<EventBatch<E>> {
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
