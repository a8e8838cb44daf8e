/** The words of a control's timeline: the passing share over days it applied, the streak, the time to fix, each day. */
import { describe, expect, it } from 'vitest';
import type { ControlHistory } from '../../../hosting/src/lib/api-types.ts';
import { dayLabel, fixText, passingText, streakText } from '../../../hosting/src/lib/control-timeline.ts';

const summary: ControlHistory['summary'] = {
  daysWithReport: 4,
  daysPassing: 2,
  passingShare: 2 / 3,
  longestNonPassingStreak: { days: 1, from: '2026-11-03', to: '2026-11-03' },
  fixes: 1,
  meanTimeToFixDays: 2.25,
};
const days: ControlHistory['days'] = [
  { date: '2026-11-01', status: 'passing' },
  { date: '2026-11-02', status: null },
  { date: '2026-11-03', status: 'failing' },
  { date: '2026-11-04', status: 'not_applicable' },
  { date: '2026-11-05', status: 'passing' },
];

describe('the timeline words', () => {
  it('gives the passing share over the days the control was assessed and applicable', () => {
    expect(passingText({ days, summary })).toBe('Passing on 2 of 3 days assessed (67%).');
    const never = {
      days: days.map((day) => ({ ...day, status: 'failing' as const })),
      summary: { ...summary, daysPassing: 0, passingShare: 0 },
    };
    expect(passingText(never)).toBe('Passing on 0 of 5 days assessed (0%).');
    expect(passingText({ days: [], summary: { ...summary, passingShare: null } })).toBe('Not assessed in this period.');
  });

  it('names the streak and the time to fix, or says there was none', () => {
    expect(streakText(summary)).toBe('1 day, 2026-11-03 to 2026-11-03.');
    expect(streakText({ ...summary, longestNonPassingStreak: null })).toBe('None: it passed whenever it was assessed.');
    expect(fixText(summary)).toBe('2.3 days on average, over 1 fix.');
    expect(fixText({ ...summary, fixes: 3, meanTimeToFixDays: 4 })).toBe('4 days on average, over 3 fixes.');
    expect(fixText({ ...summary, fixes: 0, meanTimeToFixDays: null })).toBe('No fix in this period.');
  });

  it('labels each day with its status or its missing report', () => {
    expect(days.map(dayLabel)).toEqual([
      '2026-11-01: Passing',
      '2026-11-02: no report',
      '2026-11-03: Failing',
      '2026-11-04: Not applicable',
      '2026-11-05: Passing',
    ]);
  });
});
