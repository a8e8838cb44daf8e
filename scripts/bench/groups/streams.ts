/**
 * Streams: 50 clients follow one analysis run through the `analyses` function while its events
 * are persisted, beside a bare node:http SSE server fed from memory.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { paths } from '../../lib/paths.ts';
import { resetStore } from '../../lib/seed-demo.ts';
import { benchStore, env, startFunction, waitFor200 } from '../functions-host.ts';
import type { BenchGroup } from '../group.ts';
import { benchRun, followRun, type StreamTarget } from '../streams.ts';

/** The SSE baseline: `bare-sse-server.ts` sends whatever is posted to `/emit` to every client. */
const bareSse: StreamTarget = {
  name: 'node:http SSE',
  start: () =>
    spawn(process.execPath, [join(import.meta.dirname, '..', 'bare-sse-server.ts'), '18401'], { env, stdio: 'ignore' }),
  eventsUrl: () => 'http://127.0.0.1:18401/',
  emit: async (event) => {
    await (await fetch('http://127.0.0.1:18401/emit', { method: 'POST', body: JSON.stringify(event) })).arrayBuffer();
  },
  ready: async () => {
    for (const deadline = performance.now() + 10_000; performance.now() < deadline;) {
      try {
        await (await fetch('http://127.0.0.1:18401/emit', { method: 'POST', body: '{"id":0,"type":"ping"}' })).arrayBuffer();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    throw new Error('the bare SSE server did not start');
  },
};

export const streamsGroup: BenchGroup = {
  name: 'streams',
  heading: () => 'Streams: 50 clients follow one run, 200 events persisted 20 ms apart',
  async measure() {
    await resetStore(benchStore);
    const options = { clients: 50, events: 200, intervalMs: 20 };
    const run = await benchRun(benchStore);
    const analyses: StreamTarget = {
      name: 'analyses function',
      start: () => startFunction({ name: 'analyses', source: paths.functions, target: 'analyses', path: '/' }, 18400),
      eventsUrl: (runId) => `http://127.0.0.1:18400/api/analyses/${runId}/events`,
      emit: run.emit,
      ready: (runId) => waitFor200(`http://127.0.0.1:18400/api/analyses/${runId}`, performance.now() + 20_000),
    };
    const baseline = await followRun(bareSse, 'bench', options);
    const measured = await followRun(analyses, run.runId, options);
    return [
      {
        figure: 'stream delay: event persisted → client (median)',
        measured: measured.medianDelayMs,
        baselineName: 'node:http SSE from memory',
        baseline: baseline.medianDelayMs,
        unit: 'ms',
        target: { withinMs: 1000 },
      },
      {
        figure: 'stream: clients that got every event once, in order',
        measured: measured.clientsWithEveryEvent,
        baselineName: 'clients',
        baseline: options.clients,
        unit: 'clients',
        target: { atLeast: 1 },
      },
      {
        figure: 'stream: memory per open stream (RSS)',
        measured: measured.memoryPerStreamKiB,
        baselineName: 'node:http SSE',
        baseline: baseline.memoryPerStreamKiB,
        unit: 'KiB',
      },
    ];
  },
};
