/**
 * The Okta connector's bench: a whole collection of 5,000 users against the Okta stand-in charging
 * 50 ms a call, through the built connector (functions/lib, after `node scripts/build.ts`).
 *
 * The fewest calls Okta's API allows: one page per 200 users (List Users' largest `limit`), one
 * List Factors per user (Okta lists factors only per user), the administrators' listing (100 a
 * page by default), the PASSWORD and OKTA_SIGN_ON policy listings, the rules of each active
 * global session policy, and the active apps (200 a page). The concurrency is the connector's
 * own, 10: Okta's org-wide limit is 75 simultaneous requests (Workforce Identity), shared with
 * every sign-in, and Okta notes that bulk loads rarely need more than 10 (see collect-okta.ts).
 * The collection runs in a child process, so its peak RSS is the connector's alone, not the stand-in's.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type * as CollectOktaModule from '../../../functions/src/connectors/okta/collect-okta.ts';
import { startOktaStandIn } from '../../../test/stand-ins/okta/okta-stand-in.ts';
import { compiled } from '../../lib/compiled.ts';
import type { ConnectorBenchFigures } from './figures.ts';
import { instanceExecArgv } from './instance.ts';
import { ownPeakRssMiB } from '../peak-memory.ts';

const subjects = 5_000;
const latencyMs = 50;
const rolesPageSize = 100;
const appsPageSize = 200;

interface Collected {
  items: number;
  wallMs: number;
  peakRssMiB: number;
}

/** In the child: the whole collection against the stand-in at `orgUrl`, its users counted. */
async function collect(orgUrl: string, token: string): Promise<Collected> {
  const { collector } = await compiled<typeof CollectOktaModule>('connectors/okta/collect-okta.js');
  let items = 0;
  const started = performance.now();
  for await (const item of collector.collect({
    settings: { orgUrl },
    secrets: { OKTA_CREDENTIAL: token },
    signal: new AbortController().signal,
    progress: { called: () => {}, rateLimited: () => {} },
    now: () => new Date(),
  })) {
    if (item.kind === 'idp.user') items++;
  }
  const wallMs = Math.round(performance.now() - started);
  return { items, wallMs, peakRssMiB: Math.round(ownPeakRssMiB()) };
}

export async function measure(): Promise<ConnectorBenchFigures> {
  const { oktaConcurrency, usersPageSize } = await compiled<typeof CollectOktaModule>('connectors/okta/collect-okta.js');
  const standIn = await startOktaStandIn({ users: subjects, latencyMs });
  try {
    const { org } = standIn;
    const activeSignOnPolicies = org.policies.filter(
      (policy) => policy.type === 'OKTA_SIGN_ON' && policy.status === 'ACTIVE',
    ).length;
    const activeApps = org.apps.filter((app) => app.status === 'ACTIVE').length;
    const minimumCalls =
      Math.ceil(subjects / usersPageSize) +
      subjects +
      Math.ceil(org.adminIds.length / rolesPageSize) +
      2 +
      activeSignOnPolicies +
      Math.ceil(activeApps / appsPageSize);
    const child = await promisify(execFile)(process.execPath, [
      ...instanceExecArgv,
      fileURLToPath(import.meta.url),
      '--collect',
      standIn.url,
      standIn.token,
    ]);
    const { items, wallMs, peakRssMiB } = JSON.parse(child.stdout) as Collected;
    if (standIn.violations.length > 0)
      throw new Error(`The Okta stand-in saw violations: ${standIn.violations.slice(0, 3).join('; ')}`);
    return {
      connector: 'okta',
      subjects,
      items,
      calls: standIn.calls,
      minimumCalls,
      concurrency: oktaConcurrency,
      latencyMs,
      wallMs,
      peakRssMiB,
    };
  } finally {
    await standIn.close();
  }
}

if (import.meta.main) {
  const [mode, orgUrl, token] = process.argv.slice(2);
  console.log(JSON.stringify(mode === '--collect' ? await collect(orgUrl!, token!) : await measure(), null, 2));
}
