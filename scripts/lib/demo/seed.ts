/**
 * Seeds a store with the demo history: for each day, oldest first, the collectors' evidence,
 * each collector's batch under its collection run (deliveries.ts) driven through the run store
 * as the `runs` and `evidence` families drive it, on the day's clock; then the day's
 * submissions, then the day's report, exactly as the daily job would have made it that night.
 * Today's report is made as of `now`.
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
import type { RunStore } from '../../../functions/src/runs/run-store.ts';
import type { ObjectStore } from '../../../functions/src/storage/object-store.ts';
import type { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { demoHistory } from './demo-evidence.ts';
import { deliveriesOf, type Delivery } from './deliveries.ts';

export interface SeedDependencies {
  store: ObjectStore;
  evidence: EvidenceStore;
  reports: ReportStore;
  submissions: SubmissionStore;
  /** Where the collectors' runs are kept; unused when `collectionRuns` is false. */
  runs: RunStore;
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
  /** Whether the collectors send through collection runs, with the story's abandoned run and drop; true by default. */
  collectionRuns?: boolean;
}

export type SeedResult =
  | { seeded: false }
  | {
      seeded: true;
      days: number;
      from: string;
      to: string;
      evidence: number;
      /** The collection runs opened. */
      runs: number;
      submissions: number;
      reports: number;
      /** The score of the last day's report. */
      score: number;
    };

/** A collector's service account, which opens and completes its runs. */
const collectorAccount = (source: string) => ({ uid: source, email: `${source}@acme-prod.iam.gserviceaccount.com` });

/**
 * Sends a delivery's batch, under its run when it has one: opened, the batch admitted, stored
 * with the run's id and recorded for it, then completed with the count sent per kind.
 * Returns how many items were created.
 */
async function deliver(runs: RunStore, evidence: EvidenceStore, { source, items, sentAt, run }: Delivery): Promise<number> {
  const opened = run && (await runs.open({ source, kinds: run.kinds, openedBy: collectorAccount(source) }, run.openedAt));
  if (opened) await runs.admit(opened.id, items, sentAt);
  const outcomes = await evidence.ingest(items, { receivedAt: sentAt, ...(opened ? { extra: { runId: opened.id } } : {}) });
  if (opened) {
    await runs.recordBatch(
      opened.id,
      items.map((item, index) => ({ id: outcomes[index]!.id, kind: item.kind, subject: item.subject })),
    );
    if (run.completedAt) await runs.complete(opened.id, countsOf(items), collectorAccount(source), run.completedAt);
  }
  return outcomes.filter((outcome) => outcome.status === 'created').length;
}

/** The number of distinct items sent per kind: the counts a collector completes its run with. */
function countsOf(items: readonly EvidenceInput[]): Record<string, number> {
  const ids = new Map<string, Set<string>>();
  for (const item of items) {
    let ofKind = ids.get(item.kind);
    if (!ofKind) ids.set(item.kind, (ofKind = new Set()));
    ofKind.add(item.id!);
  }
  return Object.fromEntries([...ids].map(([kind, set]) => [kind, set.size]));
}

export async function seedDemoHistory(dependencies: SeedDependencies, options: SeedOptions): Promise<SeedResult> {
  const { store, evidence, reports, submissions, runs, catalog } = dependencies;
  if ((await store.list('reports/', { pageSize: 1 })).items.length > 0) return { seeded: false };

  const days = options.days ?? 14;
  const trigger = options.trigger ?? 'demo-seed';
  const history = demoHistory(options.today, days, { timeZone: options.timeZone, now: options.now });
  const collectionRuns = options.collectionRuns ?? true;
  let stored = 0;
  let opened = 0;
  let submitted = 0;
  let score = 0;
  for (const day of history) {
    for (const delivery of deliveriesOf(day, { now: options.now, collectionRuns })) {
      stored += await deliver(runs, evidence, delivery);
      if (delivery.run) opened++;
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
    runs: opened,
    submissions: submitted,
    reports: history.length,
    score,
  };
}
