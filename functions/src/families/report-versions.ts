/**
 * The versions of a day's report, for the `report` family: `GET /api/report/{date}/versions`
 * lists them a page at a time, oldest first, and `/versions/{n}` reads one. A date answers as
 * `GET /api/report/{date}` does (report-of-date.ts).
 */
import { dayIn } from '../assessment/dates.js';
import type { MaybePromise } from '../common/maybe-async.js';
import type { OperationInput, OperationResult, RequestContext } from '../http/operation-types.js';
import { ApiProblem } from '../http/problem.js';
import type { StoredReport } from '../reports/report-store.js';
import { versionIn } from '../reports/report-versions.js';
import { pageBody, placeOf } from './paging.js';
import type { ReportsByDate } from './report-of-date.js';
import type { Services } from './services.js';

const datePath = { in: 'path', name: 'date' } as const;

/** `scope` is how a shared cache may keep an answer: `private` in protected mode, else `public`. */
export function reportVersionOperations(
  services: () => MaybePromise<Services>,
  reports: ReportsByDate,
  scope: (context: RequestContext) => string,
) {
  /**
   * The report of a date as the store holds it now: a listing of today's versions must not miss
   * a publish made in the last second by another instance, which the cached report would.
   */
  async function currentOf(s: Services, date: string): Promise<StoredReport> {
    const stored = await reports.get(s, date, datePath);
    if (date < dayIn(s.timeZone(), s.now())) return stored;
    return (await s.reports.find(date, { fresh: true })) ?? stored;
  }

  async function listReportVersions({
    path,
    query,
  }: OperationInput<'listReportVersions'>): Promise<OperationResult<'listReportVersions'>> {
    const s = await services();
    const current = await currentOf(s, path.date);
    const after = placeOf('versions', query.cursor);
    const page = await s.reports.versions(path.date, current, {
      limit: query.limit,
      ...(after === undefined ? {} : { after: Number(after) }),
    });
    const items = page.items.map((version) => ({
      ...version,
      links: { self: `/api/report/${path.date}/versions/${version.version}` },
    }));
    const next = page.hasMore ? { next: String(items.at(-1)!.version) } : {};
    return { status: 200, body: pageBody('versions', { items, hasMore: page.hasMore, ...next }) };
  }

  async function getReportVersion(
    { path }: OperationInput<'getReportVersion'>,
    context: RequestContext,
  ): Promise<OperationResult<'getReportVersion'>> {
    const s = await services();
    const current = await currentOf(s, path.date);
    // The current version is the day's report; the ones it replaced are kept under their numbers.
    const stored = versionIn(current.metadata) === path.version ? current : await s.reports.version(path.date, path.version);
    if (!stored) {
      throw new ApiProblem(
        'report_not_found',
        `The report of ${path.date} has no version ${path.version}. GET /api/report/${path.date}/versions lists its versions.`,
      );
    }
    // A version never changes once made: the current one is kept under the same number when replaced.
    return { status: 200, body: stored.bytes, etag: stored.etag, cacheControl: `${scope(context)}, max-age=31536000, immutable` };
  }

  return { listReportVersions, getReportVersion };
}
