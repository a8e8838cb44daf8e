/**
 * What a connector run is as people read it: its collection run (opened when the run was asked
 * for, ended by the worker) and its events (connector-run.ts writes them). State, progress and
 * problem are derived from those two, so there is nothing else to keep in step.
 */
import type { components } from '../generated/api-types.js';
import type { CollectionRun } from '../runs/run-store.js';
import { EventConflict, EventLog } from '../common/event-log.js';
import type { ObjectStore } from '../storage/object-store.js';

type Schemas = components['schemas'];
export type ConnectorRun = Schemas['ConnectorRun'];
export type ConnectorRunEvent = Schemas['ConnectorRunEvent'];
export type ConnectorRunProblem = Schemas['ConnectorRunProblem'];
export type ConnectorProgress = ConnectorRun['progress'];

/** A connector run's events, under `connectors/events/<run id>/`. */
export class ConnectorRunLog extends EventLog<ConnectorRunEvent> {
  constructor(store: ObjectStore, runId: string) {
    super(store, 'connectors/events', runId);
  }
}

export const connectorRunLinks = (connector: string, id: string): ConnectorRun['links'] => ({
  self: `/api/connectors/${connector}/runs/${id}`,
  events: `/api/connectors/${connector}/runs/${id}/events`,
  cancel: `/api/connectors/${connector}/runs/${id}/cancel`,
});

export const noProgress = (): ConnectorProgress => ({ calls: 0, items: 0, sent: 0, rateLimitWaits: 0, waitedSeconds: 0 });

/** The run as readers see it, from its collection run and the events persisted so far. */
export function describeConnectorRun(connector: string, run: CollectionRun, events: readonly ConnectorRunEvent[]): ConnectorRun {
  const described: ConnectorRun = {
    id: run.id,
    connector,
    state: 'queued',
    run,
    progress: noProgress(),
    lastEventId: events.length,
    links: connectorRunLinks(connector, run.id),
  };
  for (const event of events) {
    switch (event.type) {
      case 'run.started':
        described.state = 'running';
        break;
      case 'run.progress':
        described.progress = { ...event.data };
        break;
      case 'rate_limit.waited':
        described.progress.rateLimitWaits += 1;
        described.progress.waitedSeconds += event.data.seconds;
        break;
      case 'run.completed':
        described.state = event.data.status === 'complete' ? 'succeeded' : 'failed';
        break;
      case 'run.failed':
        described.state = 'failed';
        described.problem = event.data.problem;
        break;
      case 'run.cancelled':
        described.state = 'cancelled';
        break;
    }
  }
  // A run whose worker never wrote its end is what its collection run says it is.
  if (described.state === 'queued' || described.state === 'running') {
    if (run.status === 'cancelled') described.state = 'cancelled';
    else if (run.status !== 'running') {
      described.state = 'failed';
      described.problem = {
        reason: 'worker_lost',
        detail: 'The worker stopped before it ended the run; its collection run was not completed in time.',
      };
    }
  }
  return described;
}

/**
 * Writes `run.cancelled` after whatever the worker wrote meanwhile, once its collection run was
 * cancelled; the worker, finding its own next event taken, stops. Either side may get here first.
 */
export async function writeCancelled(log: ConnectorRunLog, by: string, now: () => Date): Promise<void> {
  await log.refresh();
  while (!log.ended) {
    try {
      await log.append('run.cancelled', { by }, now());
    } catch (error) {
      if (!(error instanceof EventConflict)) throw error;
    }
  }
}
