/** The daily report job as the schedule and the development trigger run it, with production dependencies. */
import { loadCompiledCatalog } from '../assessment/catalog.js';
import { produceDailyReport } from '../reports/daily-report.js';
import { republishOf, type Republish } from '../reports/republish-hint.js';
import * as config from '../config.js';
import { openStore } from '../storage/open-store.js';
import { announceDay } from './webhook-job.js';

export interface DailyJobOutcome {
  date: string;
  created: boolean;
  score: number;
  /** When the report existed: how to publish a new version of it. */
  republish?: Republish;
}

export async function runDailyReport(trigger: string): Promise<DailyJobOutcome> {
  const [store, catalog] = await Promise.all([openStore(), loadCompiledCatalog()]);
  const outcome = await produceDailyReport({
    store,
    catalog,
    timeZone: config.reportTimeZone(),
    now: new Date(),
    trigger,
    submissionReview: config.submissionReview(),
  });
  // After the report is stored: a failure here fails the job, whose retry finds the report and announces again.
  await announceDay(store, catalog, outcome, trigger);
  const { date } = outcome.stored;
  return {
    date,
    created: outcome.created,
    score: outcome.stored.report.summary.score,
    ...(outcome.created ? {} : { republish: republishOf(date) }),
  };
}
