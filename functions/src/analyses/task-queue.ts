/**
 * Hands runs to the worker through Cloud Tasks (`onTaskDispatched`), via firebase-admin. In the
 * emulators the same call reaches the tasks emulator, which the functions emulator announces
 * in `CLOUD_TASKS_EMULATOR_HOST`.
 */
import { cloudTaskQueue } from '../common/cloud-tasks.js';

export const workerFunctionName = 'analysisWorker';

/** How Cloud Tasks retries a failed attempt; the worker's last attempt marks the run failed instead. */
export const workerRetry = { maxAttempts: 4, minBackoffSeconds: 1, maxBackoffSeconds: 60 } as const;

export interface RunQueue {
  /** Queues the run once: enqueueing the same run again is not an error and adds nothing. */
  enqueue(runId: string): Promise<void>;
}

export interface WorkerPayload extends Record<string, unknown> {
  runId: string;
}

export function cloudTasksQueue(): RunQueue {
  const queue = cloudTaskQueue<WorkerPayload>(workerFunctionName);
  // The task id is the run id, so Cloud Tasks itself refuses a second task for one run.
  return { enqueue: (runId) => queue.enqueue({ runId }, runId) };
}
