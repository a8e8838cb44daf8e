/**
 * The daily job: evaluate one day and store its report, once. The schedule, the development
 * trigger, the seeding script and a first read of today all call this one function.
 *
 * It evaluates with the organisation's newest settings (settings/apply-settings.ts), which the
 * report names. It reads the evidence received since the last checkpoint, not the history
 * (evidence/evidence-snapshot.ts), and leaves a checkpoint of the day for tomorrow's run. The
 * report is written create-only, so a second firing, a retry or a concurrent first read on the
 * same day all end with the one report that was stored first.
 */
import { randomUUID } from 'node:crypto';
import { dayIn, endOfDay } from '../assessment/dates.js';
import { evaluateWithPopulations, type CompiledCatalog } from '../assessment/evaluate.js';
import type { EvidenceItem } from '../assessment/model.js';
import { submissionsIn } from '../assessment/submission-review.js';
import type { SubmissionReviewMode } from '@evident/contract';
import { CheckpointStore } from '../evidence/checkpoint-store.js';
import { loadSnapshot } from '../evidence/evidence-snapshot.js';
import { EvidenceStore } from '../evidence/evidence-store.js';
import { ExceptionStore } from '../exceptions/exception-store.js';
import { logs } from '../logs.js';
import { writeControlPopulations } from '../populations/control-population-store.js';
import { populationsAsOf } from '../runs/population-inputs.js';
import { withSettings } from '../settings/apply-settings.js';
import { SettingsStore } from '../settings/settings-store.js';
import type { ObjectStore } from '../storage/object-store.js';
import { SubmissionStore } from '../submissions/submission-store.js';
import { ReportStore, type StoredReport } from './report-store.js';

export interface DailyReportOptions {
  store: ObjectStore;
  catalog: CompiledCatalog;
  timeZone: string;
  /** The clock: when the job runs. */
  now: Date;
  /** The day to evaluate; today in `timeZone` by default. A past day is evaluated as of its end. */
  date?: string;
  trigger: string;
  /** Lets a caller that already holds them (a long-lived process) share the stores' caches. */
  evidence?: EvidenceStore;
  reports?: ReportStore;
  checkpoints?: CheckpointStore;
  /** The evidence state's budget of bytes (assessment/evidence-state.ts); its default when absent. */
  stateBudgetBytes?: number;
  /** `SUBMISSION_REVIEW`: with `required`, submissions count once accepted; `optional` when absent. */
  submissionReview?: SubmissionReviewMode;
}

export interface DailyReportOutcome {
  stored: StoredReport;
  created: boolean;
  /** The evidence the day was evaluated on, when this call evaluated it (for reminders). */
  evidence?: readonly EvidenceItem[];
  /** The catalog as the settings made it for this evaluation (freshness windows, owners), when this call evaluated. */
  catalog?: CompiledCatalog;
}

export async function produceDailyReport(options: DailyReportOptions): Promise<DailyReportOutcome> {
  const reports = options.reports ?? new ReportStore(options.store);
  const evidence = options.evidence ?? new EvidenceStore(options.store);
  const checkpoints = options.checkpoints ?? new CheckpointStore(options.store);
  const date = options.date ?? dayIn(options.timeZone, options.now);
  const runId = `daily-${date}-${randomUUID().slice(0, 8)}`;
  const existing = await reports.find(date);
  if (existing) {
    logs.reportAlreadyExists(date, runId, options.trigger);
    return { stored: existing, created: false };
  }
  const started = performance.now();
  const end = endOfDay(options.timeZone, date);
  const asOf = options.now < end ? options.now : end;
  const [snapshot, previous, exceptions, settings, populations] = await Promise.all([
    loadSnapshot({
      evidence,
      checkpoints,
      date,
      asOf,
      receivedUpTo: options.now,
      checkpoint: true,
      ...(options.stateBudgetBytes === undefined ? {} : { budgetBytes: options.stateBudgetBytes }),
    }),
    reports.latestBefore(date),
    new ExceptionStore(options.store).inForce(date, asOf),
    new SettingsStore(options.store).current(),
    populationsAsOf(options.store, asOf),
  ]);
  logs.evidenceSnapshotLoaded(date, options.trigger, {
    from: snapshot.from?.date ?? null,
    batches: snapshot.batches,
    received: snapshot.received,
    items: snapshot.items.length,
    setAside: snapshot.setAside?.items ?? 0,
    checkpointWritten: snapshot.checkpointWritten,
  });
  const catalog = withSettings(options.catalog, settings);
  // Read once for the report, after the evidence, as only its submissions' reviews matter.
  const submissionReviews =
    options.submissionReview === 'required'
      ? await new SubmissionStore(options.store, evidence).decisions(submissionsIn(snapshot.items))
      : undefined;
  const { report, populations: controlPopulations } = evaluateWithPopulations(catalog, {
    date,
    timeZone: options.timeZone,
    asOf,
    generatedAt: options.now,
    runId,
    evidence: snapshot.items,
    ...(snapshot.setAside ? { setAside: snapshot.setAside } : {}),
    previous: previous?.report ?? null,
    exceptions,
    populations,
    ...(submissionReviews ? { submissionReviews } : {}),
  });
  // Before the report, so a stored report always has its populations; keyed by this run, so a
  // run that loses the race to store the day's report leaves populations nothing ever reads.
  await writeControlPopulations(options.store, { date, runId }, controlPopulations);
  const outcome = await reports.create(report, { by: 'daily', trigger: options.trigger });
  if (outcome.created) {
    logs.reportPublished(date, runId, options.trigger, report.summary.score, Math.round(performance.now() - started));
  } else {
    logs.reportAlreadyExists(date, runId, options.trigger);
  }
  return { ...outcome, evidence: snapshot.items, catalog };
}
