/**
 * Follows one analysis run live for a page: its events folded into progress as they arrive,
 * across dropped connections (the resuming stream client), and the connection's state so the
 * page can say when it is reconnecting.
 */
import { untrack } from 'svelte';
import { apiPath } from './api-client.ts';
import type { AnalysisEvent } from './api-types.ts';
import { isTerminal } from '@evident/contract';
import { foldEvent, initialProgress, type RunProgress } from './analysis-progress.ts';
import { followEventStream, type ConnectionState } from './event-stream.ts';

export type FollowState = ConnectionState | 'ended' | 'failed' | 'stopped';

export class AnalysisFollower {
  #progress = $state<RunProgress>(initialProgress);
  #connection = $state<FollowState>('connecting');
  #error = $state<Error | undefined>(undefined);
  #reconnects = $state(0);
  readonly #fetch: typeof fetch;

  /** `fetcher` is the app's authorised fetch. */
  constructor(fetcher: typeof fetch) {
    this.#fetch = fetcher;
  }

  get progress(): RunProgress {
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
      await followEventStream<AnalysisEvent>(apiPath('/api/analyses/{id}/events', { path: { id } }), {
        fetch: this.#fetch,
        signal,
        lastEventId: after > 0 ? String(after) : undefined,
        // The stream's data is the whole event object (id, type, time, data).
        onEvent: (event) => (this.#progress = foldEvent(this.#progress, event.data)),
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
