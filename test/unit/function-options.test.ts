/**
 * Every deployed function says how much memory and time it gets (functions/src/index.ts): left
 * to the platform's default, the daily job got 256 MiB and died on an adversary's evidence.
 */
import { describe, expect, it } from 'vitest';

describe('the functions', () => {
  it('each set their memory and timeout, those that hold the evidence state 2 GiB', async () => {
    const entry = (await import('../../functions/src/index.ts')) as unknown as Record<
      string,
      { __endpoint?: Record<string, unknown> }
    >;
    const options = Object.fromEntries(
      Object.entries(entry)
        .filter(([, exported]) => exported?.__endpoint)
        .map(([name, exported]) => [name, [exported.__endpoint!['availableMemoryMb'], exported.__endpoint!['timeoutSeconds']]]),
    );
    expect(options).toEqual({
      auth: [256, 60],
      docs: [256, 60],
      report: [2048, 60],
      controls: [256, 60],
      frameworks: [256, 60],
      exceptions: [256, 60],
      audit: [512, 540],
      evidence: [512, 60],
      submissions: [512, 60],
      analyses: [256, 60],
      webhooks: [256, 60],
      chat: [512, 60],
      analysisWorker: [2048, 540],
      deliverWebhook: [256, 60],
      dailyReport: [2048, 540],
      fallback: [256, 60],
      beforeCreate: [256, 7],
      beforeSignIn: [256, 7],
    });
  });
});
