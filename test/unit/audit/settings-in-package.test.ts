/**
 * An audit package carries each version of the organisation's settings its reports were made
 * with, once however many days name it, exactly as saved; a report of the defaults names none.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { packageFiles, type PackageFacts } from '../../../functions/src/audit/audit-package.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { defaultVersionOf } from '../../../functions/src/settings/settings-model.ts';
import { SettingsStore } from '../../../functions/src/settings/settings-store.ts';
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

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  await report('2026-11-01');
  const change = (reason: string, critical: number) => ({
    settings: { ...defaultVersionOf(catalog).settings, dueDays: { critical, high: 30, medium: 90, low: 180 } },
    savedBy: { uid: 'user-1', email: 'ada@example.com' },
    savedAt: '2026-11-01T18:00:00.000Z',
    reason,
  });
  await settings.save(null, change('Critical controls due in 5 days.', 5));
  await report('2026-11-02');
  await report('2026-11-03');
  await settings.save(1, change('Critical controls due in 3 days.', 3));
  await report('2026-11-04');
});

describe('the settings in an audit package', () => {
  it('are each version a report of the period names, once each, as saved', async () => {
    const facts: PackageFacts = { reports: [], versions: [], evidence: 0, attachments: 0, unavailable: [] };
    const files = [];
    for await (const file of packageFiles(
      { store, reports: new ReportStore(store), evidence: new EvidenceStore(store), catalog },
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
    const settingsFiles = files.filter((file) => file.path.startsWith('settings/'));
    expect(settingsFiles.map((file) => file.path)).toEqual(['settings/version-1.json', 'settings/version-2.json']);
    expect(JSON.parse(settingsFiles[0]!.data.toString('utf8'))).toEqual(await settings.get(1));
    expect(JSON.parse(settingsFiles[1]!.data.toString('utf8'))).toMatchObject({
      version: 2,
      reason: 'Critical controls due in 3 days.',
      settings: { dueDays: { critical: 3 } },
    });
  });
});
