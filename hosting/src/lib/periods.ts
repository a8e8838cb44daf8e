/**
 * Periods of days the pages ask the API for (a control's timeline, the audit package): the
 * default, what the date inputs may offer, and why a period would be refused (the API's own
 * rules, said before the request). Pure, so it is unit tested without a browser.
 */
import { maxPeriodDays } from '@evident/contract';
import { addDays, daysBetween } from './due-dates.ts';

export interface Period {
  from: string;
  to: string;
}

/** The `days` days up to `today`, starting no earlier than `earliest` (the first report) when given. */
export function lastDays(today: string, days: number, earliest?: string): Period {
  const from = addDays(today, 1 - days);
  return { from: earliest && earliest > from ? earliest : from, to: today };
}

/** Why the API would refuse the period, in the words a form shows; undefined when it would not. */
export function periodProblem({ from, to }: Period, today: string): string | undefined {
  if (!from || !to) return 'Choose both days.';
  if (to > today) return `The last day can be today (${today}) at the latest.`;
  if (from > to) return 'The first day must not be after the last.';
  if (daysBetween(from, to) + 1 > maxPeriodDays) return `A period can be at most ${maxPeriodDays} days long.`;
  return undefined;
}

/** "Last 90 days" for the default period, otherwise "From 2026-08-01 to 2026-10-31". */
export const periodHeading = (period: Period, fallback: Period, days: number): string =>
  period.from === fallback.from && period.to === fallback.to ? `Last ${days} days` : `From ${period.from} to ${period.to}`;
