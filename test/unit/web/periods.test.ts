/**
 * The periods the pages ask for: the default last days (from the first report at the earliest),
 * the API's refusals said before asking, the heading of a chosen period, and the package's
 * address and file name.
 */
import { describe, expect, it } from 'vitest';
import { lastDays, periodHeading, periodProblem } from '../../../hosting/src/lib/periods.ts';

const today = '2026-11-24';

describe('periods', () => {
  it('are the last days up to today, from the first report when the history is shorter', () => {
    expect(lastDays(today, 90)).toEqual({ from: '2026-08-27', to: today });
    expect(lastDays(today, 90, '2026-11-10')).toEqual({ from: '2026-11-10', to: today });
    expect(lastDays(today, 90, '2026-01-01')).toEqual({ from: '2026-08-27', to: today });
  });

  it.each([
    [{ from: '', to: today }, 'Choose both days.'],
    [{ from: '2026-11-01', to: '2026-11-25' }, 'The last day can be today (2026-11-24) at the latest.'],
    [{ from: '2026-11-20', to: '2026-11-10' }, 'The first day must not be after the last.'],
    [{ from: '2025-11-23', to: today }, 'A period can be at most 366 days long.'],
  ])('refuses %o as the API would: %s', (period, problem) => {
    expect(periodProblem(period, today)).toBe(problem);
  });

  it('accept 366 days, as the API does, and a single day', () => {
    expect(periodProblem({ from: '2025-11-24', to: today }, today)).toBeUndefined();
    expect(periodProblem({ from: today, to: today }, today)).toBeUndefined();
  });

  it('are headed by their days unless they are the default', () => {
    const standard = { from: '2026-08-27', to: today };
    expect(periodHeading(standard, standard, 90)).toBe('Last 90 days');
    expect(periodHeading({ from: '2026-07-01', to: '2026-09-30' }, standard, 90)).toBe('From 2026-07-01 to 2026-09-30');
  });
});
