/**
 * Warm throughput of one function against two baselines answering exactly its bytes: a
 * hello-world function on the same runtime (functions-framework, the ceiling any Cloud Function
 * can reach, and the target's yardstick) that replays the function's answers, checked to be the
 * same status, headers and body, at the same path; and a bare `node:http` server answering the
 * same body (printed for context).
 *
 * The function and its hello-world run side by side and are loaded in turns, several rounds,
 * so a machine that slows down part-way slows both; each figure is the median of its rounds.
 * Beside requests/s it reports each server's CPU time per request (from /proc on Linux), which
 * a busy machine disturbs far less than throughput: the per-request cost the ratio comes from.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startBareServer, startFunction, stop, waitFor200, work, writeReplayingHello, type Target } from './functions-host.ts';
import { differenceBetween, headerOf, recordAnswer, type RecordedAnswer } from './recorded-answer.ts';
import type { Comparison } from './comparison.ts';
import { withLoadPinned } from './cpu-pinning.ts';
import { median } from './median.ts';

export interface SameBytesThroughput {
  /** Requests/s of the function, of a hello-world function and of node:http, all answering the same bytes. */
  function: number;
  helloWorld: number;
  nodeHttp: number;
  /** CPU microseconds per request of the function and of the hello-world, when /proc tells. */
  cpuMicros?: { function: number; helloWorld: number };
}

const rounds = 5;
const connections = 50;

/** What one load of `url` gives: requests/s, and the server's CPU time per request. */
async function load(url: string, seconds: number, server: ChildProcess, headers: Record<string, string>, status: 200 | 304) {
  const cpuBefore = cpuMicros(server);
  const result = await autocannon({ url, headers, connections, duration: seconds });
  const cpuAfter = cpuMicros(server);
  const expected = status === 304 ? result['3xx'] : result['2xx'];
  const unexpected = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'] - expected;
  if (unexpected > 0 || result.errors > 0)
    throw new Error(`${url}: ${unexpected} responses other than ${status}, ${result.errors} errors under load`);
  const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / result.requests.total : undefined;
  return { perSecond: result.requests.average, cpu };
}

