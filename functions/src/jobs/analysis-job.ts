/** The analysis worker as the task queue runs it, with production dependencies shared per instance. */
import { runAnalysis, type Attempt, type WorkerDeps } from '../analyses/analysis-worker.js';
import { AnalysisStore } from '../analyses/analysis-store.js';
import { attemptEndMarker, injectedFaults } from '../analyses/fault-injection.js';
import { workerRetry } from '../analyses/task-queue.js';
import { logs } from '../logs.js';
import { loadCompiledCatalog } from '../assessment/catalog.js';
import * as config from '../config.js';
import { loadOnce } from '../common/maybe-async.js';
import { analysisIdPattern } from '@evident/contract';
import { CheckpointStore } from '../evidence/checkpoint-store.js';
import { EvidenceStore } from '../evidence/evidence-store.js';
import { describeRunFailure } from '../http/domain-problems.js';
import { ReportStore } from '../reports/report-store.js';
import { ExceptionStore } from '../exceptions/exception-store.js';
import { withSettings } from '../settings/apply-settings.js';
import { SettingsStore } from '../settings/settings-store.js';
import { openStore } from '../storage/open-store.js';
import { announceRun } from './webhook-job.js';
import { populationsAsOf } from '../runs/population-inputs.js';
import { writeControlPopulations } from '../populations/control-population-store.js';
import { SubmissionStore } from '../submissions/submission-store.js';
import type { ObjectStore } from '../storage/object-store.js';

const runIdShape = new RegExp(analysisIdPattern);

/** Test-only (emulators with fault injection): marks each attempt that returns. */
let attemptEnded: ((runId: string, attempt: number) => Promise<void>) | undefined;

const dependencies = loadOnce(async (): Promise<WorkerDeps> => {
  const [store, compiled] = await Promise.all([openStore(), loadCompiledCatalog()]);
  const afterControl = injectedFaults(store);
  attemptEnded = attemptEndMarker(store);
  return {
    analyses: new AnalysisStore(store, { describeFailure: describeRunFailure }),
    evidence: new EvidenceStore(store),
    checkpoints: new CheckpointStore(store),
    reports: new ReportStore(store),
    exceptions: new ExceptionStore(store),
    compiled,
    timeZone: config.reportTimeZone(),
    now: () => new Date(),
    describeFailure: describeRunFailure,
    populationsAsOf: (asOf) => populationsAsOf(store, asOf),
    writePopulations: (run, populations) => writeControlPopulations(store, run, populations),
    ...(config.submissionReview() === 'required' ? { submissionReviews: submissionReviewsIn(store) } : {}),
    ...(afterControl ? { afterControl } : {}),
  };
});

/** The reviews of submissions, read through one store per instance (a review, being final, is read once). */
function submissionReviewsIn(store: ObjectStore): NonNullable<WorkerDeps['submissionReviews']> {
  const submissions = new SubmissionStore(store, new EvidenceStore(store));
  return (ids) => submissions.decisions(ids);
}

export async function runAnalysisTask(runId: unknown, retryCount: number): Promise<void> {
  const number = retryCount + 1;
  if (typeof runId !== 'string' || !runIdShape.test(runId)) {
    // Retrying a task that names no run would never help.
    logs.analysisAttemptEnded(String(runId), number, 'malformed task', 0);
    return;
  }
  const attempt: Attempt = { number, final: number >= workerRetry.maxAttempts };
  const shared = await dependencies();
  // Each attempt evaluates with the settings as they are when it starts, like the daily job.
  const settings = await new SettingsStore(await openStore()).current();
  const deps = { ...shared, compiled: withSettings(shared.compiled, settings) };
  await runAnalysis(deps, runId, attempt);
  const record = await deps.analyses.get(runId);
  const log = deps.analyses.log(runId);
  await log.refresh();
  if (record) await announceRun(await openStore(), deps.reports, record, log.events);
  await attemptEnded?.(runId, number);
}
