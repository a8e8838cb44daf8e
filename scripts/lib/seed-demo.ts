/**
 * Fills a local store with two weeks of demo evidence, submissions and daily reports, so the
 * web app has a history to show the moment the emulators start. It runs the compiled functions
 * (`functions/lib`, so `npm run build` must have run) through the loop in `demo/seed.ts`, which
 * the unit tests run with the functions' sources.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type * as DailyReportModule from '../../functions/src/reports/daily-report.ts';
import type * as EvaluateModule from '../../functions/src/assessment/evaluate.ts';
import type { Catalog } from '../../functions/src/assessment/model.ts';
import type * as ConfigModule from '../../functions/src/config.ts';
import type * as EvidenceStoreModule from '../../functions/src/evidence/evidence-store.ts';
import type * as LogsModule from '../../functions/src/logs.ts';
import type * as ReportStoreModule from '../../functions/src/reports/report-store.ts';
import type * as RunStoreModule from '../../functions/src/runs/run-store.ts';
import type * as LocalFolderStoreModule from '../../functions/src/storage/local-folder-store.ts';
import type * as SubmissionStoreModule from '../../functions/src/submissions/submission-store.ts';
import { compiled } from './compiled.ts';
import { seedDemoHistory, type SeedResult } from './demo/seed.ts';
import { paths } from './paths.ts';

export interface SeedDemoOptions {
  storeDir: string;
  /** The last day of the history (YYYY-MM-DD); its report is made as of `now`. */
  today: string;
  timeZone: string;
  now?: Date;
  days?: number;
}

export async function seedDemo({ storeDir, today, timeZone, now = new Date(), days }: SeedDemoOptions): Promise<SeedResult> {
  const [
    { LocalFolderStore },
    { EvidenceStore },
    { ReportStore },
    { RunStore },
    { SubmissionStore },
    { produceDailyReport },
    { compileCatalog },
    { logs },
    config,
  ] = await Promise.all([
    compiled<typeof LocalFolderStoreModule>('storage/local-folder-store.js'),
    compiled<typeof EvidenceStoreModule>('evidence/evidence-store.js'),
    compiled<typeof ReportStoreModule>('reports/report-store.js'),
    compiled<typeof RunStoreModule>('runs/run-store.js'),
    compiled<typeof SubmissionStoreModule>('submissions/submission-store.js'),
    compiled<typeof DailyReportModule>('reports/daily-report.js'),
    compiled<typeof EvaluateModule>('assessment/evaluate.js'),
    compiled<typeof LogsModule>('logs.js'),
    compiled<typeof ConfigModule>('config.js'),
  ]);
  const catalog = JSON.parse(await readFile(join(paths.functionsGenerated, 'catalog.json'), 'utf8')) as Catalog;
  const store = new LocalFolderStore(storeDir);
  const evidence = new EvidenceStore(store);

  // The job logs one structured line per report; the caller prints one summary instead.
  const { reportPublished, reportAlreadyExists, evidenceSnapshotLoaded } = logs;
  logs.reportPublished = () => undefined;
  logs.reportAlreadyExists = () => undefined;
  logs.evidenceSnapshotLoaded = () => undefined;
  try {
    return await seedDemoHistory(
      {
        store,
        evidence,
        reports: new ReportStore(store),
        submissions: new SubmissionStore(store, evidence),
        // As this process's environment sets them: unset, the defaults, which the demo projects' .env files also set.
        runs: new RunStore(store, config.runAbandonHours, config.populationDropPercent),
        catalog: compileCatalog(catalog),
        produceDailyReport,
      },
      { today, timeZone, now, ...(days ? { days } : {}) },
    );
  } finally {
    logs.reportPublished = reportPublished;
    logs.reportAlreadyExists = reportAlreadyExists;
    logs.evidenceSnapshotLoaded = evidenceSnapshotLoaded;
  }
}

/** Deletes a local store and everything in it. */
export async function resetStore(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
