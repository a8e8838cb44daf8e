/**
 * The Cloud Asset Inventory stand-in in a process of its own, for the bench: the connector's
 * process then measures its own memory and CPU only. `startStandInProcess` forks this module,
 * which builds the organisation of the given sizes, serves it, and on `stop` reports what it
 * counted and exits.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fixtureAssets, type FixtureSizes } from './asset-fixture.ts';
import { AssetServiceStandIn } from './asset-service-stand-in.ts';

interface ServeRequest {
  sizes: FixtureSizes;
  token: string;
  latencyMs: number;
}

export interface StandInCounts {
  calls: number;
  peakInFlight: number;
  violations: string[];
}

export interface StandInProcess {
  endpoint: string;
  /** Stops the server and the process, and answers what it counted. */
  stop(): Promise<StandInCounts>;
}

export async function startStandInProcess(request: ServeRequest): Promise<StandInProcess> {
  const child = fork(fileURLToPath(import.meta.url), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const answer = <T>() =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (message) => resolve(message as T));
      child.once('exit', (code) => reject(new Error(`The stand-in process exited (${code}).`)));
    });
  const started = answer<{ endpoint: string }>();
  child.send(request);
  const { endpoint } = await started;
  return {
    endpoint,
    async stop() {
      const counts = answer<StandInCounts>();
      child.send('stop');
      return counts;
    },
  };
}

if (import.meta.main && process.send) {
  process.once('message', async (request: ServeRequest) => {
    const standIn = await new AssetServiceStandIn({
      assets: fixtureAssets(request.sizes),
      token: request.token,
      latencyMs: request.latencyMs,
    }).start();
    process.send!({ endpoint: standIn.endpoint });
    process.once('message', async () => {
      await standIn.stop();
      process.send!({ calls: standIn.calls, peakInFlight: standIn.peakInFlight, violations: standIn.violations }, () =>
        process.exit(0),
      );
    });
  });
}
