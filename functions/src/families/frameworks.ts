/**
 * The `frameworks` family: readiness for SOC 2, ISO/IEC 27001 and NIST SP 800-53 from the report
 * of a day (today's, produced on first read, by default). Each report carries its readiness
 * (assessment/readiness.ts); one stored before readiness existed is read with the catalog's
 * current mappings. The trend comes from the reports' listing metadata: no report is read for it.
 */
import { frameworkIds, type FrameworkId } from '@evident/contract';
import { addDays } from '../assessment/dates.js';
import type { Catalog, FrameworkReadiness, Report } from '../assessment/model.js';
import { readinessOf } from '../assessment/readiness.js';
import { defaultScope } from '../settings/settings-model.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem } from '../http/problem.js';
import { reportsByDate } from './report-of-date.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type FrameworksFamilyOptions = FamilyOptions & ServiceOptions;

/** How far back the trend of a framework reaches from the day asked for. */
const trendDays = 366;

const isFrameworkId = (value: string): value is FrameworkId => (frameworkIds as readonly string[]).includes(value);

/**
 * A report's readiness as it was made. One made before readiness existed is read with the
 * catalog's mappings now and the narrowest scope; one made before scope existed counted only
 * the requirements a control covered, so that is its scope.
 */
function readinessIn(report: Report, catalog: Catalog): ServedReadiness[] {
  const stored = report.frameworks ?? readinessOf(catalog.frameworks, catalog.controls, report.controls, defaultScope);
  return stored.map(withScope);
}

type ServedReadiness = FrameworkReadiness & Required<Pick<FrameworkReadiness, 'scope' | 'inScope' | 'outOfScope'>>;

function withScope(readiness: FrameworkReadiness): ServedReadiness {
  const { scope, inScope, outOfScope } = readiness;
  if (scope !== undefined && inScope !== undefined && outOfScope !== undefined)
    return { ...readiness, scope, inScope, outOfScope };
  return {
    ...readiness,
    scope: 'The requirements a control covered (the report predates scope)',
    inScope: readiness.requirements.length,
    outOfScope: [],
  };
}

export function createFrameworksFamily(options: FrameworksFamilyOptions = {}) {
  const services = servicesFrom(options);
  const reports = reportsByDate();
  const dateQuery = { in: 'query', name: 'date' } as const;

  async function reportAsked(s: Services, date: string | undefined) {
    return date === undefined ? await reports.today(s) : await reports.get(s, date, dateQuery);
  }

  async function trendOf(s: Services, framework: FrameworkId, date: string) {
    const listings = await s.reports.list({ from: addDays(date, 1 - trendDays), upTo: date });
    return listings.flatMap(({ date: day, summary }) => {
      const share = summary.readiness?.[framework];
      return share === undefined ? [] : [{ date: day, share }];
    });
  }

  return createFamily(
    'frameworks',
    {
      listFrameworks: async ({ query }) => {
        const s = await services();
        const { report } = await reportAsked(s, query.date);
        const frameworks = readinessIn(report, s.catalog).map(({ requirements: _requirements, gaps, ...summary }) => ({
          ...summary,
          gaps: gaps.length,
        }));
        return { status: 200, body: { date: report.date, frameworks } };
      },
      getFramework: async ({ path, query }) => {
        const s = await services();
        const wanted = path.framework;
        const reference = isFrameworkId(wanted) ? s.catalog.frameworks.find((candidate) => candidate.id === wanted) : undefined;
        if (!reference) {
          throw new ApiProblem(
            'framework_not_found',
            `Evident assesses no framework "${wanted}"; it assesses ${s.catalog.frameworks.map((framework) => framework.id).join(', ')}.`,
          );
        }
        const { report } = await reportAsked(s, query.date);
        const readiness =
          readinessIn(report, s.catalog).find((candidate) => candidate.framework === reference.id) ??
          withScope(readinessOf([reference], s.catalog.controls, report.controls, defaultScope)[0]!);
        const titles = new Map(reference.requirements.map((requirement) => [requirement.id, requirement.title]));
        const results = new Map(report.controls.map((result) => [result.id, result]));
        const { requirements, gaps, ...summary } = readiness;
        return {
          status: 200,
          body: {
            date: report.date,
            ...summary,
            requirements: requirements.map((requirement) => ({
              id: requirement.id,
              title: titles.get(requirement.id) ?? null,
              status: requirement.status,
              controls: requirement.controls.flatMap((id) => {
                const result = results.get(id);
                return result ? [{ id, title: result.title, status: result.status }] : [];
              }),
            })),
            gaps: gaps.map((id) => ({ id, title: titles.get(id) ?? null })),
            trend: await trendOf(s, reference.id, report.date),
          },
        };
      },
    },
    options,
  );
}

export const handler = createFrameworksFamily();
