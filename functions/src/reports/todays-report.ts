/**
 * Today's report on demand: the stored one, or — when the schedule has not run yet — the one
 * the daily job produces on this first read. Reads of today in one instance share a single
 * evaluation; other instances meet at the daily job's create-only write.
 */
import { dayIn } from '../assessment/dates.js';
import type { CompiledCatalog } from '../assessment/evaluate.js';
import { andThen, type MaybePromise } from '../common/maybe-async.js';
import type { CheckpointStore } from '../evidence/checkpoint-store.js';
import type { EvidenceStore } from '../evidence/evidence-store.js';
import type { SubmissionReviewMode } from '@evident/contract';
import type { ObjectStore } from '../storage/object-store.js';
import type { ReportStore, StoredReport } from './report-store.js';

/** What producing today's report needs; the families' shared services provide it. */
export interface TodaysReportDeps {
  store: ObjectStore;
  evidence: EvidenceStore;
  checkpoints: CheckpointStore;
  reports: ReportStore;
  /** The catalog with its checks planned; loads the evaluation engine on first call. */
  compiled: () => MaybePromise<CompiledCatalog>;
  now: () => Date;
  timeZone: () => string;
  /** `SUBMISSION_REVIEW`; submissions count at once without. */
  submissionReview?: () => SubmissionReviewMode;
}

export function todaysReport(): (s: TodaysReportDeps) => MaybePromise<StoredReport> {
  const producing = new Map<string, Promise<StoredReport>>();
  return (s) => {
    const date = dayIn(s.timeZone(), s.now());
    return andThen(s.reports.find(date), (stored) => stored ?? produce(s, date));
  };

  function produce(s: TodaysReportDeps, date: string): Promise<StoredReport> {
    let pending = producing.get(date);
    if (!pending) {
      // The evaluation engine loads only here: serving a stored report never needs it.
      pending = Promise.all([import('./daily-report.js'), s.compiled()])
        .then(([{ produceDailyReport }, catalog]) =>
          produceDailyReport({
            store: s.store,
            catalog,
            timeZone: s.timeZone(),
            now: s.now(),
            date,
            trigger: 'first-read',
            evidence: s.evidence,
            reports: s.reports,
            checkpoints: s.checkpoints,
            ...(s.submissionReview ? { submissionReview: s.submissionReview() } : {}),
          }),
        )
        .then(({ stored: report }) => report)
        .finally(() => producing.delete(date));
      producing.set(date, pending);
    }
    return pending;
  }
}
