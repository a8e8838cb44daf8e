/** The daily report job as the schedule and the development trigger run it, with production dependencies. */
import { loadCompiledCatalog } from '../assessment/catalog.js';
import { produceDailyReport } from '../reports/daily-report.js';
import * as config from '../config.js';
import { openStore } from '../storage/open-store.js';
import { announceDay } from './webhook-job.js';

export async function runDailyReport(trigger: string): Promise<{ date: string; created: boolean; score: number }> {
  const [store, catalog] = await Promise.all([openStore(), loadCompiledCatalog()]);
  const outcome = await produceDailyReport({ store, catalog, timeZone: config.reportTimeZone(), now: new Date(), trigger });
  // After the report is stored: a failure here fails the job, whose retry finds the report and announces again.
  await announceDay(store, catalog, outcome, trigger);
  return { date: outcome.stored.date, created: outcome.created, score: outcome.stored.report.summary.score };
}
