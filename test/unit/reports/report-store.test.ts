/**
 * The report store: finding the newest report before a day — for the diff, and for the
 * controls' latest status — costs one listing of the month before, however many reports the
 * store holds, and still finds a report across a longer gap; and a past day's report never
 * changes by any write, judged by the clock at the write in the report's time zone; and today's
 * cached report is checked against the store once a second, not on every read.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { addDays } from '../../../functions/src/assessment/dates.ts';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { logs } from '../../../functions/src/logs.ts';
import { reportObjectName, ReportImmutable, ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { emptyReport } from '../../support/reports.ts';

const report = (date: string, timeZone = 'UTC'): Report => emptyReport(date, { timeZone });

async function storeWith(dates: string[]): Promise<RecordingStore> {
  const store = new RecordingStore(new MemoryStore());
  const reports = new ReportStore(store);
  for (const date of dates) await reports.create(report(date));
  return store;
}

describe('ReportStore.latestBefore', () => {
  it('lists only the month before the day, whatever the history, and reads the one report it returns', async () => {
    const dates = Array.from({ length: 1500 }, (_, n) => addDays('2022-01-01', n));
    const store = await storeWith(dates);
    store.reset();
    const found = await new ReportStore(store).latestBefore('2025-12-01');
    expect(found?.date).toBe('2025-11-30');
    expect(store.of('list')).toEqual(['reports/']);
    expect(store.of('read')).toEqual(['reports/day=2025-11-30/report.json']);
  });

  it('finds the newest earlier report across a gap longer than a month, and none before the first', async () => {
    const store = await storeWith(['2025-01-10', '2025-03-01', '2025-09-15']);
    const reports = new ReportStore(store);
    expect((await reports.latestBefore('2025-09-15'))?.date).toBe('2025-03-01');
    expect((await reports.latestBefore('2025-03-01'))?.date).toBe('2025-01-10');
    expect(await reports.latestBefore('2025-01-10')).toBeUndefined();
    expect((await reports.latestOnOrBefore('2025-09-15'))?.date).toBe('2025-09-15');
  });
});

describe('ReportStore.find', () => {
  afterEach(() => vi.useRealTimers());

  it('serves a cached report of today from memory for a second, then checks its generation and sees a republished one', async () => {
    vi.useFakeTimers();
    const store = new RecordingStore(new MemoryStore());
    const writer = new ReportStore(store);
    const reader = new ReportStore(store);
    await writer.create(report('2026-11-21'));
    const first = (await reader.find('2026-11-21'))!;
    store.reset();

    const current = (await writer.find('2026-11-21', { fresh: true }))!;
    await writer.publish({ ...report('2026-11-21'), runId: 'an-republished' }, current, () => new Date('2026-11-21T12:00:00Z'), {
      by: 'daily',
      trigger: 'test',
    });
    store.reset();
    vi.advanceTimersByTime(999);
    expect(reader.find('2026-11-21')).toBe(first); // the very object, not a promise: no store call
    expect(store.of('stat')).toEqual([]);

    vi.advanceTimersByTime(1);
    expect((await reader.find('2026-11-21'))!.report.runId).toBe('an-republished');
    expect(store.of('stat')).toEqual(['reports/day=2026-11-21/report.json']);
    expect(store.of('read')).toEqual(['reports/day=2026-11-21/report.json']);
  });
});

describe('ReportStore.publish', () => {
  const at = (instant: string) => () => new Date(instant);
  const byTest = { by: 'daily', trigger: 'test' } as const;

  it("replaces today's report at the generation it was read at", async () => {
    const reports = new ReportStore(new MemoryStore());
    await reports.create(report('2026-11-21'));
    const current = (await reports.find('2026-11-21', { fresh: true }))!;
    const republished = { ...report('2026-11-21'), runId: 'an-republished' };
    expect(await reports.publish(republished, current, at('2026-11-21T23:59:59Z'), byTest)).toBe('published');
    expect((await reports.find('2026-11-21', { fresh: true }))!.report.runId).toBe('an-republished');
  });

  it('refuses with ReportImmutable to replace a report whose day ended before the write, leaving its bytes', async () => {
    const store = new MemoryStore();
    const reports = new ReportStore(store);
    await reports.create(report('2026-11-21'));
    const before = await store.read(reportObjectName('2026-11-21'));
    const republished = { ...report('2026-11-21'), runId: 'an-late' };

    const current = (await reports.find('2026-11-21', { fresh: true }))!;
    const refusal = reports.publish(republished, current, at('2026-11-22T00:00:01Z'), byTest);
    await expect(refusal).rejects.toEqual(new ReportImmutable('2026-11-21', '2026-11-22'));
    await expect(refusal).rejects.toMatchObject({ date: '2026-11-21', today: '2026-11-22' });

    const after = await store.read(reportObjectName('2026-11-21'));
    expect(after.data.equals(before.data)).toBe(true);
    expect(after.info.generation).toBe(before.info.generation);
    expect((await new ReportStore(store).find('2026-11-21'))!.report.runId).toBe('daily-2026-11-21');
  });

  it("refuses to create a past day's report that was never stored", async () => {
    const store = new MemoryStore();
    await expect(
      new ReportStore(store).publish(report('2026-11-20'), undefined, at('2026-11-21T09:00:00Z'), byTest),
    ).rejects.toEqual(new ReportImmutable('2026-11-20', '2026-11-21'));
    expect((await store.list('reports/')).items).toEqual([]);
  });

  it("judges the day in the report's time zone, not in UTC", async () => {
    const reports = new ReportStore(new MemoryStore());
    await reports.create(report('2026-11-21', 'Pacific/Auckland'));
    const current = (await reports.find('2026-11-21'))!;
    // 11:00 UTC on the 21st is already 00:00 on the 22nd in Auckland (UTC+13 in November).
    await expect(
      reports.publish(report('2026-11-21', 'Pacific/Auckland'), current, at('2026-11-21T11:00:00Z'), byTest),
    ).rejects.toEqual(new ReportImmutable('2026-11-21', '2026-11-22'));
  });

  it('never replaces a stored report through create, whatever the day', async () => {
    const store = new MemoryStore();
    const reports = new ReportStore(store);
    await reports.create(report('2026-11-21'));
    const before = await store.read(reportObjectName('2026-11-21'));
    const again = await reports.create({ ...report('2026-11-21'), runId: 'daily-again' });
    expect(again.created).toBe(false);
    expect(again.stored.bytes.equals(before.data)).toBe(true);
    expect((await store.read(reportObjectName('2026-11-21'))).info.generation).toBe(before.info.generation);
  });
});

describe('the daily job', () => {
  const catalog = compileCatalog(compileCatalogSources(paths.catalog));
  beforeAll(() => {
    for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
      vi.spyOn(logs, name).mockImplementation(() => undefined);
  });
  afterAll(() => vi.restoreAllMocks());

  it("run again after midnight for the same day keeps that day's report, and without a date makes the next day's", async () => {
    const store = new MemoryStore();
    const job = (now: string, date?: string) =>
      produceDailyReport({ store, catalog, timeZone: 'UTC', now: new Date(now), trigger: 'test', ...(date ? { date } : {}) });
    expect((await job('2026-11-21T23:59:59Z')).created).toBe(true);
    const before = await store.read(reportObjectName('2026-11-21'));

    const again = await job('2026-11-22T00:00:01Z', '2026-11-21');
    expect(again.created).toBe(false);
    const after = await store.read(reportObjectName('2026-11-21'));
    expect(after.data.equals(before.data)).toBe(true);
    expect(after.info.generation).toBe(before.info.generation);

    const next = await job('2026-11-22T00:00:01Z');
    expect({ date: next.stored.date, created: next.created }).toEqual({ date: '2026-11-22', created: true });
  });
});
