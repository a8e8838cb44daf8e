/**
 * The storage benchmark's store: a process that builds a history of evidence day by day through
 * the real ingest and daily job (in memory, no latency), and at the days to measure hands the
 * store to a fresh probe process (storage-probe.ts) that runs the day's work over it through a
 * latency-injecting wrapper. Forked by storage.ts with a large heap: a year of history at 5,000
 * subjects a day is some 11 million objects.
 *
 * Each subject reports once a day, collected at 02:00–02:50 UTC and sent in batches of 500 from
 * 03:00, like a collector would; the daily job runs at 06:00. Until the last day of `baselineAt`,
 * a second store gets the same items and reports in the layout before partitions, for
 * legacy-design.ts.
 * Checkpoints older than three days are deleted as a lifecycle rule would (the job reads only
 * the newest it can use).
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as DailyReportModule from '../../functions/src/reports/daily-report.ts';
import type * as DatesModule from '../../functions/src/assessment/dates.ts';
import type * as EvaluateModule from '../../functions/src/assessment/evaluate.ts';
import type { Catalog, EvidenceInput } from '../../functions/src/assessment/model.ts';
import type * as EvidenceStoreModule from '../../functions/src/evidence/evidence-store.ts';
import type * as LogsModule from '../../functions/src/logs.ts';
import type * as MemoryStoreModule from '../../functions/src/storage/memory-store.ts';
import type { ObjectStore } from '../../functions/src/storage/object-store.ts';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { compiled } from '../lib/compiled.ts';
import { paths } from '../lib/paths.ts';
import { serveStores } from './remote-store.ts';

export interface HistoryOptions {
  /** Days of history before each measured day. */
  measureAt: number[];
  subjects: number;
  batchSize: number;
  /** Days at which the design before partitions is measured too (a second store is kept for it). */
  baselineAt: number[];
}

export interface ProbeTask {
  task: 'daily' | 'listing' | 'legacy-daily' | 'legacy-listing';
  date: string;
  now: string;
  subject: string;
}

const firstDay = '2025-01-01';

/** The kind's example with some values varied per subject and day, so checks pass and fail. */
function dataFor(example: Record<string, unknown>, seed: number): Record<string, unknown> {
  let state = seed >>> 0;
  const next = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return Object.fromEntries(
    Object.entries(example).map(([key, value]) => {
      if (typeof value === 'boolean') return [key, next() < 0.05 ? !value : value];
      if (typeof value === 'number') return [key, Math.round(value * (0.8 + next() * 0.4))];
      return [key, value];
    }),
  );
}

async function runProbe(task: ProbeTask, stores: Record<string, ObjectStore>): Promise<unknown> {
  const child = fork(join(import.meta.dirname, 'storage-probe.ts'), [JSON.stringify(task)], {
    serialization: 'advanced',
    execArgv: ['--max-old-space-size=16384'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  serveStores(child, stores);
  return new Promise((resolve, reject) => {
    child.on('message', (message: { kind?: string; result?: unknown }) => {
      if (message?.kind === 'probe-result') resolve(message.result);
    });
    child.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`the ${task.task} probe exited with ${code}`))));
  });
}

async function main(options: HistoryOptions): Promise<void> {
  const [{ MemoryStore }, { EvidenceStore }, { produceDailyReport }, { compileCatalog }, { addDays }, { logs }] =
    await Promise.all([
      compiled<typeof MemoryStoreModule>('storage/memory-store.js'),
      compiled<typeof EvidenceStoreModule>('evidence/evidence-store.js'),
      compiled<typeof DailyReportModule>('reports/daily-report.js'),
      compiled<typeof EvaluateModule>('assessment/evaluate.js'),
      compiled<typeof DatesModule>('assessment/dates.js'),
      compiled<typeof LogsModule>('logs.js'),
    ]);
  for (const name of Object.keys(logs) as (keyof typeof logs)[]) logs[name] = () => undefined;
  const catalog = compileCatalog(JSON.parse(readFileSync(join(paths.functionsGenerated, 'catalog.json'), 'utf8')) as Catalog);
  const kinds = [...new Set(catalog.catalog.controls.flatMap((control) => control.evidence.map((need) => need.kind)))].filter(
    (kind) => kind !== 'attestation',
  ) as (keyof typeof evidenceKinds)[];

  const current = new MemoryStore();
  const legacy = new MemoryStore();
  const stores = { current, legacy };
  const evidence = new EvidenceStore(current);
  const started = performance.now();
  const last = Math.max(...options.measureAt);
  // The old layout is kept only as long as a later day still measures it.
  let baseline = options.baselineAt.length > 0;
  for (let day = 0; day <= last; day++) {
    const date = addDays(firstDay, day);
    const at = (time: string) => new Date(`${date}T${time}Z`);
    const inputs: EvidenceInput[] = Array.from({ length: options.subjects }, (_, subject) => {
      const kind = kinds[subject % kinds.length]!;
      return {
        id: `s${subject}-d${day}`,
        kind,
        source: `collector-${kind}`,
        subject: `subject-${subject}`,
        collectedAt: new Date(at('02:00:00').getTime() + (subject % 3000) * 1000).toISOString(),
        data: dataFor(evidenceKinds[kind].example as Record<string, unknown>, subject * 7919 + day),
      };
    });
    for (let start = 0; start < inputs.length; start += options.batchSize) {
      const receivedAt = new Date(at('03:00:00').getTime() + (start / options.batchSize) * 60_000);
      const batch = inputs.slice(start, start + options.batchSize);
      await evidence.ingest(batch, { receivedAt });
      if (baseline) {
        for (const input of batch) {
          const item = { ...input, receivedAt: receivedAt.toISOString(), attachments: [] };
          await legacy.create(`evidence/items/${input.id}.json`, JSON.stringify(item), { contentType: 'application/json' });
        }
      }
    }
    const now = at('06:00:00');
    if (options.measureAt.includes(day)) {
      const task = (name: ProbeTask['task']): ProbeTask => ({ task: name, date, now: now.toISOString(), subject: 'subject-42' });
      const results: Record<string, unknown> = { days: day, objects: current.size(), bytes: current.bytes() };
      results['listing'] = await runProbe(task('listing'), stores);
      results['daily'] = await runProbe(task('daily'), stores);
      if (options.baselineAt.includes(day)) {
        results['legacy-listing'] = await runProbe(task('legacy-listing'), stores);
        results['legacy-daily'] = await runProbe(task('legacy-daily'), stores);
      }
      process.send!({ kind: 'measured', results });
    } else {
      await produceDailyReport({ store: current, catalog, timeZone: 'UTC', now, date, trigger: 'bench', evidence });
    }
    if (baseline) {
      const { data } = await current.read(`reports/day=${date}/report.json`);
      await legacy.create(`reports/${date}.json`, data, { contentType: 'application/json' }).catch(() => undefined);
    }
    for (const { name } of (await current.list(`state/day=${addDays(date, -3)}/`)).items) await current.delete(name);
    if (baseline && day >= Math.max(...options.baselineAt)) {
      baseline = false;
      for (let page = await legacy.list(''); page.items.length > 0; page = await legacy.list('')) {
        for (const { name } of page.items) await legacy.delete(name);
      }
    }
    if (day % 30 === 0)
      process.send!({ kind: 'progress', day, seconds: (performance.now() - started) / 1000, objects: current.size() });
  }
}

await main(JSON.parse(process.argv[2]!) as HistoryOptions);
process.exit(0);
