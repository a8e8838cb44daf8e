/**
 * What an analysis run's events add up to: how far it got, each control's result, and how it
 * ended. A pure fold over the event list, so a page rebuilt from a replay after a dropped
 * connection shows exactly what one that never dropped shows.
 */
import type { AnalysisEvent } from './api-types.ts';
import type { components } from '$api-types';
import { plural } from '@evident/contract';
import { scoreText, statusLabel, statusOrder } from './format.ts';

type Schemas = components['schemas'];
type Status = Schemas['ControlStatus'];

export interface ControlResult {
  controlId: string;
  title: string;
  severity: Schemas['Severity'];
  status: Status;
  findings: number;
  index: number;
}

export type RunEnding =
  | { type: 'run.completed'; summary: Schemas['ReportSummary']; published: boolean }
  | { type: 'run.failed'; problem: Schemas['AnalysisProblem'] }
  | { type: 'run.cancelled'; evaluated: number };

export interface RunProgress {
  /** The last event folded in; 0 before the first. */
  lastEventId: number;
  startedAsOf: string | undefined;
  /** 0 until `run.started`. */
  total: number;
  results: ControlResult[];
  ending: RunEnding | undefined;
}

export const initialProgress: RunProgress = { lastEventId: 0, startedAsOf: undefined, total: 0, results: [], ending: undefined };

/** Folds one event in. An event at or before `lastEventId` is a replay and changes nothing. */
export function foldEvent(progress: RunProgress, event: AnalysisEvent): RunProgress {
  if (event.id <= progress.lastEventId) return progress;
  const next = { ...progress, lastEventId: event.id };
  switch (event.type) {
    case 'run.started':
      return { ...next, startedAsOf: event.data.asOf, total: event.data.total };
    case 'control.evaluated': {
      const { controlId, title, severity, status, findings, index, total } = event.data;
      const results = [
        ...progress.results.filter((result) => result.controlId !== controlId),
        { controlId, title, severity, status, findings, index },
      ];
      return { ...next, total, results: results.sort((a, b) => a.index - b.index) };
    }
    case 'run.completed':
      return { ...next, ending: { type: event.type, summary: event.data.summary, published: event.data.published } };
    case 'run.failed':
      return { ...next, ending: { type: event.type, problem: event.data.problem } };
    case 'run.cancelled':
      return { ...next, ending: { type: event.type, evaluated: event.data.evaluated } };
  }
}

/** Share of the run done, 0–100, for the progress bar. */
export const percentDone = (progress: RunProgress): number =>
  progress.total === 0 ? 0 : Math.round((progress.results.length / progress.total) * 100);

/** Counts by status of the controls evaluated so far. */
export function countsOf(results: ControlResult[]): Partial<Record<Status, number>> {
  const counts: Partial<Record<Status, number>> = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

export const stateLabel: Record<Schemas['AnalysisState'], string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * What a completed run found, in a sentence. A run of the whole catalog has a score of the day;
 * a run of some controls does not (its summary weighs only them), so it says what each status
 * came to instead: "1 control re-assessed: passing", never "Score 100.0 over 1 controls". When
 * it was published, the day's score is today's report's, over every control.
 */
export function completionText(summary: Schemas['ReportSummary'], scope: readonly string[] | null, published: boolean): string {
  if (scope === null) {
    return `Score ${scoreText(summary.score)} over ${plural(summary.controls, 'control')}${published ? '; published as today\u2019s report.' : '.'}`;
  }
  const found = statusOrder.filter((status) => summary.counts[status] > 0);
  const statuses =
    summary.controls === 1
      ? statusLabel[found[0]!].toLowerCase()
      : found.map((status) => `${summary.counts[status]} ${statusLabel[status].toLowerCase()}`).join(', ');
  const outcome = published
    ? '; published into today\u2019s report, whose score is over every control.'
    : '. Today\u2019s report is unchanged until it is published.';
  return `${plural(summary.controls, 'control')} re-assessed: ${statuses}${outcome}`;
}
