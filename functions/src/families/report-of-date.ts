/**
 * The report of a date, looked up one way wherever a date names a report: `GET /api/report/{date}`
 * and its OSCAL export, the `date` of `POST /api/chat`, and the days a chat question compares
 * with. Today's report is produced on its first read; a past day's is read from the store. The
 * misses answer the same problems wherever the date came from:
 *
 *   not a calendar day (2026-02-30)    400 invalid_request, at the parameter or body pointer
 *   a day after today (report zone)    404 report_not_found, saying what today is
 *   a past day with no report          404 report_not_found, pointing at the list
 */
import { dayIn, isCalendarDate } from '../assessment/dates.js';
import { ApiProblem, invalidRequest, type RequestError } from '../http/problem.js';
import type { StoredReport } from '../reports/report-store.js';
import { todaysReport } from '../reports/todays-report.js';
import type { MaybePromise } from '../common/maybe-async.js';
import type { Services } from './services.js';

/** Where a request carried the date, so a refusal points at it. */
export type DateSource = Pick<RequestError, 'in' | 'name' | 'pointer'>;

export type ReportLookup = { found: StoredReport } | { missing: 'not-a-date' | 'future' | 'none'; today: string };

export interface ReportsByDate {
  /** Today's report, produced on its first read (once per instance however many ask at once). */
  today(s: Services): MaybePromise<StoredReport>;
  /** The report of `date`, or why there is none. */
  find(s: Services, date: string): Promise<ReportLookup>;
  /** The report of `date`, or the problem that says why there is none. */
  get(s: Services, date: string, source: DateSource): Promise<StoredReport>;
}

export function reportsByDate(): ReportsByDate {
  const today = todaysReport();

  async function find(s: Services, date: string): Promise<ReportLookup> {
    const current = dayIn(s.timeZone(), s.now());
    if (!isCalendarDate(date)) return { missing: 'not-a-date', today: current };
    if (date === current) return { found: await today(s) };
    if (date > current) return { missing: 'future', today: current };
    const stored = await s.reports.find(date, { immutable: true });
    return stored ? { found: stored } : { missing: 'none', today: current };
  }

  async function get(s: Services, date: string, source: DateSource): Promise<StoredReport> {
    const lookup = await find(s, date);
    if ('found' in lookup) return lookup.found;
    switch (lookup.missing) {
      case 'not-a-date':
        throw invalidRequest([{ ...source, message: 'is not a calendar date (YYYY-MM-DD)' }]);
      case 'future':
        throw new ApiProblem('report_not_found', `${date} is in the future; today is ${lookup.today} (${s.timeZone()}).`);
      case 'none':
        throw new ApiProblem('report_not_found', `There is no report for ${date}. GET /api/report lists the days that have one.`);
    }
  }

  return { today, find, get };
}
