/**
 * The Google Workspace connector's bench: the tenant's security policies and 5,000 users
 * collected against the stand-in of the Directory and Cloud Identity Policy APIs charging 50 ms
 * a call, in a child process of its own so its peak memory is its own.
 *
 * - minimumCalls: policies.list answers at most 100 policies a page (`pageSize`: "The maximum
 *   allowed value is 100") and the connector asks only for `settings/security.*` of the customer:
 *   ⌈5 ÷ 100⌉ = 1 call for the stand-in's top-level policies. users.list answers at most 500
 *   users a page (`maxResults` maximum in the discovery document) and every field the connector
 *   reads is on the listing, so no per-user call: ⌈5,000 ÷ 500⌉ = 10 calls. 11 in all.
 * - concurrency: 1. Each page is asked for with the `nextPageToken` of the page before it
 *   (https://developers.google.com/workspace/admin/directory/v1/guides/manage-users#get_all_users),
 *   so a listing cannot be read in parallel; the users wait for the policies, whose item comes first.
 * - wallMs: from the first call of collect to its last item, after an unmeasured warm-up run of
 *   the policies and two pages of users (both SDKs loaded and their code compiled, as in a process
 *   that has collected before).
 *
 * Reads the BUILT collector (functions/lib): run `node scripts/build.ts` first.
 * Directly: `node scripts/bench/connectors/google-workspace.ts`.
 */
import { fileURLToPath } from 'node:url';
import type { CollectContext, Collector } from '../../../functions/src/connectors/connector.ts';
import type * as CollectModule from '../../../functions/src/connectors/google-workspace/collect-google-workspace.ts';
import { startDirectoryStandIn, type DirectoryStandIn } from '../../../test/stand-ins/google-workspace/directory-stand-in.ts';
import { workspacePolicies } from '../../../test/stand-ins/google-workspace/workspace-policies.ts';
import { compiled } from '../../lib/compiled.ts';
import type { ConnectorBenchFigures } from './figures.ts';
import { figuresFromChild } from './instance.ts';
import { ownPeakRssMiB } from '../peak-memory.ts';

const subjects = 5_000;
const latencyMs = 50;
const pageSize = 500;
const policiesPageSize = 100;
const policies = workspacePolicies();
/** The policies the connector's filter asks for: the customer's `settings/security.*`. */
const securityPolicies = policies.filter((policy) => policy.setting?.type?.startsWith('settings/security.')).length;
const concurrency = 1;

const now = new Date('2026-11-20T12:00:00.000Z');

function contextFor(standIn: DirectoryStandIn): CollectContext {
  return {
    settings: { adminEmail: 'admin@example.com' },
    secrets: {},
    signal: new AbortController().signal,
    progress: { called: () => {}, rateLimited: () => {} },
    now: () => now,
    standIn: { endpoint: standIn.endpoint, token: standIn.token },
  };
}

/** Collects every item from `standIn`, and how many people there were. */
async function itemsFrom(collector: Collector, standIn: DirectoryStandIn): Promise<number> {
  let items = 0;
  let settings = 0;
  for await (const item of collector.collect(contextFor(standIn))) {
    if (item.kind === 'idp.user') items += 1;
    else if (item.kind === 'idp.settings') settings += 1;
  }
  if (settings !== 1) throw new Error(`Expected one idp.settings item, got ${settings}`);
  return items;
}

async function collectOnce(): Promise<ConnectorBenchFigures> {
  const { collector } = await compiled<typeof CollectModule>('connectors/google-workspace/collect-google-workspace.js');
  // One small run first, unmeasured, so the figures are the collect's and not the JIT's first page.
  const warmUp = await startDirectoryStandIn({ users: 2 * pageSize, now });
  await itemsFrom(collector, warmUp).finally(() => warmUp.close());
  const standIn = await startDirectoryStandIn({ users: subjects, policies, now, latencyMs });
  try {
    const started = performance.now();
    const items = await itemsFrom(collector, standIn);
    const wallMs = Math.round(performance.now() - started);
    if (standIn.violations.length > 0) throw new Error(`The stand-in saw violations: ${standIn.violations.join('; ')}`);
    return {
      connector: 'google-workspace',
      subjects,
      items,
      calls: standIn.calls,
      minimumCalls: Math.ceil(securityPolicies / policiesPageSize) + Math.ceil(subjects / pageSize),
      concurrency,
      latencyMs,
      wallMs,
      peakRssMiB: Math.round(ownPeakRssMiB()),
    };
  } finally {
    await standIn.close();
  }
}

/** Runs the scenario in a fresh Node process and reads the figures it prints. */
export function measure(): Promise<ConnectorBenchFigures> {
  return figuresFromChild(fileURLToPath(import.meta.url), 'Google Workspace');
}

if (import.meta.main) {
  if (process.argv.includes('--child')) process.stdout.write(JSON.stringify(await collectOnce()));
  else console.log(await measure());
}
