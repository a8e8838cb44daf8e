/**
 * An audit package carries each version of the organisation's settings its reports were made
 * with — the versions a republish replaced included — once however many days name it, exactly as
 * saved; a report of the defaults names none, and a version the store no longer holds is listed
 * as unavailable.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { packageFiles, type PackageFacts } from '../../../functions/src/audit/audit-package.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { defaultVersionOf } from '../../../functions/src/settings/settings-model.ts';
import { SettingsStore, settingsObjectName } from '../../../functions/src/settings/settings-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';

const catalog = compileCatalogSources(paths.catalog);
const compiled = compileCatalog(catalog);
const store = new MemoryStore();
const settings = new SettingsStore(store);
const day = (date: string) => new Date(`${date}T12:00:00Z`);
const report = (date: string) =>
  produceDailyReport({ store, catalog: compiled, timeZone: 'UTC', now: day(date), trigger: 'test' });

const change = (reason: string, critical: number) => ({
  settings: { ...defaultVersionOf(catalog).settings, dueDays: { critical, high: 30, medium: 90, low: 180 } },
  savedBy: { uid: 'user-1', email: 'ada@example.com' },
  savedAt: '2026-11-01T18:00:00.000Z',
  reason,
});

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  await report('2026-11-01');
  await settings.save(null, change('Critical controls due in 5 days.', 5));
  await report('2026-11-02');
  await report('2026-11-03');
  await settings.save(1, change('Critical controls due in 3 days.', 3));
  await report('2026-11-04');
});

/** The package of the four days, its files and what it learned. */
async function packageOfPeriod() {
  const facts: PackageFacts = { reports: [], versions: [], evidence: 0, attachments: 0, unavailable: [] };
  const files = [];
  for await (const file of packageFiles(
    // The build's verifier is not made in unit tests; any bytes stand for it.
    {
      store,
      reports: new ReportStore(store),
      evidence: new EvidenceStore(store),
      catalog,
      verifierScript: async () => Buffer.from('// verifier'),
    },
    {
      from: '2026-11-01',
      to: '2026-11-04',
      dates: ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04'],
      today: '2026-11-04',
      timeZone: 'UTC',
      generatedAt: day('2026-11-04'),
      apiVersion: 'test',
      requestedBy: { uid: 'auditor' },
    },
    facts,
  )) {
    files.push(file);
  }
  return { files, facts, settingsFiles: files.filter((file) => file.path.startsWith('settings/')) };
}

describe('the settings in an audit package', () => {
  it('are each version a report of the period names, once each, as saved', async () => {
    const { settingsFiles } = await packageOfPeriod();
    expect(settingsFiles.map((file) => file.path)).toEqual(['settings/version-1.json', 'settings/version-2.json']);
    expect(JSON.parse(settingsFiles[0]!.data.toString('utf8'))).toEqual(await settings.get(1));
    expect(JSON.parse(settingsFiles[1]!.data.toString('utf8'))).toMatchObject({
      version: 2,
      reason: 'Critical controls due in 3 days.',
      settings: { dueDays: { critical: 3 } },
    });
  });

  it('include the version an earlier report of a republished day names, and say when one is missing', async () => {
    // Today's report published again with settings version 3: version 2 is named only by the report it replaced.
    await settings.save(2, change('Critical controls due in 2 days.', 2));
    const reports = new ReportStore(store);
    const current = (await reports.find('2026-11-04'))!;
    const republished = {
      ...current.report,
      settingsVersion: 3,
      runId: 'an-republished',
      generatedAt: day('2026-11-04').toISOString(),
    };
    const publishedBy = { by: 'analysis' as const, startedBy: { uid: 'user-1' } };
    expect(await reports.publish(republished, current, () => day('2026-11-04'), publishedBy)).toBe('published');
    const { settingsFiles } = await packageOfPeriod();
    expect(settingsFiles.map((file) => file.path)).toEqual([
      'settings/version-1.json',
      'settings/version-2.json',
      'settings/version-3.json',
    ]);

    await store.delete(settingsObjectName(1));
    const { facts, settingsFiles: left } = await packageOfPeriod();
    expect(left.map((file) => file.path)).toEqual(['settings/version-2.json', 'settings/version-3.json']);
    expect(facts.unavailable).toEqual([
      {
        path: 'settings/version-1.json',
        reason: 'A report names this version of the settings, but the store does not hold it.',
      },
    ]);
  });
});
