/**
 * `GET /api/report/{date}/versions` and `/versions/{n}`: today's report republished twice lists
 * three versions, oldest first with who published each, a page at a time; each version reads
 * as the bytes stored, immutable; a version the day lacks and a cursor the API never gave
 * answer problems.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { createReportFamily } from '../../../functions/src/families/report.ts';
import { logs } from '../../../functions/src/logs.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { emptyReport } from '../../support/reports.ts';
import { serve, type Served } from '../../support/serve.ts';

const catalog = compileCatalogSources(paths.catalog);
const today = '2026-11-21';
const now = () => new Date(`${today}T12:00:00Z`);
const alice = { uid: 'u-alice', email: 'alice@example.com' };
const store = new MemoryStore();
let served: Served;

const made = (runId: string, time: string, score: number): Report => ({
  ...emptyReport(today, { score, catalogVersion: catalog.version }),
  runId,
  generatedAt: `${today}T${time}.000Z`,
});

beforeAll(async () => {
  setMode('public');
  vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
  const reports = new ReportStore(store);
  await reports.create(made(`daily-${today}`, '06:00:00', 50), { by: 'daily', trigger: 'schedule' });
  for (const [runId, time, score] of [
    ['an-first', '09:00:00', 60],
    ['an-second', '10:00:00', 70],
  ] as const) {
    const current = (await reports.find(today, { fresh: true }))!;
    await reports.publish(made(runId, time, score), current, now, { by: 'analysis', startedBy: alice });
  }
  served = await serve(
    createReportFamily({
      store: async () => store,
      catalog: () => catalog,
      now,
      timeZone: () => 'UTC',
      verifyToken: fakeVerifier(),
      loadTable: tableOf('report'),
    }),
  );
});

afterAll(async () => {
  vi.restoreAllMocks();
  await served.close();
});

const get = (path: string) => fetch(`${served.url}${path}`);

describe('the versions of today’s report', () => {
  it('lists every version oldest first, the current last, with who published each and where to read it', async () => {
    const response = await get(`/api/report/${today}/versions`);
    expect(response.status).toBe(200);
    const summary = (score: number) => emptyReport(today, { score }).summary;
    expect(await response.json()).toEqual({
      items: [
        {
          version: 1,
          current: false,
          generatedAt: `${today}T06:00:00.000Z`,
          runId: `daily-${today}`,
          publishedBy: 'daily',
          trigger: 'schedule',
          summary: summary(50),
          links: { self: `/api/report/${today}/versions/1` },
        },
        {
          version: 2,
          current: false,
          generatedAt: `${today}T09:00:00.000Z`,
          runId: 'an-first',
          publishedBy: 'analysis',
          startedBy: alice,
          summary: summary(60),
          links: { self: `/api/report/${today}/versions/2` },
        },
        {
          version: 3,
          current: true,
          generatedAt: `${today}T10:00:00.000Z`,
          runId: 'an-second',
          publishedBy: 'analysis',
          startedBy: alice,
          summary: summary(70),
          links: { self: `/api/report/${today}/versions/3` },
        },
      ],
      hasMore: false,
    });
  });

  it('pages with the cursor it gives out, and refuses one it did not', async () => {
    const first = await (await get(`/api/report/${today}/versions?limit=2`)).json();
    expect(first.items.map((item: { version: number }) => item.version)).toEqual([1, 2]);
    expect(first.hasMore).toBe(true);
    const second = await (await get(`/api/report/${today}/versions?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second).toMatchObject({ hasMore: false });
    expect(second.items.map((item: { version: number }) => item.version)).toEqual([3]);

    const refused = await get(`/api/report/${today}/versions?cursor=made-up`);
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors).toEqual([
      { in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' },
    ]);
  });

  it('reads a replaced version and the current one as stored, as immutable', async () => {
    const kept = await get(`/api/report/${today}/versions/1`);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(((await kept.json()) as Report).runId).toBe(`daily-${today}`);
    const current = await get(`/api/report/${today}/versions/3`);
    const report = await get(`/api/report/${today}`);
    expect(current.headers.get('etag')).toBe(report.headers.get('etag'));
    expect(await current.text()).toBe(await report.text());
  });

  it('answers 404 report_not_found for a version the day does not have', async () => {
    const response = await get(`/api/report/${today}/versions/4`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      code: 'report_not_found',
      detail: `The report of ${today} has no version 4. GET /api/report/${today}/versions lists its versions.`,
    });
  });
});
