/**
 * What answering a question about a stored report needs, kept per instance by the families that
 * answer questions (chat, mcp): the report's search index, built on its first question; each
 * day's summary and statuses, kept once read, for trends and histories; and earlier reports by date.
 */
import { dayIn } from '../assessment/dates.js';
import { indexReport, type ReportIndex } from '../chat/report-index.js';
import type { AskedReport } from '../chat/answer.js';
import { loadOnce, type MaybePromise } from '../common/maybe-async.js';
import { StoredReportDays } from '../reports/report-days.js';
import type { StoredReport } from '../reports/report-store.js';
import { reportsByDate } from './report-of-date.js';
import type { Services } from './services.js';

export function askedReports(services: () => MaybePromise<Services>) {
  const reports = reportsByDate();
  const days = loadOnce(async () => {
    const s = await services();
    return new StoredReportDays(s.reports, () => dayIn(s.timeZone(), s.now()));
  });
  const indexes = new WeakMap<StoredReport, ReportIndex>();
  return {
    reports,
    /** The index, days and earlier reports for questions about `stored`. */
    async of(stored: StoredReport): Promise<AskedReport> {
      const s = await services();
      let index = indexes.get(stored);
      if (!index) indexes.set(stored, (index = indexReport(stored.report, s.catalog)));
      const reportOn = async (date: string) => {
        const lookup = await reports.find(s, date);
        return 'found' in lookup ? lookup.found.report : undefined;
      };
      return { index, days: await days(), reportOn };
    },
  };
}
