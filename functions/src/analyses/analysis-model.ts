/**
 * What an analysis run is: the request as recorded (immutable), and its events. Everything a
 * reader sees about a run — state, progress, counts, outcome — is derived from the events, so
 * there is one source of truth and nothing to keep in step.
 */
import type { components } from '../generated/api-types.js';
import type { StatusCounts } from '../assessment/model.js';

type Schemas = components['schemas'];
export type Analysis = Schemas['Analysis'];
export type AnalysisRequest = Schemas['AnalysisRequest'];
export type AnalysisEvent = Schemas['AnalysisEvent'];
export type AnalysisEventType = AnalysisEvent['type'];
export type AnalysisProblem = Schemas['AnalysisProblem'];

/** The stored record of a run: what was asked, by whom, when. Written once. */
export interface RunRecord {
  id: string;
  date: string;
  /** null: the whole catalog. */
  controls: string[] | null;
  publish: boolean;
  createdAt: string;
  createdBy: Analysis['createdBy'];
}

const terminalTypes: ReadonlySet<AnalysisEventType> = new Set(['run.completed', 'run.failed', 'run.cancelled']);

export function isTerminal(type: string): boolean {
  return terminalTypes.has(type as AnalysisEventType);
}

export const analysisLinks = (id: string): Analysis['links'] => ({
  self: `/api/analyses/${id}`,
  events: `/api/analyses/${id}/events`,
  cancel: `/api/analyses/${id}/cancel`,
});

/** The run as readers see it, from its record and the events persisted so far. */
export function describeRun(record: RunRecord, events: readonly AnalysisEvent[]): Analysis {
  const counts: StatusCounts = { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 };
  const analysis: Analysis = {
    ...record,
    state: 'queued',
    progress: { evaluated: 0, total: 0 },
    counts,
    lastEventId: events.length,
    links: analysisLinks(record.id),
  };
  for (const event of events) {
    switch (event.type) {
      case 'run.started':
        analysis.state = 'running';
        analysis.startedAt = event.time;
        analysis.progress.total = event.data.total;
        break;
      case 'control.evaluated':
        analysis.progress.evaluated = event.data.index;
        counts[event.data.status]++;
        break;
      case 'run.completed':
        analysis.state = 'succeeded';
        analysis.endedAt = event.time;
        analysis.summary = event.data.summary;
        analysis.published = event.data.published;
        break;
      case 'run.failed':
        analysis.state = 'failed';
        analysis.endedAt = event.time;
        analysis.problem = event.data.problem;
        break;
      case 'run.cancelled':
        analysis.state = 'cancelled';
        analysis.endedAt = event.time;
        break;
    }
  }
  return analysis;
}

/** Run ids sort by creation time: `an-<UTC yyyyMMddHHmmssSSS>-<8 hex>`. */
export function newRunId(now: Date, random: string): string {
  const stamp = now.toISOString().replace(/[-:TZ.]/g, '');
  return `an-${stamp}-${random.slice(0, 8)}`;
}
