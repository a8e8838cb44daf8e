/** A run's events folded into what its page shows: in order, replay-proof, every ending. */
import { describe, expect, it } from 'vitest';
import {
  completionText,
  countsOf,
  foldEvent,
  initialProgress,
  percentDone,
  type RunProgress,
} from '../../../hosting/src/lib/analysis-progress.ts';
import type { AnalysisEvent } from '../../../hosting/src/lib/api-types.ts';

const time = '2026-11-21T09:00:00.000Z';
const started: AnalysisEvent = { id: 1, type: 'run.started', time, data: { date: '2026-11-21', asOf: time, total: 3 } };
const evaluated = (index: number, controlId: string, status: 'passing' | 'failing'): AnalysisEvent => ({
  id: index + 1,
  type: 'control.evaluated',
  time,
  data: {
    controlId,
    title: `Title ${controlId}`,
    severity: 'high',
    status,
    findings: status === 'failing' ? 2 : 0,
    index,
    total: 3,
  },
});
const summary = { score: 50, counts: { passing: 2, failing: 1, stale: 0, missing: 0, not_applicable: 0 }, controls: 3 };
const run: AnalysisEvent[] = [
  started,
  evaluated(1, 'IAM-01', 'failing'),
  evaluated(2, 'IAM-02', 'passing'),
  evaluated(3, 'NET-01', 'passing'),
  { id: 5, type: 'run.completed', time, data: { summary, published: true } },
];
const fold = (events: AnalysisEvent[], from: RunProgress = initialProgress) => events.reduce(foldEvent, from);

describe('foldEvent', () => {
  it('builds progress, results in run order and the ending', () => {
    const progress = fold(run);
    expect(progress.lastEventId).toBe(5);
    expect(progress.total).toBe(3);
    expect(progress.results.map((result) => [result.index, result.controlId, result.status])).toEqual([
      [1, 'IAM-01', 'failing'],
      [2, 'IAM-02', 'passing'],
      [3, 'NET-01', 'passing'],
    ]);
    expect(progress.ending).toEqual({ type: 'run.completed', summary, published: true });
    expect(percentDone(progress)).toBe(100);
    expect(countsOf(progress.results)).toEqual({ failing: 1, passing: 2 });
  });

  it('ignores a replayed event, so a resumed stream that repeats some events changes nothing', () => {
    const halfway = fold(run.slice(0, 3));
    expect(percentDone(halfway)).toBe(67);
    expect(fold([run[1]!, run[2]!, ...run.slice(2)], halfway)).toEqual(fold(run));
  });

  it('records a failure and a cancellation', () => {
    const problem = { code: 'worker_lost' as const, title: 'Analysis abandoned', detail: 'No event for 30 minutes.' };
    expect(fold([started, { id: 2, type: 'run.failed', time, data: { problem } }]).ending).toEqual({
      type: 'run.failed',
      problem,
    });
    expect(fold([started, { id: 2, type: 'run.cancelled', time, data: { evaluated: 0, by: 'u1' } }]).ending).toEqual({
      type: 'run.cancelled',
      evaluated: 0,
    });
    expect(percentDone(fold([started]))).toBe(0);
  });
});

describe('completionText', () => {
  const counts = (passing: number, failing: number, missing = 0) => ({ passing, failing, stale: 0, missing, not_applicable: 0 });

  it('gives a run of the whole catalog its score', () => {
    expect(completionText({ score: 87.5, counts: counts(60, 4), controls: 64 }, null, true)).toBe(
      'Score 87.5 over 64 controls; published as today\u2019s report.',
    );
    expect(completionText({ score: 87.5, counts: counts(60, 4), controls: 64 }, null, false)).toBe(
      'Score 87.5 over 64 controls.',
    );
  });

  it('never reads a run of some controls as a score: it says what they came to', () => {
    expect(completionText({ score: 100, counts: counts(1, 0), controls: 1 }, ['IAM-01'], true)).toBe(
      '1 control re-assessed: passing; published into today\u2019s report, whose score is over every control.',
    );
    expect(completionText({ score: 25, counts: counts(1, 1, 1), controls: 3 }, ['IAM-01', 'IAM-02', 'NET-01'], false)).toBe(
      '3 controls re-assessed: 1 failing, 1 missing evidence, 1 passing. Today\u2019s report is unchanged until it is published.',
    );
  });
});
