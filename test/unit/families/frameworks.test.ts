/**
 * `GET /api/frameworks` and `GET /api/frameworks/{framework}` through the frameworks family:
 * readiness as the report of the day holds it (today's produced on first read), requirements
 * with their controls' titles and statuses, gaps with NIST's titles, a trend from the listing
 * alone, reports stored before readiness existed, and the problems for what cannot be answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../functions/src/assessment/dates.ts';
import { assembleReport, compileCatalog, evaluateEach } from '../../../functions/src/assessment/evaluate.ts';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { createFrameworksFamily } from '../../../functions/src/families/frameworks.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { serve, type Served } from '../../support/serve.ts';

type FrameworkList = components['schemas']['FrameworkList'];
type FrameworkDetail = components['schemas']['FrameworkDetail'];

const catalog = compileCatalogSources(paths.catalog);
const compiled = compileCatalog(catalog);
const today = '2026-11-24';
const store = new RecordingStore(new MemoryStore());
let served: Served;

/** The report of `date` with every control `missing` (there is no evidence) except `passing`, which pass. */
function reportOf(date: string, passing: readonly string[]): Report {
  const asOf = new Date(`${date}T23:59:59.999Z`);
  const controls = [...evaluateEach(compiled, { asOf, evidence: [] })].map((result) =>
    passing.includes(result.id) ? { ...result, status: 'passing' as const, findings: [] } : result,
  );
  return assembleReport(
    compiled,
    { date, timeZone: 'UTC', asOf, generatedAt: asOf, runId: `daily-${date}`, previous: null },
    controls,
  );
}

/** Every control mapped to SOC 2 CC6.1, which passing them all meets. */
const cc61 = catalog.controls.filter((control) => control.frameworks.soc2.includes('CC6.1')).map((control) => control.id);

beforeAll(async () => {
  setMode('public');
  const reports = new ReportStore(store);
  // Ten days back: a report made before readiness existed (no `frameworks`, no shares).
  const legacy = reportOf(addDays(today, -10), cc61);
  delete legacy.frameworks;
  delete legacy.summary.readiness;
  await reports.create(legacy);
  // 400 days back (outside the trend's year), then 3 and 2 days back with CC6.1 met on the last.
  await reports.create(reportOf(addDays(today, -400), []));
  await reports.create(reportOf(addDays(today, -3), []));
  await reports.create(reportOf(addDays(today, -2), cc61));
  served = await serve(
    createFrameworksFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => new Date(`${today}T12:00:00Z`),
      timeZone: () => 'UTC',
      verifyToken: fakeVerifier(),
      loadTable: tableOf('frameworks'),
    }),
  );
});

afterAll(() => served.close());

const get = (path: string) => fetch(`${served.url}${path}`);

describe('the frameworks', () => {
  it('lists each framework of the report of a day, without its requirement lists', async () => {
    const day = addDays(today, -2);
    const answer = await get(`/api/frameworks?date=${day}`);
    expect(answer.status).toBe(200);
    const stored = (await new ReportStore(store).find(day))!.report;
    expect(await answer.json()).toEqual({
      date: day,
      frameworks: stored.frameworks!.map(({ requirements: _requirements, gaps, ...summary }) => ({
        ...summary,
        gaps: gaps.length,
      })),
    });
  });

  it("produces today's report on first read and answers from it", async () => {
    store.reset();
    const answer = await get('/api/frameworks');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as FrameworkList;
    expect(body.date).toBe(today);
    expect(body.frameworks.map((framework) => [framework.framework, framework.name])).toEqual([
      ['soc2', 'SOC 2 Trust Services Criteria (2017)'],
      ['iso27001', 'ISO/IEC 27001:2022 Annex A'],
      ['nist80053', 'NIST SP 800-53 rev5, moderate baseline'],
    ]);
    expect(store.of('create')).toContain(`reports/day=${today}/report.json`);
  });
});

