/**
 * `npm run bench`: how fast the auth-config and docs functions start and serve, each figure
 * beside a baseline measured in the same run on the same machine, so the ratio means something
 * on a noisy one. Served as production serves them: functions-framework with `--target` on the
 * built functions.
 *
 * - cold start: process spawn to first 200 of every family's function on demo data, median of
 *   several runs, against a hello-world `onRequest` function built with the same SDK (target: ≤ 1.3×);
 * - warm throughput: requests/s with autocannon (50 connections) against a hello-world function
 *   returning the same bytes on the same runtime (target: ≥ 0.85×), for the auth config, a docs
 *   page, and today's report both as a 200 and as a 304 revalidation (on a store seeded with demo
 *   data); node:http with the same bytes and CPU time per request printed beside it. See
 *   scripts/bench/same-bytes.ts.
 * - evaluation: 500 controls over 100,000 evidence items (target: ≤ 3 s on this machine), beside
 *   parsing the same evidence from JSON; and how the time grows from 10,000 to 100,000 items
 *   (target: ≤ 11×). See scripts/bench/evaluation.ts for the data.
 *
 *   npm run bench                    all figures
 *   npm run bench -- --runs 5 --seconds 5   fewer cold starts, shorter loads
 * - web: the JavaScript the dashboard loads for its first view in public mode (target: ≤ 60 KB
 *   gzip), beside a hello-world Svelte app; and the dashboard's Largest Contentful Paint in
 *   headless Chromium against the emulators (target: ≤ 1 s), beside the same page as static HTML
 *   from node:http. See scripts/bench/web-probe.ts.
 *
 * - storage: the daily run and the first page of the evidence listing over 30 and 365 days of
 *   history (5,000 subjects a day) on a store that charges 25 ms a call, 100 in flight: object
 *   reads (target: ≤ new items + 50 for the run, ≤ 25 for a page), simulated time (≤ 30 s,
 *   ≤ 1 s) and the run's peak memory (≤ 256 MiB), beside the design before partitions measured
 *   the same way (at 30 days; `--full` at 365 too), and the growth from 30 to 365 days (≤ 1.2×).
 *   See scripts/bench/storage.ts.
 * - history: a control over 365 days on the same latency-injecting store: object calls and
 *   simulated time beside reading the same objects bare. See scripts/bench/groups/history.ts.
 * - audit: a year's audit package (365 real daily runs, 91,250 evidence items) built as the
 *   worker builds it, on the same store in a process with the worker's heap: object requests
 *   (≤ the bare reads + one listing a day), simulated time (≤ 540 s), peak RSS (≤ 512 MiB); and
 *   `npm run verify-audit` over it beside the engine evaluating the same days (≤ 2×). See
 *   scripts/bench/groups/audit.ts.
 * - populations: on the same store, a collection run of 5,000 subjects (opened, sent in batches of
 *   500, completed) beside ingesting the same batches without a run (target: a few calls a batch
 *   more, none a subject); a page of a control's population of 50,000 subjects beside reading one
 *   report (≤ 25 reads); and a sample of 60 days of a daily control over 365 days of reports
 *   beside listing them (≤ 400 reads). See scripts/bench/groups/populations.ts.
 * - body bombs: the peak memory a gzip bomb and 30 MB of JSON cost a function in protected mode
 *   (target: under 64 MiB each), beside a hello-world function whose runtime parses them unguarded.
 * - ocsf: importing a 50,000-finding Prowler `json-ocsf` scan (about 200 MB) into evidence items,
 *   streamed one finding at a time, no network or store: its time (target: ≤ 2× that of
 *   `JSON.parse` of the file and one walk, i.e. at least half its findings/s) and its peak heap
 *   (target: ≤ 0.5× the parse's), each in a fresh process. See scripts/bench/groups/ocsf-import.ts.
 *
 * - daily-memory: the daily job and today's first read on a store an adversary filled (6,000
 *   scanner items of 48 KB), each function served with the heap its instance's memory gives it:
 *   its answer (target: 200), peak RSS (within the instance) and live heap (≤ half the heap); and
 *   what the OCSF import of one finding naming 6,000 resources stores. See
 *   scripts/bench/groups/daily-memory.ts.
 *
 * - connectors: each built-in connector against its vendor's stand-in charging 50 ms a call (5,000
 *   users, 2,000 repositories, 20,000 assets): its calls beside the fewest the API allows (≤ 1.05×),
 *   its wall time beside calls × 50 ms ÷ the concurrency the vendor allows (≤ 1.2×) and its peak
 *   RSS (≤ 256 MiB), each in a process of its own. See scripts/bench/groups/connectors.ts.
 *
 *   npm run bench -- --only evaluation      one group: cold, throughput, report, evaluation, streams, chat, web, storage, history, audit, populations, connectors, body-bombs, ocsf, daily-memory
 *   npm run bench -- --only storage --storage-days 30,365 --full
 *
 * Each group is a module of scripts/bench/groups/; this file runs the wanted ones in order and
 * prints their figures as one table.
 */
