/**
 * The daily job's memory on a store an adversary filled (issue 29): each function served as
 * production serves it, functions-framework with `--target` on the built functions, in a process
 * of its own whose peak resident memory (Linux `VmHWM`) is read before and after the request.
 *
 * - the OCSF import of one finding that names 6,000 resources with 4,000-emoji title, message and
 *   remediation (a 135 KB request): its answer, and the bytes it added to the store;
 * - a store holding 6,000 `scanner.finding` items of 48 KB each, sent as ordinary batches of
 *   `POST /api/evidence` (what the import above stored before it was bounded): the peak memory
 *   of the daily job (`dailyReport`, as Cloud Scheduler calls it) and of today's first read
 *   (`GET /api/report/today` on the `report` function, which runs the same job), each beside the
 *   function's idle process, against the memory `functions/src/index.ts` gives the function.
 *
 * Node sizes its heap from the memory of the machine it runs on: in a Cloud Run instance, a
 * quarter of the instance's memory goes to the old generation. Each function here gets that heap
 * (`--max-old-space-size`), read from the memory the built entry file declares for it (the
 * platform's 256 MiB when it declares none), so a job that would run out of heap in production
 * runs out here too, and answers no 200. Its resident memory then says little (V8 lets garbage
 * fill the heap it is given before it collects), so the heap is read too, from `--trace-gc`: the
 * most it held, and the most that was still alive after a full collection.
 *
 *   npm run bench -- --only daily-memory
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { paths } from '../../lib/paths.ts';
import type { Comparison } from '../comparison.ts';
import { env, stop, work } from '../functions-host.ts';
import type { BenchGroup } from '../group.ts';

const resources = 6_000;
/** 4,000 code points of four UTF-8 bytes each: the longest text a finding kept. */
const emojiText = '\u{1F525}'.repeat(4_000);
/** Items per `POST /api/evidence`: 48 KB each, under its 4 MiB. */
const perRequest = 80;
const port = 18480;

/** The request: one finding, 6,000 cheap resources, three long texts. */
function amplifyingScan(now: Date): string {
  return JSON.stringify([
    {
      class_uid: 2004,
      metadata: { event_code: 's3_bucket_default_encryption', product: { name: 'Prowler' } },
      status_code: 'FAIL',
      severity: 'High',
      finding_info: { uid: 'bench-amplified', title: emojiText },
      status_detail: emojiText,
      remediation: { desc: emojiText },
      time: Math.floor(now.getTime() / 1000) - 3600,
      resources: Array.from({ length: resources }, (_, index) => ({ uid: `r${index}` })),
      unmapped: { compliance: { 'NIST-800-53-Revision-5': ['sc_28'] } },
    },
  ]);
}

/** The same items as the import used to store, as collectors may send them: 48 KB of `data` each. */
function volumeBatches(now: Date): string[] {
  const collectedAt = new Date(now.getTime() - 3_600_000).toISOString();
  const items = Array.from({ length: resources }, (_, index) => ({
    id: `bench-volume-${index}`,
    kind: 'scanner.finding',
    source: 'Prowler aws 123456789012',
    subject: `arn:aws:s3:::bench-bucket-${index}`,
    collectedAt,
    data: {
      check: 's3_bucket_default_encryption',
      status: 'FAIL',
      muted: false,
      severity: 'high',
      title: emojiText,
      message: emojiText,
      remediation: emojiText,
      product: 'Prowler',
      findingUid: `bench-volume-${index}`,
      requirements: { nist80053: ['sc-28'] },
    },
  }));
  const batches: string[] = [];
  for (let start = 0; start < items.length; start += perRequest) {
    batches.push(JSON.stringify({ items: items.slice(start, start + perRequest) }));
  }
  return batches;
}

