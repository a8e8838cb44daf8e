/**
 * Hands connector runs to their worker through Cloud Tasks (`onTaskDispatched`), as analyses
 * are handed to theirs; in the emulators the same call reaches the tasks emulator.
 */
import { cloudTaskQueue } from '../common/cloud-tasks.js';

export const connectorWorkerName = 'connectorWorker';

/**
 * A connector cannot resume halfway, so a second attempt only ends a run whose first attempt was
 * lost (connector-run.ts); it never collects again.
 */
export const connectorWorkerRetry = { maxAttempts: 2, minBackoffSeconds: 10, maxBackoffSeconds: 60 } as const;

export interface ConnectorTask extends Record<string, unknown> {
  connector: string;
  runId: string;
}

export interface ConnectorQueue {
  /** Queues the run once: the task id is the run id, so a second task for one run adds nothing. */
  enqueue(task: ConnectorTask): Promise<void>;
}

export function cloudTasksConnectorQueue(): ConnectorQueue {
  const queue = cloudTaskQueue<ConnectorTask>(connectorWorkerName);
  return { enqueue: (task) => queue.enqueue(task, task.runId) };
}
