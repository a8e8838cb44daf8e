/**
 * A stored report that is not one — a 0-byte file an earlier version's crash left in the local
 * store, or an empty object — is logged and passed over: the list of days leaves it out, the
 * newest report before it stands in for it, and `GET /api/report` answers 200, not 500.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { createReportFamily } from '../../../functions/src/families/report.ts';
import { logs } from '../../../functions/src/logs.ts';
import { reportObjectName, ReportStore } from '../../../functions/src/reports/report-store.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { emptyReport } from '../../support/reports.ts';
import { serve, type Served } from '../../support/serve.ts';

const report = (date: string, score: number): Report => emptyReport(date, { score });

const listing = (date: string, score: number) => ({
  date,
  generatedAt: `${date}T06:00:00.000Z`,
  summary: report(date, score).summary,
});

const dir = mkdtempSync(join(tmpdir(), 'evident-unreadable-'));
const store = new LocalFolderStore(dir);
let unreadable: MockInstance<(typeof logs)['reportUnreadable']>;

beforeAll(async () => {
  const reports = new ReportStore(store);
  await reports.create(report('2026-11-18', 80));
  await reports.create(report('2026-11-19', 90));
  // What a crash of an earlier version could leave: the file published, its bytes never written.
  mkdirSync(join(dir, 'objects', 'reports.d', 'day%3D2026-11-20.d'), { recursive: true });
  writeFileSync(join(dir, 'objects', 'reports.d', 'day%3D2026-11-20.d', 'report%2Ejson.o'), '');
  // And an object whose content is empty, as any store could hold.
  await store.create(reportObjectName('2026-11-21'), '', { contentType: 'application/json' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  unreadable = vi.spyOn(logs, 'reportUnreadable').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('ReportStore over a 0-byte report', () => {
  it('lists only the days whose report can be read', async () => {
    expect(await new ReportStore(store).list()).toEqual([listing('2026-11-18', 80), listing('2026-11-19', 90)]);
  });

  it('finds no report for the day, and logs why', async () => {
    const generation = (await store.stat(reportObjectName('2026-11-20'))).generation;
    expect(await new ReportStore(store).find('2026-11-20')).toBeUndefined();
    expect(unreadable.mock.calls).toEqual([['2026-11-20', generation, 0, 'Unexpected end of JSON input']]);
  });

  it('falls back to the newest readable report before the unreadable ones', async () => {
    const found = await new ReportStore(store).latestOnOrBefore('2026-11-21');
    expect(found?.report).toEqual(report('2026-11-19', 90));
    expect(unreadable.mock.calls.map(([date]) => date)).toEqual(['2026-11-21', '2026-11-20']);
  });
});

describe('GET /api/report over a 0-byte report', () => {
  let served: Served;
  beforeAll(async () => {
    setMode('public');
    served = await serve(
      createReportFamily({
        store: async () => store,
        catalog: () => compileCatalogSources(paths.catalog),
        now: () => new Date('2026-11-22T09:00:00Z'),
        timeZone: () => 'UTC',
        loadTable: tableOf('report'),
        verifyToken: fakeVerifier(),
      }),
    );
  });
  afterAll(() => served.close());

  it('answers 200 with the readable days', async () => {
    const response = await fetch(`${served.url}/api/report`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      timeZone: 'UTC',
      today: '2026-11-22',
      reports: [listing('2026-11-18', 80), listing('2026-11-19', 90)],
    });
  });
});
