/** The words of owners and due dates, counted from the report's day, and the order open work is listed in. */
import { describe, expect, it } from 'vitest';
import { daysBetween, dueText, hasFollowUps, moreText, openWork, openWorkShown } from '../../../hosting/src/lib/due-dates.ts';

describe('days between calendar dates', () => {
  it('counts whole days either way, across month, year and leap-day ends', () => {
    expect(daysBetween('2026-11-24', '2026-11-24')).toBe(0);
    expect(daysBetween('2026-11-24', '2026-12-01')).toBe(7);
    expect(daysBetween('2026-12-01', '2026-11-24')).toBe(-7);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-11-24', '2027-05-23')).toBe(180);
  });

  it('does not shift by an hour across a daylight-saving change, whatever zone the browser is in', () => {
    // Europe and the US change clocks on these days; calendar dates are counted in UTC.
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
    expect(daysBetween('2026-10-24', '2026-10-26')).toBe(2);
    expect(daysBetween('2026-11-01', '2026-11-02')).toBe(1);
  });
});

describe('a due date as seen on the report day', () => {
  it('says how many days are left before the due date, and that it is due on the day itself', () => {
    expect(dueText('2026-12-01', '2026-11-24')).toBe('due in 7 days');
    expect(dueText('2026-11-25', '2026-11-24')).toBe('due in 1 day');
    expect(dueText('2026-11-24', '2026-11-24')).toBe('due today');
  });

  it('says a control is overdue only from the day after its due date, by how many days', () => {
    expect(dueText('2026-11-23', '2026-11-24')).toBe('1 day overdue');
    expect(dueText('2026-11-10', '2026-11-24')).toBe('14 days overdue');
  });

  it("counts from the report's day, not today: a past report reads as it did that day", () => {
    expect(dueText('2026-11-20', '2026-11-18')).toBe('due in 2 days');
    expect(dueText('2026-11-20', '2026-11-22')).toBe('2 days overdue');
  });
});

describe('open work', () => {
  const result = (id: string, severity: 'critical' | 'high' | 'medium' | 'low', dueDate?: string, overdue?: boolean) => ({
    id,
    severity,
    ...(dueDate === undefined ? {} : { dueDate, overdue: overdue ?? false }),
  });

  it('lists the controls with a due date, overdue first, then the soonest due, then the riskiest, then by id', () => {
    const controls = [
      result('VUL-01', 'medium', '2027-02-01'),
      result('IAM-01', 'critical'),
      result('LOG-02', 'low', '2026-11-30'),
      result('ENC-01', 'high', '2026-11-20', true),
      result('BCK-01', 'critical', '2026-11-30'),
      result('CHG-01', 'critical', '2026-11-17', true),
      result('BCK-02', 'critical', '2026-11-30'),
    ];
    expect(openWork(controls).map((control) => control.id)).toEqual(['CHG-01', 'ENC-01', 'BCK-01', 'BCK-02', 'LOG-02', 'VUL-01']);
    // The list it was given is left as it was.
    expect(controls[0]!.id).toBe('VUL-01');
  });

  it("puts what the API marks overdue first even when its due date is later (the API's word is final)", () => {
    const ordered = openWork([result('A-01', 'low', '2026-11-01'), result('B-01', 'low', '2026-11-05', true)]);
    expect(ordered.map((control) => control.id)).toEqual(['B-01', 'A-01']);
  });

  it('lists nothing when no control has a due date: nothing open, or a report made before due dates', () => {
    expect(openWork([result('IAM-01', 'high'), result('IAM-02', 'low')])).toEqual([]);
    expect(openWork([])).toEqual([]);
  });

  it(`lists ${openWorkShown} on the dashboard and says how many more there are`, () => {
    expect(openWorkShown).toBe(8);
    expect(moreText(8)).toBe('');
    expect(moreText(9)).toBe('and 1 more open control');
    expect(moreText(20)).toBe('and 12 more open controls');
  });

  it('tells a report with due dates from one made before them by its overdue count', () => {
    expect(hasFollowUps({ overdue: 0 })).toBe(true);
    expect(hasFollowUps({ overdue: 3 })).toBe(true);
    expect(hasFollowUps({})).toBe(false);
  });
});
