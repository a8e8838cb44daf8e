/** An analysis run's events (common/event-log.ts), under `analyses/events/<run>/`. */
import type { ObjectStore } from '../storage/object-store.js';
import type { AnalysisEvent } from './analysis-model.js';
import { EventLog } from '../common/event-log.js';

export { EventConflict, pollIntervalMs, type EventBatch } from '../common/event-log.js';

export class RunLog extends EventLog<AnalysisEvent> {
  constructor(store: ObjectStore, runId: string) {
    super(store, 'analyses/events', runId);
  }
}
