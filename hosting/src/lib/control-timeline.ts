/**
 * What a control's timeline says in words, from `GET /api/controls/{id}/history`: the summary
 * sentences and the label of each day. Pure, so it is unit tested without a browser.
 */
import type { ControlHistory } from './api-types.ts';
import { statusLabel } from './format.ts';

type Summary = ControlHistory['summary'];

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;
/** One decimal at most: 3, 2.5. */
const amount = (value: number) => String(Math.round(value * 10) / 10);

/** "Passing on 62 of 80 days assessed (78%)": days it was applicable; or that it never was. */
export function passingText({ days: period, summary }: Pick<ControlHistory, 'days' | 'summary'>): string {
  if (summary.passingShare === null) return 'Not assessed in this period.';
  const assessed = period.filter((day) => day.status !== null && day.status !== 'not_applicable').length;
  return `Passing on ${summary.daysPassing} of ${days(assessed)} assessed (${Math.round(summary.passingShare * 100)}%).`;
}

export function streakText(summary: Summary): string {
  const streak = summary.longestNonPassingStreak;
  return streak ? `${days(streak.days)}, ${streak.from} to ${streak.to}.` : 'None: it passed whenever it was assessed.';
}

export function fixText(summary: Summary): string {
  if (summary.meanTimeToFixDays === null) return 'No fix in this period.';
  return `${amount(summary.meanTimeToFixDays)} days on average, over ${summary.fixes} ${summary.fixes === 1 ? 'fix' : 'fixes'}.`;
}

/** A day's label in the strip: "2026-11-20: Failing", or that it had no report. */
export const dayLabel = (day: ControlHistory['days'][number]) =>
  `${day.date}: ${day.status ? statusLabel[day.status] : 'no report'}`;
