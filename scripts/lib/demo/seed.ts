/**
 * Seeds a store with the demo history: for each day, oldest first, the collectors' evidence,
 * then the day's submissions, then the day's report, exactly as the daily job would have made
 * it that night. Today's report is made as of `now`.
 *
 * The stores and the report job are passed in, so the seeding script can use the compiled
 * functions and the tests the sources, through the same loop. A store that already has any
 * report is left alone.
 */
import { endOfDay } from '../../../functions/src/assessment/dates.ts';
import type { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import type { CompiledCatalog } from '../../../functions/src/assessment/evaluate.ts';
import type { EvidenceInput } from '../../../functions/src/assessment/model.ts';
import type { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import type { ReportStore } from '../../../functions/src/reports/report-store.ts';
import type { ObjectStore } from '../../../functions/src/storage/object-store.ts';
import type { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { demoHistory } from './demo-evidence.ts';

export interface SeedDependencies {
  store: ObjectStore;
  evidence: EvidenceStore;
  reports: ReportStore;
  submissions: SubmissionStore;
  catalog: CompiledCatalog;
  produceDailyReport: typeof produceDailyReport;
}

export interface SeedOptions {
  /** The last day to seed (YYYY-MM-DD), usually today in `timeZone`. */
  today: string;
  timeZone: string;
  /** The clock: today's evidence is collected before it and today's report is as of it. */
  now: Date;
  days?: number;
  trigger?: string;
}

export type SeedResult =
  | { seeded: false }
  | {
      seeded: true;
      days: number;
      from: string;
      to: string;
      evidence: number;
      submissions: number;
      reports: number;
      /** The score of the last day's report. */
      score: number;
    };

/** Groups a day's items by collector, so each batch arrives when its collector finished. */
function batches(items: readonly EvidenceInput[]): EvidenceInput[][] {
  const bySource = new Map<string, EvidenceInput[]>();
  for (const item of items) {
    let batch = bySource.get(item.source);
    if (!batch) bySource.set(item.source, (batch = []));
    batch.push(item);
  }
  return [...bySource.values()];
}

export async function seedDemoHistory(dependencies: SeedDependencies, options: SeedOptions): Promise<SeedResult> {
  const { store, evidence, reports, submissions, catalog } = dependencies;
  if ((await store.list('reports/', { pageSize: 1 })).items.length > 0) return { seeded: false };

  const days = options.days ?? 14;
  const trigger = options.trigger ?? 'demo-seed';
  const history = demoHistory(options.today, days, { timeZone: options.timeZone, now: options.now });
  let stored = 0;
  let submitted = 0;
  let score = 0;
  for (const day of history) {
    for (const batch of batches(day.evidence)) {
      const finished = Math.max(...batch.map((item) => Date.parse(item.collectedAt))) + 30_000;
      const receivedAt = new Date(Math.min(finished, options.now.getTime()));
      const outcomes = await evidence.ingest(batch, { receivedAt });
      stored += outcomes.filter((outcome) => outcome.status === 'created').length;
    }
    for (const { submittedAt, ...submission } of day.submissions) {
      await submissions.create(submission, new Date(submittedAt));
      submitted++;
    }
    const end = endOfDay(options.timeZone, day.date);
    const { stored: report } = await dependencies.produceDailyReport({
      store,
      catalog,
      timeZone: options.timeZone,
      now: options.now < end ? options.now : end,
      date: day.date,
      trigger,
      evidence,
      reports,
    });
    score = report.report.summary.score;
  }
  return {
    seeded: true,
    days: history.length,
    from: history[0]?.date ?? options.today,
    to: history.at(-1)?.date ?? options.today,
    evidence: stored,
    submissions: submitted,
    reports: history.length,
    score,
  };
}
