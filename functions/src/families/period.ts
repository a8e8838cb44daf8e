/**
 * The period a request reads (a control's history, the audit package): calendar days up to
 * today in the report time zone, at most a year. A refusal names the parameter at fault.
 */
import { addDays, isCalendarDate } from '../assessment/dates.js';
import { maxPeriodDays } from '@evident/contract';
import { invalidRequest } from '../http/problem.js';

/** The period `query` asks for, checked; `to` defaults to today, `from` to `defaultDays` ending on `to`. */
export function periodOf(
  query: { from?: string; to?: string },
  today: string,
  timeZone: string,
  defaultDays: number,
): { from: string; to: string } {
  for (const name of ['from', 'to'] as const) {
    const value = query[name];
    if (value !== undefined && !isCalendarDate(value))
      throw invalidRequest([{ in: 'query', name, message: 'is not a calendar date (YYYY-MM-DD)' }]);
  }
  const to = query.to ?? today;
  if (to > today) throw invalidRequest([{ in: 'query', name: 'to', message: `is after today (${today}, ${timeZone})` }]);
  const from = query.from ?? addDays(to, 1 - defaultDays);
  if (from > to) throw invalidRequest([{ in: 'query', name: 'from', message: 'is after "to"' }]);
  if (addDays(from, maxPeriodDays - 1) < to)
    throw invalidRequest([{ in: 'query', name: 'from', message: `makes a period longer than ${maxPeriodDays} days` }]);
  return { from, to };
}
