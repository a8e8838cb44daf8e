/**
 * The versions of today's report: each publish keeps the report it replaces (the scheduled one
 * included), two publishers that read the same report lose no version, a past day's versions
 * never change, and listing the days still costs one `list` that never meets a version.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { ReportImmutable, ReportStore } from '../../../functions/src/reports/report-store.ts';
import { versionObjectName } from '../../../functions/src/reports/report-versions.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { emptyReport } from '../../support/reports.ts';

const day = '2026-11-21';
const at = (instant: string) => () => new Date(instant);
const noon = at(`${day}T12:00:00Z`);
const alice = { uid: 'u-alice', email: 'alice@example.com' };
const bob = { uid: 'u-bob', email: 'bob@example.com' };

/** A report of `day` made by `runId` at `time`, scoring `score`. */
const made = (runId: string, time: string, score: number): Report => ({
  ...emptyReport(day, { score }),
  runId,
  generatedAt: `${day}T${time}.000Z`,
});

async function scheduled(store: MemoryStore | RecordingStore): Promise<ReportStore> {
  const reports = new ReportStore(store);
  await reports.create(made(`daily-${day}`, '06:00:00', 50), { by: 'daily', trigger: 'schedule' });
  return reports;
}

async function republish(reports: ReportStore, report: Report, startedBy = alice): Promise<'published' | 'conflict'> {
  const current = (await reports.find(day, { fresh: true }))!;
  return reports.publish(report, current, noon, { by: 'analysis', startedBy });
}

const everyVersion = async (reports: ReportStore) =>
  (await reports.versions(day, (await reports.find(day, { fresh: true }))!, { limit: 100 })).items;

describe('the versions of a day’s report', () => {
  it('publishing twice keeps the scheduled report and the first publish, listed oldest first with who published each', async () => {
    const store = new MemoryStore();
    const reports = await scheduled(store);
    expect(await republish(reports, made('an-first', '09:00:00', 60))).toBe('published');
    expect(await republish(reports, made('an-second', '10:00:00', 70), bob)).toBe('published');

    const summary = (score: number) => emptyReport(day, { score }).summary;
    expect(await everyVersion(new ReportStore(store))).toEqual([
      {
        version: 1,
        current: false,
        generatedAt: `${day}T06:00:00.000Z`,
        runId: `daily-${day}`,
        publishedBy: 'daily',
        trigger: 'schedule',
        summary: summary(50),
      },
      {
        version: 2,
        current: false,
        generatedAt: `${day}T09:00:00.000Z`,
        runId: 'an-first',
        publishedBy: 'analysis',
        startedBy: alice,
        summary: summary(60),
      },
      {
        version: 3,
        current: true,
        generatedAt: `${day}T10:00:00.000Z`,
        runId: 'an-second',
        publishedBy: 'analysis',
        startedBy: bob,
        summary: summary(70),
      },
    ]);
  });

  it('reads a kept version as the very bytes that were stored, and no version that was never kept', async () => {
    const store = new MemoryStore();
    const reports = await scheduled(store);
    const first = (await reports.find(day, { fresh: true }))!;
    await republish(reports, made('an-first', '09:00:00', 60));

    const kept = (await new ReportStore(store).version(day, 1))!;
    expect(kept.bytes.equals(first.bytes)).toBe(true);
    expect(kept.etag).toBe(first.etag);
    expect(await reports.version(day, 2)).toBeUndefined(); // the current one is not kept until replaced
  });

  it('two publishers that read the same report both keep it: the one refused reads again and publishes over the other', async () => {
    const store = new MemoryStore();
    await scheduled(store);
    const [a, b] = [new ReportStore(store), new ReportStore(store)];
    const [readByA, readByB] = [(await a.find(day, { fresh: true }))!, (await b.find(day, { fresh: true }))!];
    const outcomes = await Promise.all([
      a.publish(made('an-a', '09:00:00', 60), readByA, noon, { by: 'analysis', startedBy: alice }),
      b.publish(made('an-b', '09:00:01', 70), readByB, noon, { by: 'analysis', startedBy: bob }),
    ]);
    expect(outcomes.toSorted()).toEqual(['conflict', 'published']);
    const loser = outcomes[0] === 'conflict' ? { reports: a, runId: 'an-a' } : { reports: b, runId: 'an-b' };
    const winner = loser.runId === 'an-a' ? 'an-b' : 'an-a';
    expect(await republish(loser.reports, made(loser.runId, '09:00:02', 80))).toBe('published');

    const listed = await everyVersion(new ReportStore(store));
    expect(listed.map(({ version, runId, current }) => ({ version, runId, current }))).toEqual([
      { version: 1, runId: `daily-${day}`, current: false },
      { version: 2, runId: winner, current: false },
      { version: 3, runId: loser.runId, current: true },
    ]);
  });

  it('pages the versions oldest first, the current one last', async () => {
    const store = new RecordingStore(new MemoryStore());
    const reports = await scheduled(store);
    await republish(reports, made('an-first', '09:00:00', 60));
    await republish(reports, made('an-second', '10:00:00', 70));
    const current = (await reports.find(day, { fresh: true }))!;
    store.reset();

    const first = await reports.versions(day, current, { limit: 2 });
    expect(first.items.map(({ version }) => version)).toEqual([1, 2]);
    expect(first.hasMore).toBe(true);
    const second = await reports.versions(day, current, { limit: 2, after: 2 });
    expect(second.items.map(({ version }) => version)).toEqual([3]);
    expect(second.hasMore).toBe(false);
    expect(store.of('list')).toEqual([`report-versions/day=${day}/`, `report-versions/day=${day}/`]);
    expect(store.of('read')).toEqual([]);
  });

  it('a day never republished has one version, the report itself, and no kept object', async () => {
    const store = new MemoryStore();
    const reports = await scheduled(store);
    expect((await everyVersion(reports)).map(({ version, current }) => ({ version, current }))).toEqual([
      { version: 1, current: true },
    ]);
    expect((await store.list('report-versions/')).items).toEqual([]);
  });

  it('keeps a past day’s versions as they were: a publish after midnight is refused before anything is kept', async () => {
    const store = new MemoryStore();
    const reports = await scheduled(store);
    await republish(reports, made('an-first', '09:00:00', 60));
    const before = await everyVersion(reports);
    const current = (await reports.find(day, { fresh: true }))!;

    const late = reports.publish(made('an-late', '23:59:59', 90), current, at('2026-11-22T00:00:01Z'), {
      by: 'analysis',
      startedBy: alice,
    });
    await expect(late).rejects.toEqual(new ReportImmutable(day, '2026-11-22'));
    expect(await everyVersion(new ReportStore(store))).toEqual(before);
    expect((await store.list('report-versions/')).items.map(({ name }) => name)).toEqual([versionObjectName(day, 1)]);
  });

  it('listing the days stays one `list` of reports/, which never meets a kept version', async () => {
    const store = new RecordingStore(new MemoryStore());
    const reports = await scheduled(store);
    await republish(reports, made('an-first', '09:00:00', 60));
    store.reset();

    const listed = await new ReportStore(store).list();
    expect(listed).toEqual([
      { date: day, generatedAt: `${day}T09:00:00.000Z`, summary: emptyReport(day, { score: 60 }).summary },
    ]);
    expect(store.of('list')).toEqual(['reports/']);
    expect(store.of('read')).toEqual([]);
  });
});