/** User and system CPU time a process has used, in microseconds (Linux /proc; undefined elsewhere). */
function cpuMicros(child: ChildProcess): number | undefined {
  const file = `/proc/${child.pid}/stat`;
  if (!existsSync(file)) return undefined;
  const stat = readFileSync(file, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100; // USER_HZ, 100 on every Linux Node supports
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
}

/**
 * Measures `target` at `port` against its hello-world at `port + 1` and node:http at `port + 2`,
 * for `seconds` of load each in all, in rounds of at least a second. `conditional` revalidates:
 * both are sent the function's ETag (the hello-world sends it too) and must answer 304. The
 * servers run on one CPU and autocannon on another where the machine allows (cpu-pinning.ts).
 */
export function sameBytesThroughput(target: Target, port: number, options: SameBytesOptions): Promise<SameBytesThroughput> {
  return withLoadPinned(() => measure(target, port, options));
}

interface SameBytesOptions {
  seconds: number;
  conditional?: boolean;
  showRounds?: boolean;
}

type Run = Awaited<ReturnType<typeof load>>;

/** The function under load: its server and URL, and the answers it gave (200, and 304 to its ETag when revalidating). */
interface RecordedFunction {
  server: ChildProcess;
  url: string;
  ok: RecordedAnswer;
  notModified: RecordedAnswer | undefined;
  /** What every request sends: the function's ETag when revalidating. */
  headers: Record<string, string>;
}

async function measure(
  target: Target,
  port: number,
  { seconds, conditional = false, showRounds = false }: SameBytesOptions,
): Promise<SameBytesThroughput> {
  const status = conditional ? 304 : 200;
  const servers: ChildProcess[] = [];
  try {
    const fn = await startRecorded(target, port, conditional, servers);
    const hello = await startReplayingHello(target, port + 1, fn, servers);

    // Warm both (JIT, caches), not counted; then alternate, starting with each in turn.
    await load(fn.url, 2, fn.server, fn.headers, status);
    await load(hello.url, 2, hello.server, fn.headers, status);
    const each = Math.max(1, Math.round(seconds / rounds));
    const fnRounds: Run[] = [];
    const helloRounds: Run[] = [];
    for (let round = 0; round < rounds; round++) {
      const fnFirst = round % 2 === 0;
      if (fnFirst) fnRounds.push(await load(fn.url, each, fn.server, fn.headers, status));
      helloRounds.push(await load(hello.url, each, hello.server, fn.headers, status));
      if (!fnFirst) fnRounds.push(await load(fn.url, each, fn.server, fn.headers, status));
      if (showRounds) showRound(target, round, fnRounds.at(-1)!, helloRounds.at(-1)!);
    }
    const nodeHttp = await bareThroughput(target, port + 2, fn.ok, { conditional, each }, servers);

    const cpu = (runs: Run[]) => (runs.every((run) => run.cpu !== undefined) ? median(runs.map((run) => run.cpu!)) : undefined);
    const [fnCpu, helloCpu] = [cpu(fnRounds), cpu(helloRounds)];
    return {
      function: median(fnRounds.map((run) => run.perSecond)),
      helloWorld: median(helloRounds.map((run) => run.perSecond)),
      nodeHttp,
      ...(fnCpu !== undefined && helloCpu !== undefined ? { cpuMicros: { function: fnCpu, helloWorld: helloCpu } } : {}),
    };
  } finally {
    await Promise.all(servers.map(stop));
  }
}

/** Starts the function (added to `servers`) and records its answer, and its 304 to its own ETag when `conditional`. */
async function startRecorded(
  target: Target,
  port: number,
  conditional: boolean,
  servers: ChildProcess[],
): Promise<RecordedFunction> {
  const server = startFunction(target, port, { pinned: true });
  servers.push(server);
  const url = `http://127.0.0.1:${port}${target.path}`;
  await waitFor200(url, performance.now() + 20_000);
  const ok = await recordAnswer(url);
  const etag = headerOf(ok, 'etag');
  if (conditional && !etag) throw new Error(`${url} sent no ETag`);
  // The hello-world sends the function's own ETag, so one revalidation header serves both.
  const headers: Record<string, string> = conditional ? { 'If-None-Match': etag! } : {};
  const notModified = conditional ? await recordAnswer(url, headers) : undefined;
  if (notModified && notModified.status !== 304) throw new Error(`${url} answered its own ETag ${notModified.status}`);
  return { server, url, ok, notModified, headers };
}

/** Starts the hello-world that replays the function's answers (added to `servers`), checked to answer the same bytes. */
async function startReplayingHello(
  target: Target,
  port: number,
  fn: RecordedFunction,
  servers: ChildProcess[],
): Promise<{ server: ChildProcess; url: string }> {
  const server = startFunction(
    {
      name: `hello-${target.name}`,
      source: writeReplayingHello(`hello-${target.name}`, fn.ok, fn.notModified),
      target: 'hello',
      path: target.path,
    },
    port,
    { pinned: true },
  );
  servers.push(server);
  // At the function's own path: the runtime's router matches the path against its pattern on
  // every request, at a cost that grows with the path (~4 µs for /api/report/today over /).
  const url = `http://127.0.0.1:${port}${target.path}`;
  await waitFor200(url, performance.now() + 20_000);
  const replays: [RecordedAnswer, Record<string, string>][] = [[fn.ok, {}]];
  if (fn.notModified) replays.push([fn.notModified, fn.headers]);
  for (const [original, sent] of replays) {
    const difference = differenceBetween(original, await recordAnswer(url, sent));
    if (difference) throw new Error(`the hello-world for ${target.name} does not answer the same bytes: ${difference}`);
  }
  return { server, url };
}

function showRound(target: Target, round: number, fnRun: Run, helloRun: Run): void {
  const cpu = (run: Run) => (run.cpu === undefined ? '' : ` ${Math.round(run.cpu)} µs/request`);
  console.log(
    `    round ${round + 1}: ${target.name} ${Math.round(fnRun.perSecond)} req/s${cpu(fnRun)}, hello-world ${Math.round(helloRun.perSecond)} req/s${cpu(helloRun)}`,
  );
}

/** Requests/s of a bare node:http server (added to `servers`) answering the function's body, warmed, over one round. */
async function bareThroughput(
  target: Target,
  port: number,
  ok: RecordedAnswer,
  { conditional, each }: { conditional: boolean; each: number },
  servers: ChildProcess[],
): Promise<number> {
  const status = conditional ? 304 : 200;
  const bodyFile = join(work, `${target.name}.body`);
  writeFileSync(bodyFile, ok.body);
  const contentType = headerOf(ok, 'content-type') ?? 'application/json';
  const bare = await startBareServer(port, contentType, bodyFile, { status: conditional ? '304' : '200', pinned: true });
  servers.push(bare);
  const url = `http://127.0.0.1:${port}${target.path}`;
  await load(url, 2, bare, {}, status);
  return (await load(url, each, bare, {}, status)).perSecond;
}

/**
 * The rows a same-bytes measurement prints: requests/s against the hello-world (the target the
 * issue sets, ≥ 0.85×) and, for context, against node:http and as CPU time per request.
 */
export function sameBytesRows(figure: string, result: SameBytesThroughput): Comparison[] {
  const rows: Comparison[] = [
    {
      figure: `requests/s: ${figure}`,
      measured: result.function,
      baselineName: 'hello-world, same bytes',
      baseline: result.helloWorld,
      unit: 'req/s',
      target: { atLeast: 0.85 },
    },
    {
      figure: `requests/s: ${figure}`,
      measured: result.function,
      baselineName: 'node:http, same bytes',
      baseline: result.nodeHttp,
      unit: 'req/s',
    },
  ];
  if (result.cpuMicros)
    rows.push({
      figure: `CPU per request: ${figure}`,
      measured: result.cpuMicros.function,
      baselineName: 'hello-world',
      baseline: result.cpuMicros.helloWorld,
      unit: 'µs',
    });
  return rows;
}
