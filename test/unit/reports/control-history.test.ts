/**
 * One control over a period, from its daily results: the status of each day (none without a
 * report), the passing share, the longest non-passing streak across days without reports, the
 * time fixes took, and each change of status with the findings and evidence on either side.
 */
import { describe, expect, it } from 'vitest';
import type { ControlResult, ControlStatus } from '../../../functions/src/assessment/model.ts';
import { controlHistory, type DayResult } from '../../../functions/src/reports/control-history.ts';

/** The control's result on `date`: its status, a failing finding when it does not pass, and its evidence. */
function on(date: string, status: ControlStatus, evidence: string[] = [`ev-${date}`]): DayResult {
  const result: ControlResult = {
    id: 'IAM-01',
    title: 'MFA for every person',
    family: 'identity',
    severity: 'high',
    status,
    findings: [
      { outcome: 'pass', message: 'ana has MFA.', evidence },
      ...(status === 'passing'
        ? []
        : [{ outcome: status === 'failing' ? ('fail' as const) : ('stale' as const), message: `bo on ${date}.`, evidence }]),
    ],
    evidence,
  };
  return { date, result };
}

describe('controlHistory', () => {
  it('gives every day of the period, null where there was no report', () => {
    const history = controlHistory('IAM-01', '2026-11-01', '2026-11-04', [
      on('2026-11-01', 'passing'),
      on('2026-11-03', 'failing'),
    ]);
    expect(history.days).toEqual([
      { date: '2026-11-01', status: 'passing' },
      { date: '2026-11-02', status: null },
      { date: '2026-11-03', status: 'failing' },
      { date: '2026-11-04', status: null },
    ]);
    expect(history.summary.daysWithReport).toBe(2);
  });

  it('counts a streak across days without reports, in calendar days, and keeps the longest', () => {
    const history = controlHistory('IAM-01', '2026-11-01', '2026-11-12', [
      on('2026-11-01', 'failing'),
      on('2026-11-02', 'passing'),
      on('2026-11-03', 'failing'),
      // 11-04 and 11-05 have no report: the streak carries on through them.
      on('2026-11-06', 'stale'),
      on('2026-11-07', 'missing'),
      on('2026-11-08', 'passing'),
      on('2026-11-10', 'failing'),
      on('2026-11-11', 'not_applicable'),
      on('2026-11-12', 'failing'),
    ]);
    expect(history.summary.longestNonPassingStreak).toEqual({ days: 5, from: '2026-11-03', to: '2026-11-07' });
    // Passing on 2 of the 8 days assessed and applicable (not_applicable counts in neither).
    expect(history.summary).toMatchObject({ daysWithReport: 9, daysPassing: 2, passingShare: 0.25 });
    // Fixed on 11-02 (1 day after 11-01) and on 11-08 (5 days after 11-03); not_applicable ends a run unfixed.
    expect(history.summary).toMatchObject({ fixes: 2, meanTimeToFixDays: 3 });
  });

  it('has no share, streak or fix time when nothing was assessed', () => {
    expect(controlHistory('IAM-01', '2026-11-01', '2026-11-02', []).summary).toEqual({
      daysWithReport: 0,
      daysPassing: 0,
      passingShare: null,
      longestNonPassingStreak: null,
      fixes: 0,
      meanTimeToFixDays: null,
    });
  });

  it('records each change with the findings and evidence on either side, the first against the report before the period', () => {
    const history = controlHistory(
      'IAM-01',
      '2026-11-02',
      '2026-11-05',
      [on('2026-11-02', 'failing', ['a', 'b']), on('2026-11-03', 'failing', ['a', 'c']), on('2026-11-05', 'passing', ['a', 'd'])],
      on('2026-11-01', 'passing', ['a']),
    );
    expect(history.changes).toEqual([
      {
        date: '2026-11-02',
        from: { date: '2026-11-01', status: 'passing', findings: [] },
        to: {
          date: '2026-11-02',
          status: 'failing',
          findings: [{ outcome: 'fail', message: 'bo on 2026-11-02.', evidence: ['a', 'b'] }],
        },
        evidence: { added: ['b'], removed: [] },
      },
      {
        date: '2026-11-05',
        from: {
          date: '2026-11-03',
          status: 'failing',
          findings: [{ outcome: 'fail', message: 'bo on 2026-11-03.', evidence: ['a', 'c'] }],
        },
        to: { date: '2026-11-05', status: 'passing', findings: [] },
        evidence: { added: ['d'], removed: ['c'] },
      },
    ]);
  });

  it('calls the first assessment a change from nothing when no report came before', () => {
    const history = controlHistory('IAM-01', '2026-11-01', '2026-11-02', [
      on('2026-11-01', 'missing'),
      on('2026-11-02', 'missing'),
    ]);
    expect(history.changes.map((change) => [change.date, change.from, change.to.status])).toEqual([
      ['2026-11-01', null, 'missing'],
    ]);
  });

  it('skips a report that did not assess the control, as a day without a report', () => {
    const history = controlHistory('IAM-01', '2026-11-01', '2026-11-03', [
      on('2026-11-01', 'failing'),
      { date: '2026-11-02', result: undefined },
      on('2026-11-03', 'failing'),
    ]);
    expect(history.days.map((day) => day.status)).toEqual(['failing', null, 'failing']);
    expect(history.summary.longestNonPassingStreak).toEqual({ days: 3, from: '2026-11-01', to: '2026-11-03' });
    expect(history.changes).toHaveLength(1);
  });
});
