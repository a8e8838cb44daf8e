/** The `report` family: today's report (produced once on demand), any past day's, the list, OSCAL. */
import { dayIn, isCalendarDate } from '../assessment/dates.js';
import { toOscalAssessmentResults } from '../assessment/oscal-export.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import type { RequestContext } from '../http/operation-types.js';
import { ApiProblem, invalidRequest } from '../http/problem.js';
import type { StoredReport } from '../reports/report-store.js';
import { todaysReport } from '../reports/todays-report.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type ReportFamilyOptions = FamilyOptions & ServiceOptions;

export function createReportFamily(options: ReportFamilyOptions = {}) {
  const services = servicesFrom(options);
  const today = todaysReport();
  /** Each stored report's OSCAL bytes, made on first request; a republished report is a new object. */
  const oscal = new WeakMap<StoredReport, Buffer>();

  async function ofDate(s: Services, date: string): Promise<StoredReport> {
    if (!isCalendarDate(date)) {
      throw invalidRequest([{ in: 'path', name: 'date', message: 'is not a calendar date (YYYY-MM-DD)' }]);
    }
    const current = dayIn(s.timeZone(), s.now());
    if (date === current) return today(s);
    if (date > current)
      throw new ApiProblem('report_not_found', `${date} is in the future; today is ${current} (${s.timeZone()}).`);
    const stored = await s.reports.find(date, { immutable: true });
    if (!stored)
      throw new ApiProblem('report_not_found', `There is no report for ${date}. GET /api/report lists the days that have one.`);
    return stored;
  }

  /** Past days never change; today's report may be republished, so it is revalidated. */
  function caching(s: Services, stored: StoredReport, context: RequestContext): string {
    const past = stored.date < dayIn(s.timeZone(), s.now());
    // In protected mode a shared cache (the Hosting CDN) must not keep a report for everyone.
    const scope = context.authRequired ? 'private' : 'public';
    return past ? `${scope}, max-age=31536000, immutable` : `${scope}, no-cache`;
  }

  return createFamily(
    'report',
    {
      listReports: async () => {
        const s = await services();
        return {
          status: 200,
          body: { timeZone: s.timeZone(), today: dayIn(s.timeZone(), s.now()), reports: await s.reports.list() },
        };
      },
      getTodayReport: async (_input, context) => {
        const s = await services();
        const stored = await today(s);
        return { status: 200, body: stored.bytes, etag: stored.etag, cacheControl: caching(s, stored, context) };
      },
      getReport: async ({ path }, context) => {
        const s = await services();
        const stored = await ofDate(s, path.date);
        return { status: 200, body: stored.bytes, etag: stored.etag, cacheControl: caching(s, stored, context) };
      },
      getReportOscal: async ({ path }, context) => {
        const s = await services();
        const stored = await ofDate(s, path.date);
        let bytes = oscal.get(stored);
        if (!bytes) {
          const nistByControl = Object.fromEntries(
            s.catalog.controls.map((control) => [control.id, control.frameworks.nist80053]),
          );
          const document = toOscalAssessmentResults(stored.report, { version: stored.report.catalogVersion, nistByControl });
          bytes = Buffer.from(JSON.stringify(document));
          oscal.set(stored, bytes);
        }
        return {
          status: 200,
          body: bytes,
          etag: `${stored.etag.slice(0, -1)}.oscal"`,
          cacheControl: caching(s, stored, context),
        };
      },
    },
    options,
  );
}

export const handler = createReportFamily();
