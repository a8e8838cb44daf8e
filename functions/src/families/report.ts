/** The `report` family: today's report (produced once on demand), any past day's, the list, a day's versions, OSCAL. */
import { dayIn } from '../assessment/dates.js';
import { toOscalAssessmentResults } from '../assessment/oscal-export.js';
import { toOscalPoam } from '../assessment/oscal-poam.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { andThen } from '../common/maybe-async.js';
import type { RequestContext } from '../http/operation-types.js';
import type { StoredReport } from '../reports/report-store.js';
import { reportsByDate } from './report-of-date.js';
import { reportVersionOperations } from './report-versions.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type ReportFamilyOptions = FamilyOptions & ServiceOptions;

export function createReportFamily(options: ReportFamilyOptions = {}) {
  const services = servicesFrom(options);
  const reports = reportsByDate();
  const datePath = { in: 'path', name: 'date' } as const;
  /** Each stored report's OSCAL documents, made on first request; a republished report is a new object. */
  const oscal = { results: new WeakMap<StoredReport, Buffer>(), poam: new WeakMap<StoredReport, Buffer>() };

  /** An OSCAL rendering of the report of a date, with its own strong ETag, cached per stored report. */
  async function oscalOf(kind: keyof typeof oscal, date: string, context: RequestContext) {
    const s = await services();
    const stored = await reports.get(s, date, datePath);
    let bytes = oscal[kind].get(stored);
    if (!bytes) {
      const version = stored.report.catalogVersion;
      const nistByControl = Object.fromEntries(s.catalog.controls.map((control) => [control.id, control.frameworks.nist80053]));
      const document =
        kind === 'results'
          ? toOscalAssessmentResults(stored.report, { version, nistByControl })
          : toOscalPoam(stored.report, { version, nistByControl });
      bytes = Buffer.from(JSON.stringify(document));
      oscal[kind].set(stored, bytes);
    }
    return {
      status: 200 as const,
      body: bytes,
      etag: `${stored.etag.slice(0, -1)}.${kind === 'results' ? 'oscal' : 'poam'}"`,
      cacheControl: caching(s, stored, context),
    };
  }

  /** Past days never change; today's report may be republished, so it is revalidated. */
  function caching(s: Services, stored: StoredReport, context: RequestContext): string {
    const past = stored.date < dayIn(s.timeZone(), s.now());
    return past ? `${scopeOf(context)}, max-age=31536000, immutable` : todaysCaching(context);
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
      // Served without a promise when today's report is in memory: the common case, under load.
      getTodayReport: (_input, context) =>
        andThen(services(), (s) =>
          andThen(reports.today(s), (stored) => ({
            status: 200 as const,
            body: stored.bytes,
            etag: stored.etag,
            cacheControl: todaysCaching(context),
          })),
        ),
      getReport: async ({ path }, context) => {
        const s = await services();
        const stored = await reports.get(s, path.date, datePath);
        return { status: 200, body: stored.bytes, etag: stored.etag, cacheControl: caching(s, stored, context) };
      },
      ...reportVersionOperations(services, reports, scopeOf),
      getReportOscal: ({ path }, context) => oscalOf('results', path.date, context),
      getReportPoam: ({ path }, context) => oscalOf('poam', path.date, context),
    },
    options,
  );
}

/** In protected mode a shared cache (the Hosting CDN) must not keep a report for everyone. */
const scopeOf = (context: RequestContext) => (context.authRequired ? 'private' : 'public');

/** Revalidated on every use; written out rather than built, as it is sent on every read of today's report. */
const todaysCaching = (context: RequestContext) => (context.authRequired ? 'private, no-cache' : 'public, no-cache');

export const handler = createReportFamily();
