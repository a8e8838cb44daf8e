/**
 * A deployment that names its own runtime service account (`RUNTIME_SERVICE_ACCOUNT` in
 * `functions/.env.<project>`, read when `firebase deploy` loads the entry file) runs every
 * function as it, so that account's roles are all the functions can do, and only it may queue
 * tasks and call the task workers (docs/deployment.md).
 * Its own file, because the entry file reads the setting once, when it is first imported.
 */
import { describe, expect, it, vi } from 'vitest';
import { deployedEndpoints } from '../support/deployed-endpoints.ts';

const account = 'evident-runtime@your-project-id.iam.gserviceaccount.com';
vi.stubEnv('RUNTIME_SERVICE_ACCOUNT', account);

describe('RUNTIME_SERVICE_ACCOUNT', () => {
  it('is the service account of every function', async () => {
    const accounts = Object.values(await deployedEndpoints()).map((endpoint) => endpoint['serviceAccountEmail']);
    expect(accounts).toEqual(Array.from({ length: 26 }, () => account));
  });

  it('is the only caller of the task queues, which the deploy lets queue tasks and call the workers', async () => {
    const endpoints = await deployedEndpoints();
    const invokers = Object.entries(endpoints).flatMap(([name, endpoint]) => {
      const trigger = endpoint['taskQueueTrigger'] as { invoker?: unknown } | undefined;
      return trigger ? [[name, trigger.invoker]] : [];
    });
    expect(invokers).toEqual([
      ['analysisWorker', [account]],
      ['auditPackageWorker', [account]],
      ['connectorWorker', [account]],
      ['deliverWebhook', [account]],
    ]);
  });
});
