/** The analysis worker as the task queue runs it, with production dependencies shared per instance. */
import { runAnalysis, type Attempt, type WorkerDeps } from '../analyses/analysis-worker.js';
import { AnalysisStore } from '../analyses/analysis-store.js';
import { injectedFaults } from '../analyses/fault-injection.js';
import { workerRetry } from '../analyses/task-queue.js';
import { logs } from '../logs.js';
import { loadCompiledCatalog } from '../assessment/catalog.js';
import * as config from '../config.js';
import { CheckpointStore } from '../evidence/checkpoint-store.js';
import { EvidenceStore } from '../evidence/evidence-store.js';
import { loadOnce } from '../http/maybe-async.js';
import { ReportStore } from '../reports/report-store.js';
import { openStore } from '../storage/open-store.js';

const dependencies = loadOnce(async (): Promise<WorkerDeps> => {
  const [store, compiled] = await Promise.all([openStore(), loadCompiledCatalog()]);
  const afterControl = injectedFaults(store);
  return {
    analyses: new AnalysisStore(store),
    evidence: new EvidenceStore(store),
    checkpoints: new CheckpointStore(store),
    reports: new ReportStore(store),
    compiled,
    timeZone: config.reportTimeZone(),
    now: () => new Date(),
    ...(afterControl ? { afterControl } : {}),
  };
});

export async function runAnalysisTask(runId: unknown, retryCount: number): Promise<void> {
  const number = retryCount + 1;
  if (typeof runId !== 'string' || !/^an-[0-9]{17}-[0-9a-f]{8}$/.test(runId)) {
    // Retrying a task that names no run would never help.
    logs.analysisAttemptEnded(String(runId), number, 'malformed task', 0);
    return;
  }
  const attempt: Attempt = { number, final: number >= workerRetry.maxAttempts };
  await runAnalysis(await dependencies(), runId, attempt);
}