import { build, localIdentity } from './build.ts';
import { printComparisons, type Comparison } from './bench/comparison.ts';
import { writeHelloWorld } from './bench/functions-host.ts';
import type { BenchContext, BenchGroup } from './bench/group.ts';
import { auditGroup } from './bench/groups/audit.ts';
import { bodyBombsGroup } from './bench/groups/body-bombs.ts';
import { chatGroup } from './bench/groups/chat.ts';
import { coldGroup } from './bench/groups/cold.ts';
import { dailyMemoryGroup } from './bench/groups/daily-memory.ts';
import { evaluationGroup } from './bench/groups/evaluation.ts';
import { historyGroup } from './bench/groups/history.ts';
import { ocsfImportGroup } from './bench/groups/ocsf-import.ts';
import { populationsGroup } from './bench/groups/populations.ts';
import { connectorsGroup } from './bench/groups/connectors.ts';
import { reportGroup } from './bench/groups/report.ts';
import { storageGroup } from './bench/groups/storage.ts';
import { streamsGroup } from './bench/groups/streams.ts';
import { throughputGroup } from './bench/groups/throughput.ts';
import { webGroup } from './bench/groups/web.ts';
import { parseBenchOptions } from './bench/options.ts';
import { paths } from './lib/paths.ts';
import { step } from './lib/run.ts';

/** In the order they run, which is the order of the table. */
const groups: BenchGroup[] = [
  coldGroup,
  throughputGroup,
  reportGroup,
  evaluationGroup,
  streamsGroup,
  chatGroup,
  webGroup,
  storageGroup,
  historyGroup,
  auditGroup,
  populationsGroup,
  connectorsGroup,
  bodyBombsGroup,
  ocsfImportGroup,
  dailyMemoryGroup,
];

try {
  const options = parseBenchOptions(process.argv);
  // A mistyped group would otherwise build, run nothing and print an empty table.
  if (options.only !== undefined && !groups.some((group) => group.name === options.only)) {
    throw new Error(`--only ${options.only}: the groups are ${groups.map((group) => group.name).join(', ')}.`);
  }
  await step('Build', () => build({ identity: localIdentity }));
  const context: BenchContext = {
    options,
    hello: { name: 'hello-world', source: writeHelloWorld(), target: 'hello', path: '/' },
    authConfig: { name: 'auth', source: paths.functions, target: 'auth', path: '/api/auth/config' },
    docsPage: { name: 'docs', source: paths.functions, target: 'docs', path: '/api/docs/page/getting-started' },
  };
  const comparisons: Comparison[] = [];
  for (const group of groups) {
    if (options.only !== undefined && options.only !== group.name) continue;
    await step(group.heading(options), async () => {
      comparisons.push(...(await group.measure(context)));
    });
  }
  printComparisons(comparisons);
} catch (error) {
  console.error(`\n✗ ${(error as Error).message}`);
  process.exit(1);
}
