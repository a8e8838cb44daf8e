/**
 * Finding the newest report before a day — for the diff, and for the controls' latest status —
 * costs one listing of the month before, however many reports the store holds, and still finds
 * a report across a longer gap.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../functions/src/assessment/dates.ts';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { RecordingStore } from '../../support/recording-store.ts';

const report = (date: string): Report => ({
  date,
  timeZone: 'UTC',
  asOf: `${date}T06:00:00.000Z`,
  generatedAt: `${date}T06:00:00.000Z`,
  runId: `daily-${date}`,
  catalogVersion: 'test',
  summary: { score: 100, counts: { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 }, controls: 0 },
  controls: [],
  diff: { previousDate: null, newlyFailing: [], fixed: [], newlyStale: [], changes: [] },
});

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