describe('one framework', () => {
  it('lists each covered requirement with its controls as the report has them, and the gaps', async () => {
    const day = addDays(today, -2);
    const answer = await get(`/api/frameworks/soc2?date=${day}`);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as FrameworkDetail;
    const stored = (await new ReportStore(store).find(day))!.report;
    const soc2 = stored.frameworks![0]!;
    expect(body).toMatchObject({ date: day, framework: 'soc2', share: soc2.share, counts: soc2.counts, covered: soc2.covered });
    const requirement = body.requirements.find((candidate) => candidate.id === 'CC6.1')!;
    expect(requirement).toEqual({
      id: 'CC6.1',
      title: null,
      status: 'met',
      controls: cc61.map((id) => ({
        id,
        title: catalog.controls.find((control) => control.id === id)!.title,
        status: 'passing',
      })),
    });
    expect(body.gaps).toEqual(soc2.gaps.map((id) => ({ id, title: null })));
  });

  it("names NIST's requirements by their titles, gaps included", async () => {
    const body = (await (await get(`/api/frameworks/nist80053?date=${addDays(today, -2)}`)).json()) as FrameworkDetail;
    const nist = catalog.frameworks.find((framework) => framework.id === 'nist80053')!;
    const titles = new Map(nist.requirements.map((requirement) => [requirement.id, requirement.title]));
    expect(body.requirements.length).toBeGreaterThan(0);
    expect(body.gaps.length).toBeGreaterThan(0);
    for (const entry of [...body.requirements, ...body.gaps]) expect(entry.title).toBe(titles.get(entry.id));
    // Every in-scope requirement is listed, a gap among them with no controls; the rest are out of scope.
    expect(body.requirements.length + body.outOfScope.length).toBe(nist.requirements.length);
    expect(body.requirements.filter((entry) => entry.controls.length === 0).map(({ id }) => id)).toEqual(
      body.gaps.map(({ id }) => id),
    );
  });

  it('draws the trend of the year up to the day from the listing, reading no report for it', async () => {
    store.reset();
    const day = addDays(today, -2);
    const body = (await (await get(`/api/frameworks/soc2?date=${day}`)).json()) as FrameworkDetail;
    const share = (date: string) => reportOf(date, date === day ? cc61 : []).summary.readiness!.soc2;
    // 400 days back is outside the year; 10 days back predates readiness; today is after the day.
    expect(body.trend).toEqual([
      { date: addDays(today, -3), share: share(addDays(today, -3)) },
      { date: day, share: share(day) },
    ]);
    expect(body.trend[1]!.share).toBeGreaterThan(body.trend[0]!.share!);
    // The report of the day was read (or served from this instance's cache); the trend only listed.
    expect(store.of('read').length).toBeLessThanOrEqual(1);
    expect(store.of('list').length).toBe(1);
  });

  it('reads a report stored before readiness existed with the catalog mappings of now', async () => {
    const body = (await (await get(`/api/frameworks/soc2?date=${addDays(today, -10)}`)).json()) as FrameworkDetail;
    expect(body.requirements.find((requirement) => requirement.id === 'CC6.1')!.status).toBe('met');
    // Read with the narrowest scope: SOC 2 Security, each criterion of it either covered or a gap.
    expect(body.scope).toBe('Security');
    expect(body.inScope + body.outOfScope.length).toBe(catalog.frameworks[0]!.requirements.length);
    expect(body.covered).toBe(body.inScope - body.gaps.length);
  });

  it('answers 404 for a framework Evident does not assess', async () => {
    const answer = await get('/api/frameworks/pci');
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'framework_not_found',
        'Evident assesses no framework "pci"; it assesses soc2, iso27001, nist80053.',
        '/api/frameworks/pci',
        answer.headers.get('x-request-id')!,
      ),
    );
  });

  it.each([
    ['2026-02-30', 400, 'invalid_request', 'The query parameter "date" is not a calendar date (YYYY-MM-DD).'],
    ['2026-11-25', 404, 'report_not_found', '2026-11-25 is in the future; today is 2026-11-24 (UTC).'],
    ['2026-11-01', 404, 'report_not_found', 'There is no report for 2026-11-01. GET /api/report lists the days that have one.'],
  ] as const)('answers a date of %s with %i %s', async (date, status, code, detail) => {
    for (const path of [`/api/frameworks?date=${date}`, `/api/frameworks/iso27001?date=${date}`]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(status);
      const body = (await answer.json()) as { code: string; detail: string };
      expect([body.code, body.detail], path).toEqual([code, detail]);
    }
  });
});
