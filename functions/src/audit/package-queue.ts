/** Hands audit package builds to their worker through Cloud Tasks, as analyses are handed to theirs. */
import { cloudTaskQueue } from '../common/cloud-tasks.js';

export const auditPackageWorkerName = 'auditPackageWorker';

/** A lost attempt is built again from the start, under its own parts (build-package.ts). */
export const auditPackageWorkerRetry = { maxAttempts: 3, minBackoffSeconds: 10, maxBackoffSeconds: 120 } as const;

export interface AuditPackageQueue {
  /** Queues the build once: the task id is the package id. */
  enqueue(packageId: string): Promise<void>;
}

export function cloudTasksAuditPackageQueue(): AuditPackageQueue {
  const queue = cloudTaskQueue<{ packageId: string }>(auditPackageWorkerName);
  return { enqueue: (packageId) => queue.enqueue({ packageId }, packageId) };
}
