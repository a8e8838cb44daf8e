/**
 * A Cloud Tasks queue of an `onTaskDispatched` function, through firebase-admin. In the emulators
 * the same call reaches the tasks emulator, which the functions emulator announces in
 * `CLOUD_TASKS_EMULATOR_HOST`. The admin app is made once per queue and per instance.
 */
import * as config from '../config.js';

export interface NamedTaskQueue<T> {
  /** Queues the task under `id`, once: a second task with an id already queued is not an error and adds nothing. */
  enqueue(data: T, id: string): Promise<void>;
}

/**
 * The queue of `functionName` in `region`. The region is part of the queue's address, and
 * firebase-admin assumes us-central1 when it is not given, so it is always given.
 */
export function cloudTaskQueue<T extends Record<string, unknown>>(
  functionName: string,
  region: string = config.functionsRegion,
): NamedTaskQueue<T> {
  let queue: Promise<{ enqueue(data: T, options: { id: string }): Promise<void> }> | undefined;
  const open = async () => {
    const [{ getApps, initializeApp }, { getFunctions }] = await Promise.all([
      import('firebase-admin/app'),
      import('firebase-admin/functions'),
    ]);
    const name = `${functionName}-queue`;
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
    return getFunctions(app).taskQueue<T>(`locations/${region}/functions/${functionName}`);
  };
  return {
    async enqueue(data, id) {
      queue ??= open().catch((error: unknown) => {
        queue = undefined;
        throw error;
      });
      try {
        await (await queue).enqueue(data, { id });
      } catch (error) {
        if ((error as { code?: string }).code !== 'functions/task-already-exists') throw error;
      }
    },
  };
}
