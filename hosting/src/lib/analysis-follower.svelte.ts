/** Follows one analysis run live for its page (run-follower.svelte.ts), its events folded by analysis-progress.ts. */
import { apiPath } from './api-client.ts';
import type { AnalysisEvent } from './api-types.ts';
import { foldEvent, initialProgress, type RunProgress } from './analysis-progress.ts';
import { RunFollower } from './run-follower.svelte.ts';

export class AnalysisFollower extends RunFollower<AnalysisEvent, RunProgress> {
  /** `fetcher` is the app's authorised fetch. */
  constructor(fetcher: typeof fetch) {
    super(fetcher, {
      path: (id) => apiPath('/api/analyses/{id}/events', { path: { id } }),
      fold: foldEvent,
      initial: initialProgress,
    });
  }
}
