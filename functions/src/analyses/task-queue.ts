/**
 * Hands runs to the worker through Cloud Tasks (`onTaskDispatched`), via firebase-admin. In the
 * emulators the same call reaches the tasks emulator, which the functions emulator announces
 * in `CLOUD_TASKS_EMULATOR_HOST`.
 */
import * as config from '../config.js';

export const workerFunctionName = 'analysisWorker';

/** How Cloud Tasks retries a failed attempt; the worker's last attempt marks the run failed instead. */
export const workerRetry = { maxAttempts: 4, minBackoffSeconds: 1, maxBackoffSeconds: 60 } as const;

export interface RunQueue {
  /** Queues the run once: enqueueing the same run again is not an error and adds nothing. */
  enqueue(runId: string): Promise<void>;
}

export interface WorkerPayload {
  runId: string;
}

export function cloudTasksQueue(): RunQueue {
  let queue: Promise<{ enqueue(data: WorkerPayload, options: { id: string }): Promise<void> }> | undefined;
  const open = async () => {
    const [{ getApps, initializeApp }, { getFunctions }] = await Promise.all([
      import('firebase-admin/app'),
      import('firebase-admin/functions'),
    ]);
    const name = 'analysis-queue';
    const projectId = config.runtimeProjectId();
    const app =
      getApps().find((candidate) => candidate.name === name) ??
      initializeApp(
        {
          projectId,
          // Enqueueing asks for the service account that signs the task's OIDC token. In the
          // emulators there is no metadata server to ask, and the tasks emulator ignores the token.
          ...(config.inEmulator() ? { serviceAccountId: `${projectId}@appspot.gserviceaccount.com` } : {}),
        },
        name,
      );
    return getFunctions(app).taskQueue<WorkerPayload>(workerFunctionName);
  };
  return {
    async enqueue(runId) {
      queue ??= open().catch((error: unknown) => {
        queue = undefined;
        throw error;
      });
      try {
        // The task id is the run id, so Cloud Tasks itself refuses a second task for one run.
        await (await queue).enqueue({ runId }, { id: runId });
      } catch (error) {
        if ((error as { code?: string }).code !== 'functions/task-already-exists') throw error;
      }
    },
  };
}
