/**
 * One measured pass of the `ocsf` bench group (scripts/bench/groups/ocsf-import.ts), in a process
 * of its own so that the heap it reports is this pass's alone:
 *
 *   node --expose-gc scripts/bench/ocsf-import-worker.ts import <file>   stream → jsonValues → convertFinding
 *   node --expose-gc scripts/bench/ocsf-import-worker.ts parse <file>    JSON.parse(readFileSync) → one walk
 *
 * Prints one line of JSON, an `OcsfPass`.
 *
 * Peak heap: V8's heap only shrinks when it collects garbage, so its high-water mark is the used
 * size just before some collection or at the end of the pass. `v8.GCProfiler` records the heap
 * statistics V8 reports before and after every collection (scavenges included, and those inside
 * a synchronous `JSON.parse`, which no timer could sample); the pass reads the used size once more
 * at its end, while what it made is still referenced. The peak is the largest of those, less the
 * heap in use before the pass (after a full collection, hence `--expose-gc`): what the pass itself
 * needed on top of an idle process. It counts garbage not yet collected, as the process's memory
 * does. Buffers outside the heap (the bytes `readFileSync` reads before decoding them) are not in
 * it; the process's peak resident memory is reported beside it for those.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { jsonValues } from '../../functions/src/evidence/json-values.ts';
import { convertFinding } from '../../functions/src/common/ocsf-findings.ts';
import { ownPeakRssMiB } from './peak-memory.ts';

export interface OcsfPass {
  findings: number;
  /** Evidence items made (import), or resources named (parse): one per finding and resource. */
  items: number;
  /** Values that are not JSON or findings that do not convert; a benchmark file has none. */
  problems: number;
  ms: number;
  /** Heap in use after a full collection before the pass. */
  idleHeapMiB: number;
  /** The most heap in use during the pass, less `idleHeapMiB`. */
  peakHeapMiB: number;
  /** Peak resident memory of the whole process (Linux `VmHWM`), Node itself included. */
  peakRssMiB: number;
  collections: number;
}

type Counts = Pick<OcsfPass, 'findings' | 'items' | 'problems'> & { heapAtEnd: number };

const mib = (bytes: number) => bytes / 2 ** 20;

/** The import as the product reads a scan: one element held at a time, each converted and let go. */
async function importScan(file: string): Promise<Counts> {
  const counts = { findings: 0, items: 0, problems: 0 };
  for await (const piece of jsonValues(createReadStream(file))) {
    if ('error' in piece) {
      counts.problems++;
      continue;
    }
    counts.findings++;
    const converted = convertFinding(piece.value);
    if ('problem' in converted) counts.problems++;
    else counts.items += converted.items.length;
  }
  return { ...counts, heapAtEnd: getHeapStatistics().used_heap_size };
}

/** The baseline: the whole file as one string, parsed at once, its array walked once. */
function parseScan(file: string): Counts {
  const findings = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(findings)) throw new Error(`${file} is not a JSON array`);
  let items = 0;
  let problems = 0;
  for (const finding of findings) {
    const resources = (finding as { resources?: unknown } | null)?.resources;
    if (Array.isArray(resources)) items += resources.length;
    else problems++;
  }
  // Read while `findings` is still referenced: the parsed array is what this pass holds at its end.
  return { findings: findings.length, items, problems, heapAtEnd: getHeapStatistics().used_heap_size };
}

const [mode, file] = process.argv.slice(2);
if ((mode !== 'import' && mode !== 'parse') || !file) {
  throw new Error('usage: node --expose-gc scripts/bench/ocsf-import-worker.ts import|parse <file>');
}
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc, to start from a collected heap');
globalThis.gc();
const idle = getHeapStatistics().used_heap_size;
const profiler = new GCProfiler();
profiler.start();
const started = performance.now();
const counts = mode === 'import' ? await importScan(file) : parseScan(file);
const ms = performance.now() - started;
const { statistics } = profiler.stop();
const peak = statistics.reduce((most, gc) => Math.max(most, gc.beforeGC.heapStatistics.usedHeapSize), counts.heapAtEnd);
const pass: OcsfPass = {
  findings: counts.findings,
  items: counts.items,
  problems: counts.problems,
  ms,
  idleHeapMiB: mib(idle),
  peakHeapMiB: mib(peak - idle),
  peakRssMiB: ownPeakRssMiB(),
  collections: statistics.length,
};
process.stdout.write(`${JSON.stringify(pass)}\n`);