/** The memory (MiB) each exported function declares, read from the built entry file in a process of its own. */
function declaredMemory(): Record<string, number> {
  const script = [
    `const entry = await import(${JSON.stringify(join(paths.functionsLib, 'index.js'))});`,
    // The platform's 256 MiB where a function declares none (the SDK then writes null or a reset value).
    "const memoryOf = (f) => (typeof f?.__endpoint?.availableMemoryMb === 'number' ? f.__endpoint.availableMemoryMb : 256);",
    'console.log(JSON.stringify(Object.fromEntries(Object.entries(entry).map(([name, f]) => [name, memoryOf(f)]))));',
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`reading the functions' memory failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
}

function serve(target: string, store: string, memoryMiB: number): ChildProcess {
  const node = [`--max-old-space-size=${memoryMiB / 4}`, '--trace-gc'];
  const framework = [`--target=${target}`, `--source=${paths.functions}`, `--port=${port}`];
  return spawn(process.execPath, [...node, paths.functionsFramework, ...framework], {
    env: { ...env, EVIDENT_STORE_DIR: store },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** The heap figures of `--trace-gc` lines (`Mark-Compact 176.7 (241.4) -> 149.4 (278.3) MB`): the most used, the most live after a full collection. */
function heapOf(trace: string): { peakMiB: number; liveMiB: number } {
  let peakMiB = 0;
  let liveMiB = 0;
  for (const [, kind, before, after] of trace.matchAll(
    /: (Scavenge|Mark-Compact|Minor Mark-Sweep)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \(/g,
  )) {
    peakMiB = Math.max(peakMiB, Number(before));
    if (kind === 'Mark-Compact') liveMiB = Math.max(liveMiB, Number(after));
  }
  return { peakMiB: (peakMiB * 1e6) / 2 ** 20, liveMiB: (liveMiB * 1e6) / 2 ** 20 };
}

/** Waits until the function accepts connections, without sending it a request (a GET would run the job). */
async function listening(child: ChildProcess): Promise<void> {
  const deadline = performance.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the function exited with ${child.exitCode} before listening`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(!!socket.end()));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (performance.now() > deadline) throw new Error('the function did not listen within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The process's peak resident memory so far; undefined once it is gone (a dying process has no `VmHWM`). */
function peakMiB(child: ChildProcess): number | undefined {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

interface Served {
  status: number;
  body: string;
  idleMiB: number;
  peakMiB: number;
  heap: { peakMiB: number; liveMiB: number };
}

/**
 * Serves `target` on `store` with its instance's heap, sends the requests one after another, and
 * reads the process's memory; status 0 when the process died answering (out of heap).
 */
async function measured(
  target: string,
  store: string,
  memoryMiB: number,
  requests: (() => Promise<Response>)[],
): Promise<Served> {
  const child = serve(target, store, memoryMiB);
  let trace = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (trace += text));
  try {
    await listening(child);
    const idleMiB = peakMiB(child)!;
    let status = 0;
    let body = '';
    let peak = idleMiB;
    for (const send of requests) {
      try {
        const answer = await send();
        [status, body] = [answer.status, await answer.text()];
      } catch (error) {
        [status, body] = [0, `the function died: ${(error as Error).message}`];
      }
      peak = peakMiB(child) ?? peak;
      if (status === 0 || status >= 500) break;
    }
    // Stopped here, and its output read to the end, so the last collections are counted.
    const drained = child.stdout!.readableEnded ? Promise.resolve() : once(child.stdout!, 'end');
    await stop(child);
    await drained;
    return { status, body: body.slice(0, 300), idleMiB, peakMiB: peak, heap: heapOf(trace) };
  } finally {
    await stop(child);
  }
}

const url = (path: string) => `http://127.0.0.1:${port}${path}`;
const post = (path: string, body: string) => () =>
  fetch(url(path), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

export const dailyMemoryGroup: BenchGroup = {
  name: 'daily-memory',
  heading: () =>
    `Daily job memory on an adversary's store: ${resources.toLocaleString('en')} items of 48 KB (a process per function)`,
  async measure() {
    const root = join(work, 'daily-memory');
    rmSync(root, { recursive: true, force: true });
    const [importStore, dailyStore, readStore] = ['import', 'daily', 'first-read'].map((name) => join(root, name));
    for (const dir of [importStore, dailyStore]) mkdirSync(dir!, { recursive: true });
    const now = new Date();
    const memory = declaredMemory();
    const scan = amplifyingScan(now);
    const imported = await measured('evidence', importStore!, memory['evidence']!, [post('/api/evidence/imports/ocsf', scan)]);
    const stored = bytesUnder(importStore!);
    console.log(`  import of ${(scan.length / 1000).toFixed(0)} KB: ${imported.status} ${imported.body}`);
    console.log(`  it stored ${(stored / 2 ** 20).toFixed(1)} MiB`);
    const filled = await measured(
      'evidence',
      dailyStore!,
      memory['evidence']!,
      volumeBatches(now).map((batch) => post('/api/evidence', batch)),
    );
    if (filled.status >= 300) throw new Error(`filling the store answered ${filled.status}: ${filled.body}`);
    cpSync(dailyStore!, readStore!, { recursive: true });
    const daily = await measured('dailyReport', dailyStore!, memory['dailyReport']!, [post('/', '{}')]);
    const said = (served: Served) =>
      `${served.status}, peak RSS ${served.peakMiB.toFixed(0)} MiB (idle ${served.idleMiB.toFixed(0)} MiB), ` +
      `heap at most ${served.heap.peakMiB.toFixed(0)} MiB, live after a full collection at most ${served.heap.liveMiB.toFixed(0)} MiB`;
    console.log(`  daily job: ${said(daily)}`);
    const firstRead = await measured('report', readStore!, memory['report']!, [() => fetch(url('/api/report/today'))]);
    console.log(`  first read: ${said(firstRead)}`);
    return [
      {
        figure: `OCSF import, 1 finding × ${resources.toLocaleString('en')} resources (${(scan.length / 1000).toFixed(0)} KB, answered ${imported.status}) — bytes stored`,
        measured: stored / 2 ** 20,
        baselineName: 'the request',
        baseline: scan.length / 2 ** 20,
        unit: 'MiB',
        target: { atMost: 2 },
      },
      {
        figure: `daily job (dailyReport, ${memory['dailyReport']} MiB, answered ${daily.status || 'nothing: died'}) — peak RSS`,
        measured: daily.peakMiB,
        baselineName: 'its idle process',
        baseline: daily.idleMiB,
        unit: 'MiB',
        // Within its instance, with the answer it owes: a dead job's peak proves nothing.
        target: { within: daily.status === 200 ? memory['dailyReport']! : 0 },
      },
      {
        figure: `daily job — live heap after a full collection, at most`,
        measured: daily.heap.liveMiB,
        baselineName: `the heap its instance gives it`,
        baseline: memory['dailyReport']! / 4,
        unit: 'MiB',
        target: { atMost: 0.5 },
      },
      {
        figure: `today's first read (report, ${memory['report']} MiB, answered ${firstRead.status || 'nothing: died'}) — peak RSS`,
        measured: firstRead.peakMiB,
        baselineName: 'its idle process',
        baseline: firstRead.idleMiB,
        unit: 'MiB',
        target: { within: firstRead.status === 200 ? memory['report']! : 0 },
      },
      {
        figure: `today's first read — live heap after a full collection, at most`,
        measured: firstRead.heap.liveMiB,
        baselineName: `the heap its instance gives it`,
        baseline: memory['report']! / 4,
        unit: 'MiB',
        target: { atMost: 0.5 },
      },
    ] satisfies Comparison[];
  },
};
