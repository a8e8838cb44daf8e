/** The daily report job as the schedule and the development trigger run it, with production dependencies. */
import { loadCompiledCatalog } from '../assessment/catalog.js';
import { produceDailyReport } from '../reports/daily-report.js';
import * as config from '../config.js';
import { openStore } from '../storage/open-store.js';

export async function runDailyReport(trigger: string): Promise<{ date: string; created: boolean; score: number }> {
  const [store, catalog] = await Promise.all([openStore(), loadCompiledCatalog()]);
  const { stored, created } = await produceDailyReport({
    store,
    catalog,
    timeZone: config.reportTimeZone(),
    now: new Date(),
    trigger,
  });
  return { date: stored.date, created, score: stored.report.summary.score };
}
