/**
 * Follows one run live for a page (an analysis, a connector run): its events folded into progress
 * as they arrive, across dropped connections (the resuming stream client), and the connection's
 * state so the page can say when it is reconnecting. What a kind of run's events add up to is its
 * own pure fold; this class only carries them from the stream to the page.
 */
import { untrack } from 'svelte';
import { isTerminal } from '@evident/contract';
import { followEventStream, type ConnectionState } from './event-stream.ts';

export type FollowState = ConnectionState | 'ended' | 'failed' | 'stopped';

/** What the follower needs to know of a kind of run. */
export interface RunEvents<Event, Progress> {
  /** The address of a run's event stream. */
  path(id: string): string;
  /** Folds one event in; an event already folded in changes nothing. */
  fold(progress: Progress, event: Event): Progress;
  initial: Progress;
}

export class RunFollower<Event extends { type: string }, Progress extends { lastEventId: number }> {
  #progress: Progress;
  #connection = $state<FollowState>('connecting');
  #error = $state<Error | undefined>(undefined);
  #reconnects = $state(0);
  readonly #fetch: typeof fetch;
  readonly #events: RunEvents<Event, Progress>;

  /** `fetcher` is the app's authorised fetch. */
  constructor(fetcher: typeof fetch, events: RunEvents<Event, Progress>) {
    this.#fetch = fetcher;
    this.#events = events;
    this.#progress = $state(events.initial);
  }

  get progress(): Progress {
    return this.#progress;
  }
  get connection(): FollowState {
    return this.#connection;
  }
  get error(): Error | undefined {
    return this.#error;
  }
  /** How many times the stream was picked up again after a drop. */
  get reconnects(): number {
    return this.#reconnects;
  }

  /** Follows the run until its terminal event or until `signal` aborts. */
  async follow(id: string, signal: AbortSignal): Promise<void> {
    this.#error = undefined;
    // Untracked: a page calls this from an effect, which must not come to depend on the progress
    // it is filling in, or every event would abort the stream and open a new one.
    const after = untrack(() => this.#progress.lastEventId);
    try {
      await followEventStream<Event>(this.#events.path(id), {
        fetch: this.#fetch,
        signal,
        lastEventId: after > 0 ? String(after) : undefined,
        // The stream's data is the whole event object (id, type, time, data).
        onEvent: (event) => (this.#progress = this.#events.fold(this.#progress, event.data)),
        isTerminal: (event) => isTerminal(event.data.type),
        onConnectionChange: (state) => {
          if (state === 'reconnecting') this.#reconnects += 1;
          this.#connection = state;
        },
      });
      this.#connection = 'ended';
    } catch (error) {
      if (signal.aborted) {
        this.#connection = 'stopped';
        return;
      }
      this.#error = error as Error;
      this.#connection = 'failed';
    }
  }
}
