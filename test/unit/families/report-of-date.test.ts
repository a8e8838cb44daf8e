/**
 * A date names a report the same way wherever it comes from: `GET /api/report/{date}`, its
 * OSCAL export, and the `date` of `POST /api/chat` find the same report, and refuse a day in
 * the future, a past day without a report and an impossible day with the same problems — only
 * where the date was (a path parameter or a body pointer) differs.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../../functions/src/assessment/model.ts';
import type { ProblemCode } from '@evident/contract/problems';
import { createChatFamily } from '../../../functions/src/families/chat.ts';
import { createReportFamily } from '../../../functions/src/families/report.ts';
import { logs } from '../../../functions/src/logs.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { emptyReport } from '../../support/reports.ts';
import { serve, type Served } from '../../support/serve.ts';

const catalog = compileCatalogSources(paths.catalog);
const store = new MemoryStore();
const pastDay = '2026-11-20';
let report: Served;
let chat: Served;

beforeAll(async () => {
  setMode('public');
  vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
  const past = emptyReport(pastDay, {
    timeZone: 'Europe/Paris',
    asOf: '2026-11-20T23:00:00.000Z',
    generatedAt: '2026-11-20T23:00:00.000Z',
    catalogVersion: catalog.version,
  });
  await new ReportStore(store).create(past);
  const options = {
    store: async () => store,
    catalog: () => catalog,
    // 23:30 UTC on the 21st is already the 22nd in Paris: "today" is the report zone's day.
    now: () => new Date('2026-11-21T23:30:00Z'),
    timeZone: () => 'Europe/Paris',
    verifyToken: fakeVerifier(),
  };
  report = await serve(createReportFamily({ ...options, loadTable: tableOf('report') }));
  chat = await serve(createChatFamily({ ...options, loadTable: tableOf('chat') }));
});

afterAll(async () => {
  vi.restoreAllMocks();
  await report.close();
  await chat.close();
});

const getReport = (date: string) => fetch(`${report.url}/api/report/${date}`);
const getOscal = (date: string) => fetch(`${report.url}/api/report/${date}/oscal`);
const ask = (date: string) =>
  fetch(`${chat.url}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ message: 'What is failing?', date }),
  });

async function expectProblem(response: Response, code: ProblemCode, detail: string, instance: string, extra = {}) {
  expect(response.status).toBe(code === 'invalid_request' ? 400 : 404);
  expect(await response.json()).toEqual(expectedProblem(code, detail, instance, response.headers.get('x-request-id')!, extra));
}

describe('the report of a date', () => {
  it('is the stored report of a past day for the report, its OSCAL export and chat', async () => {
    expect(((await (await getReport(pastDay)).json()) as Report).runId).toBe(`daily-${pastDay}`);
    const oscal = await getOscal(pastDay);
    expect(oscal.status).toBe(200);
    const [result] = (
      (await oscal.json()) as { 'assessment-results': { results: { props: { name: string; value: string }[] }[] } }
    )['assessment-results'].results;
    expect(result!.props.find((prop) => prop.name === 'evident-run-id')?.value).toBe(`daily-${pastDay}`);
    const answer = await ask(pastDay);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { date: string }).date).toBe(pastDay);
  });

  it.each(['2026-11-23', '2999-01-01'])(
    'answers 404 report_not_found for %s, a day after today in the report zone',
    async (date) => {
      const detail = `${date} is in the future; today is 2026-11-22 (Europe/Paris).`;
      await expectProblem(await getReport(date), 'report_not_found', detail, `/api/report/${date}`);
      await expectProblem(await getOscal(date), 'report_not_found', detail, `/api/report/${date}/oscal`);
      await expectProblem(await ask(date), 'report_not_found', detail, '/api/chat');
    },
  );

  it('answers 404 report_not_found for a past day without a report', async () => {
    const detail = 'There is no report for 2001-01-01. GET /api/report lists the days that have one.';
    await expectProblem(await getReport('2001-01-01'), 'report_not_found', detail, '/api/report/2001-01-01');
    await expectProblem(await ask('2001-01-01'), 'report_not_found', detail, '/api/chat');
  });

  it.each(['2026-02-30', '2025-02-29', '2026-13-01'])('answers 400 for %s, which is not a calendar day', async (date) => {
    const message = 'is not a calendar date (YYYY-MM-DD)';
    await expectProblem(
      await getReport(date),
      'invalid_request',
      `The path parameter "date" ${message}.`,
      `/api/report/${date}`,
      {
        errors: [{ in: 'path', name: 'date', message }],
      },
    );
    await expectProblem(await ask(date), 'invalid_request', `The body /date ${message}.`, '/api/chat', {
      errors: [{ in: 'body', pointer: '/date', message }],
    });
  });

  it('answers 400 for a date that is not YYYY-MM-DD, from the same pattern', async () => {
    const message = 'must match pattern "^\\d{4}-\\d{2}-\\d{2}$"';
    await expectProblem(
      await getReport('2026-1-01'),
      'invalid_request',
      `The path parameter "date" ${message}.`,
      '/api/report/2026-1-01',
      {
        errors: [{ in: 'path', name: 'date', message }],
      },
    );
    await expectProblem(await ask('2026-1-01'), 'invalid_request', `The body /date ${message}.`, '/api/chat', {
      errors: [{ in: 'body', pointer: '/date', message }],
    });
  });
});
