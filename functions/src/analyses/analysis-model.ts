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

/**
 * Why a run failed, as facts. Its `run.failed` event carries it as an entry of the problem
 * catalog (code, title, wording), which the HTTP core's one mapping writes
 * (http/domain-problems.ts); the store and the worker are handed that mapping.
 */
export type RunFailure =
  /** No event for `abandonedAfterMs`: no worker took the run (`started` false), or its worker stopped. */
  | { failure: 'worker_lost'; started: boolean }
  /** Every attempt the queue made threw; the logs have why. */
  | { failure: 'attempts_failed'; attempts: number }
  /** Controls the run names are no longer in the catalog. */
  | { failure: 'controls_gone'; controls: string[] }
  /** The run was to publish `date`, which is no longer today. */
  | { failure: 'past_day'; date: string; today: string };

export type DescribeFailure = (failure: RunFailure) => AnalysisProblem;

/** The `Idempotency-Key` already started a run with a different request. */
export class AnalysisKeyReused extends Error {
  constructor() {
    super('the idempotency key started a run with a different request');
    this.name = 'AnalysisKeyReused';
  }
}

/** The run can no longer be cancelled: it ended (with `lastEvent`), or it evaluated every control and is finishing. */
export class AnalysisEnded extends Error {
  readonly runId: string;
  readonly lastEvent: AnalysisEventType | undefined;
  readonly finishing: boolean;

  constructor(runId: string, lastEvent: AnalysisEventType | undefined, finishing: boolean) {
    super(`analysis ${runId} ${finishing ? 'is finishing' : `already ended (${lastEvent})`}`);
    this.name = 'AnalysisEnded';
    this.runId = runId;
    this.lastEvent = lastEvent;
    this.finishing = finishing;
  }
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
