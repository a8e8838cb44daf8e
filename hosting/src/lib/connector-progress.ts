/**
 * What a connector run's events add up to: how far it got (calls made, items collected and
 * stored, rate-limit waits) and how it ended. A pure fold over the event list, as the API's own
 * reading of a run (functions/src/connectors/connector-run-model.ts) is, so a page rebuilt from a
 * replay after a dropped connection shows exactly what one that never dropped shows.
 */
import type { ConnectorRun, ConnectorRunEvent, ConnectorRunProblem } from './api-types.ts';

export type ConnectorTotals = ConnectorRun['progress'];

export type ConnectorRunEnding =
  | { type: 'run.completed'; status: 'complete' | 'incomplete'; counts: Record<string, number> }
  | { type: 'run.failed'; problem: ConnectorRunProblem }
  | { type: 'run.cancelled' };

export interface ConnectorProgress {
  /** The last event folded in; 0 before the first. */
  lastEventId: number;
  /** The worker took the run (`run.started`). */
  started: boolean;
  totals: ConnectorTotals;
  /** The newest time the vendor asked the connector to slow down. */
  lastWait: { seconds: number; reason: string } | undefined;
  ending: ConnectorRunEnding | undefined;
}

export const initialConnectorProgress: ConnectorProgress = {
  lastEventId: 0,
  started: false,
  totals: { calls: 0, items: 0, sent: 0, rateLimitWaits: 0, waitedSeconds: 0 },
  lastWait: undefined,
  ending: undefined,
};

/** Folds one event in. An event at or before `lastEventId` is a replay and changes nothing. */
export function foldConnectorEvent(progress: ConnectorProgress, event: ConnectorRunEvent): ConnectorProgress {
  if (event.id <= progress.lastEventId) return progress;
  const next = { ...progress, lastEventId: event.id };
  switch (event.type) {
    case 'run.started':
      return { ...next, started: true };
    case 'run.progress':
      // Totals so far, waits included: they replace what the waits added since the last ones.
      return { ...next, started: true, totals: { ...event.data } };
    case 'rate_limit.waited': {
      const { rateLimitWaits, waitedSeconds } = progress.totals;
      const totals = {
        ...progress.totals,
        rateLimitWaits: rateLimitWaits + 1,
        waitedSeconds: waitedSeconds + event.data.seconds,
      };
      return { ...next, started: true, totals, lastWait: { ...event.data } };
    }
    case 'run.completed':
      return { ...next, ending: { type: event.type, status: event.data.status, counts: { ...event.data.counts } } };
    case 'run.failed':
      return { ...next, ending: { type: event.type, problem: event.data.problem } };
    case 'run.cancelled':
      return { ...next, ending: { type: event.type } };
  }
}
