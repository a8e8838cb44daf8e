/**
 * Every deployed function says how much memory and time it gets (functions/src/index.ts): left
 * to the platform's default, the daily job got 256 MiB and died on an adversary's evidence.
 */
import { describe, expect, it } from 'vitest';
import { functionsRegion } from '../../functions/src/config.ts';
import { deployedEndpoints } from '../support/deployed-endpoints.ts';

describe('the functions', () => {
  it('each set their memory and timeout, those that hold the evidence state 2 GiB', async () => {
    const endpoints = await deployedEndpoints();
    const options = Object.fromEntries(
      Object.entries(endpoints).map(([name, endpoint]) => [name, [endpoint['availableMemoryMb'], endpoint['timeoutSeconds']]]),
    );
    expect(options).toEqual({
      auth: [256, 60],
      docs: [256, 60],
      report: [2048, 60],
      controls: [256, 60],
      frameworks: [256, 60],
      exceptions: [256, 60],
      audit: [512, 540],
      requests: [256, 60],
      evidence: [512, 60],
      runs: [512, 60],
      submissions: [512, 60],
      analyses: [256, 60],
      webhooks: [256, 60],
      chat: [512, 60],
      mcp: [512, 60],
      settings: [256, 60],
      connectors: [256, 60],
      analysisWorker: [2048, 540],
      auditPackageWorker: [1024, 540],
      connectorWorker: [512, 1800],
      connectorSchedule: [256, 60],
      deliverWebhook: [256, 60],
      dailyReport: [2048, 540],
      fallback: [256, 60],
      beforeCreate: [256, 7],
      beforeSignIn: [256, 7],
    });
  });

  it("each run in the functions' region, as the project's default service account unless the deployment names one", async () => {
    const endpoints = Object.values(await deployedEndpoints());
    expect(endpoints.length).toBe(26);
    for (const endpoint of endpoints) {
      expect(endpoint['region']).toEqual([functionsRegion]);
      // No account named: firebase-functions marks the option reset, so the platform's default applies.
      expect(typeof endpoint['serviceAccountEmail']).not.toBe('string');
      expect(endpoint['taskQueueTrigger'] ?? {}).not.toHaveProperty('invoker');
    }
  });
});
