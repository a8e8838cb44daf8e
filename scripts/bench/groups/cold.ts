/**
 * Cold start: process spawn to first 200, median of several interleaved runs, of every route
 * family's function against a hello-world function built with the same SDK. Each family answers
 * one cheap request its first user would make, on a store seeded with the demo data, so the
 * figure is what loading that family (and its first read) costs, not what a heavy request does.
 */
import { paths } from '../../lib/paths.ts';
import { resetStore, seedDemo } from '../../lib/seed-demo.ts';
import type { Comparison } from '../comparison.ts';
import { benchStore, coldStart, type Target } from '../functions-host.ts';
import type { BenchGroup } from '../group.ts';
import { median } from '../median.ts';

const family = (target: string, path: string, request?: RequestInit): Target => ({
  name: target,
  source: paths.functions,
  target,
  path,
  ...(request ? { request } : {}),
});

/** One request per family (the fallback answers only 404s, so it has none). */
export function familyProbes(today: string): Target[] {
  return [
    family('auth', '/api/auth/config'),
    family('docs', '/api/docs/page/getting-started'),
    family('report', '/api/report/today'),
    family('controls', '/api/controls'),
    family('frameworks', '/api/frameworks'),
    family('exceptions', '/api/exceptions'),
    family('audit', `/api/audit/package?from=${today}&to=${today}`),
    family('evidence', '/api/evidence?limit=1'),
    family('submissions', '/api/submissions?limit=1'),
    family('analyses', '/api/analyses?limit=1'),
    family('webhooks', '/api/webhooks'),
    family('chat', '/api/chat', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'What is our score today?' }),
    }),
    family('runs', '/api/runs/sources?limit=1'),
    family('connectors', '/api/connectors'),
    family('settings', '/api/settings'),
    family('requests', '/api/requests'),
    // What an assistant sends first: the MCP handshake.
    family('mcp', '/api/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      }),
    }),
  ];
}

export const coldGroup: BenchGroup = {
  name: 'cold',
  heading: ({ runs }) => `Cold start of every family on demo data, ${runs} runs each, interleaved`,
  async measure({ options, hello }) {
    const today = new Date().toISOString().slice(0, 10);
    await resetStore(benchStore);
    await seedDemo({ storeDir: benchStore, today, timeZone: 'UTC' });
    const targets = [hello, ...familyProbes(today)];
    const times = new Map<string, number[]>(targets.map((target) => [target.name, []]));
    for (let run = 0; run < options.runs; run++) {
      for (const target of targets) times.get(target.name)!.push(await coldStart(target, 18100));
    }
    const baseline = median(times.get(hello.name)!);
    return targets.slice(1).map((target): Comparison => ({
      figure: `cold start: ${target.name} (${target.request?.method ?? 'GET'} ${target.path.split('?')[0]})`,
      measured: median(times.get(target.name)!),
      baselineName: 'hello-world',
      baseline,
      unit: 'ms',
      target: { atMost: 1.3 },
    }));
  },
};
