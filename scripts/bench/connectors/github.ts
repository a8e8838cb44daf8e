/**
 * The GitHub connector's bench: one collection of an organisation of 2,000 repositories, through
 * the built connector (functions/lib, after `node scripts/build.ts`) and octokit, against the
 * GitHub stand-in charging 50 ms a call. The stand-in runs here; the collection runs in a child
 * process, so its peak memory is the connector's alone.
 *
 * - `minimumCalls` is the fewest calls GitHub's API allows (fewestCalls in the stand-in's
 *   fixture): the repositories and the two organisation-wide alert listings at 100 a page, the
 *   API's largest; then three calls per unarchived repository (its default branch's protection,
 *   its branch rules, its environments: no single call returns them for more than one
 *   repository), and for a repository deploying to production two more (whether Dependabot alerts
 *   are on, its latest code scanning analysis), its workflow listing at 100 a page (one page for
 *   all but every 400th repository, which has 102 workflows: two) and one per production
 *   environment restricted to named branches (its branch policies).
 * - `concurrency` is 10: octokit's throttling plugin queues a client's REST calls ten in flight
 *   at most (@octokit/plugin-throttling 11, its `global` group's `maxConcurrent: 10`), well under
 *   GitHub's own bound, "No more than 100 concurrent requests are allowed" (docs.github.com, REST
 *   API, "Rate limits for the REST API", about secondary rate limits).
 *
 *   node scripts/build.ts && node scripts/bench/connectors/github.ts
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type * as CollectModule from '../../../functions/src/connectors/github/collect-github.ts';
import { compiled } from '../../lib/compiled.ts';
import { buildFixture, fewestCalls, fixtureToday } from '../../../test/stand-ins/github/fixture.ts';
import { startGitHubStandIn } from '../../../test/stand-ins/github/github-stand-in.ts';
import type { ConnectorBenchFigures } from './figures.ts';
import { instanceExecArgv } from './instance.ts';
import { ownPeakRssMiB } from '../peak-memory.ts';

const repositories = 2_000;
const latencyMs = 50;
const concurrency = 10;
const token = 'github_pat_bench0stand0in0token';
/**
 * The memory of the instance the collection runs in: the bench's bound. Node gives the old
 * generation a quarter of an instance's memory (as in a Cloud Run instance; see
 * groups/daily-memory.ts), so the child gets that heap: without it V8 would let garbage grow
 * towards the bench machine's much larger default before collecting it.
 */

interface ChildFigures {
  subjects: number;
  items: number;
  wallMs: number;
  peakRssMiB: number;
  failure?: string;
}

/** In the child: collects everything from the stand-in at `origin` and reports what it took. */
async function collectIn(origin: string): Promise<ChildFigures> {
  const { collector } = await compiled<typeof CollectModule>('connectors/github/collect-github.js');
  const subjects = new Set<string>();
  let items = 0;
  const started = performance.now();
  const context = {
    settings: { organization: 'acme', baseUrl: origin },
    secrets: { GITHUB_CREDENTIAL: token },
    signal: new AbortController().signal,
    progress: { called: () => {}, rateLimited: () => {} },
    now: () => new Date(fixtureToday),
  };
  for await (const item of collector.collect(context)) {
    items++;
    subjects.add(item.subject);
  }
  const wallMs = Math.round(performance.now() - started);
  return { subjects: subjects.size, items, wallMs, peakRssMiB: Math.round(ownPeakRssMiB()) };
}

function inChild(origin: string): Promise<ChildFigures> {
  const child = fork(fileURLToPath(import.meta.url), ['--collect', origin], {
    execArgv: [...process.execArgv, ...instanceExecArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (figures) => resolve(figures as ChildFigures));
    child.once('exit', (code) => reject(new Error(`the collection ended (${code}) without its figures`)));
  });
}

export async function measure(): Promise<ConnectorBenchFigures> {
  const fixture = buildFixture(repositories);
  const standIn = await startGitHubStandIn({ fixture, token, latencyMs });
  try {
    const figures = await inChild(standIn.origin);
    if (figures.failure !== undefined) throw new Error(`the collection failed: ${figures.failure}`);
    if (standIn.violations.length > 0) throw new Error(`the connector broke GitHub's description: ${standIn.violations[0]}`);
    return {
      connector: 'github',
      subjects: figures.subjects,
      items: figures.items,
      calls: standIn.calls,
      minimumCalls: fewestCalls(fixture),
      concurrency,
      latencyMs,
      wallMs: figures.wallMs,
      peakRssMiB: figures.peakRssMiB,
    };
  } finally {
    await standIn.close();
  }
}

if (import.meta.main) {
  const at = process.argv.indexOf('--collect');
  if (at >= 0) {
    const origin = process.argv[at + 1] ?? '';
    const figures = await collectIn(origin).catch((error: unknown) => ({
      subjects: 0,
      items: 0,
      wallMs: 0,
      peakRssMiB: 0,
      failure: String(error),
    }));
    process.send?.(figures, () => process.exit(0));
  } else {
    const figures = await measure();
    const wallTarget = Math.round((1.2 * figures.calls * figures.latencyMs) / figures.concurrency);
    console.log(JSON.stringify({ ...figures, callsTarget: Math.floor(figures.minimumCalls * 1.05), wallTarget }, null, 2));
  }
}
