/**
 * `npm run daily-report [-- --date YYYY-MM-DD] [--empty]`: runs the daily report job once against
 * the local store (`.local/store`; with `--empty` the store of `npm start -- --empty`; or
 * `EVIDENT_STORE_DIR`), in `REPORT_TIME_ZONE` (UTC by default), for today or a past day. Like the
 * scheduled job it never replaces a report: it says whether it created the day's report or found
 * it already there, prints the score, and for today says how to publish a new assessment.
 *
 * It runs the compiled functions, so `npm run build` (or `npm start`) must have run first.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type * as DailyReportModule from '../functions/src/reports/daily-report.ts';
import type * as DatesModule from '../functions/src/assessment/dates.ts';
import type * as EvaluateModule from '../functions/src/assessment/evaluate.ts';
import type { Catalog } from '../functions/src/assessment/model.ts';
import type * as LogsModule from '../functions/src/logs.ts';
import type * as LocalFolderStoreModule from '../functions/src/storage/local-folder-store.ts';
import { compiled } from './lib/compiled.ts';
import { outcomeLines } from './lib/daily-report-outcome.ts';
import { paths } from './lib/paths.ts';
import { demoStoreDir, ownStoreDir } from './lib/start-options.ts';

try {
  const { values } = parseArgs({ options: { date: { type: 'string' }, empty: { type: 'boolean' } } });
  const catalogFile = join(paths.functionsGenerated, 'catalog.json');
  if (!existsSync(catalogFile) || !existsSync(join(paths.functionsLib, 'reports', 'daily-report.js'))) {
    throw new Error('functions/lib is missing or incomplete; run npm run build first.');
  }
  const [{ LocalFolderStore }, { produceDailyReport }, { compileCatalog }, { dayIn, isCalendarDate, checkTimeZone }, { logs }] =
    await Promise.all([
      compiled<typeof LocalFolderStoreModule>('storage/local-folder-store.js'),
      compiled<typeof DailyReportModule>('reports/daily-report.js'),
      compiled<typeof EvaluateModule>('assessment/evaluate.js'),
      compiled<typeof DatesModule>('assessment/dates.js'),
      compiled<typeof LogsModule>('logs.js'),
    ]);

  const timeZone = process.env.REPORT_TIME_ZONE || 'UTC';
  checkTimeZone(timeZone);
  const now = new Date();
  const today = dayIn(timeZone, now);
  const date = values.date ?? today;
  if (!isCalendarDate(date)) throw new Error(`--date must be a day as YYYY-MM-DD, not "${date}".`);
  if (date > today) throw new Error(`${date} has not begun in ${timeZone} yet (today is ${today}).`);

  // The store `npm start` runs on: the demo's, or with --empty the one of your own data.
  const storeDir = process.env.EVIDENT_STORE_DIR || (values.empty ? ownStoreDir : demoStoreDir);
  const storeName = relative(paths.root, storeDir).startsWith('..') ? storeDir : relative(paths.root, storeDir);
  const catalog = compileCatalog(JSON.parse(await readFile(catalogFile, 'utf8')) as Catalog);

  // This prints its own summary instead of the job's structured log line.
  logs.reportPublished = () => undefined;
  logs.reportAlreadyExists = () => undefined;
  let read = '';
  logs.evidenceSnapshotLoaded = (_date, _trigger, facts) => {
    const from = facts['from'] ? `the checkpoint of ${String(facts['from'])}` : 'no checkpoint (every batch)';
    read = ` It started from ${from} and read ${String(facts['batches'])} batches (${String(facts['received'])} items) received since.`;
  };
  const { stored, created } = await produceDailyReport({
    store: new LocalFolderStore(storeDir),
    catalog,
    timeZone,
    now,
    date,
    trigger: 'cli',
  });
  const { score, counts } = stored.report.summary;
  const outcome = { created, date, today, storeName, asOf: stored.report.asOf, score, counts };
  for (const line of outcomeLines(read ? { ...outcome, read: read.trim() } : outcome)) console.log(line);
} catch (error) {
  console.error(`✗ ${(error as Error).message}`);
  process.exit(1);
}
