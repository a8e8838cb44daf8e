/**
 * One measured run of the storage benchmark, in a process of its own so that its peak memory is
 * the run's: the store is in the process that forked it (storage-history.ts), reached over IPC
 * and wrapped in the latency-injecting store, which counts the calls and their virtual time.
 *
 *   daily           today's daily job (checkpoint + the batches since)
 *   listing         the first page of GET /api/evidence, 20 items, unfiltered and by subject
 *   legacy-*        the same, the way Evident did before the partitioned layout
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as DailyReportModule from '../../functions/src/reports/daily-report.ts';
import type * as EvaluateModule from '../../functions/src/assessment/evaluate.ts';
import type { Catalog } from '../../functions/src/assessment/model.ts';
import type * as EvidenceListingModule from '../../functions/src/evidence/evidence-listing.ts';
import type * as EvidenceStoreModule from '../../functions/src/evidence/evidence-store.ts';
import type * as LogsModule from '../../functions/src/logs.ts';
import { LatencyStore, type OperationCounts } from '../lib/latency-store.ts';
import { compiled } from '../lib/compiled.ts';
import { paths } from '../lib/paths.ts';
import { legacyDailyRun, legacyListingPage } from './legacy-design.ts';
import { remoteStore } from './remote-store.ts';
import type { ProbeTask } from './storage-history.ts';
import { ownPeakRssMiB } from './peak-memory.ts';

export interface Measurement {
  /** Object store calls, by kind. */
  counts: OperationCounts;
  /** Object reads: the GETs of data or metadata the Cloud Storage driver makes for the reads and stats. */
  reads: number;
  simulatedMs: number;
  cpuMs: number;
  items: number;
}

export interface ProbeResult {
  runs: Record<string, Measurement>;
  /** Resident memory after loading the code and catalog, before the run. */
  idleRssMiB: number;
  /** Peak resident memory of the process, run included. */
  peakRssMiB: number;
}

const task = JSON.parse(process.argv[2]!) as ProbeTask;
const channel = process as unknown as Parameters<typeof remoteStore>[0];
const [{ produceDailyReport }, engine, { listEvidence }, { EvidenceStore }, { logs }] = await Promise.all([
  compiled<typeof DailyReportModule>('reports/daily-report.js'),
  compiled<typeof EvaluateModule>('assessment/evaluate.js'),
  compiled<typeof EvidenceListingModule>('evidence/evidence-listing.js'),
  compiled<typeof EvidenceStoreModule>('evidence/evidence-store.js'),
  compiled<typeof LogsModule>('logs.js'),
]);
for (const name of Object.keys(logs) as (keyof typeof logs)[]) logs[name] = () => undefined;
const catalog = engine.compileCatalog(
  JSON.parse(readFileSync(join(paths.functionsGenerated, 'catalog.json'), 'utf8')) as Catalog,
);
const store = await remoteStore(channel, task.task.startsWith('legacy') ? 'legacy' : 'current');
const idleRssMiB = process.memoryUsage().rss / 2 ** 20;

async function measure(work: (store: LatencyStore) => Promise<number>): Promise<Measurement> {
  const latency = new LatencyStore(store);
  const cpu = process.cpuUsage();
  const items = await work(latency);
  const used = process.cpuUsage(cpu);
  const { counts, requests } = latency;
  return {
    counts,
    reads: requests.read + requests.stat,
    simulatedMs: latency.elapsedMs,
    cpuMs: (used.user + used.system) / 1000,
    items,
  };
}

const now = new Date(task.now);
const runs: Record<string, Measurement> = {};
switch (task.task) {
  case 'daily':
    runs['daily'] = await measure(async (latency) => {
      const { stored, created } = await produceDailyReport({
        store: latency,
        catalog,
        timeZone: 'UTC',
        now,
        date: task.date,
        trigger: 'bench',
      });
      if (!created) throw new Error(`the report of ${task.date} already existed`);
      return stored.report.summary.controls;
    });
    break;
  case 'listing':
    runs['page'] = await measure(
      async (latency) => (await listEvidence(latency, new EvidenceStore(latency), { limit: 20 })).items.length,
    );
    runs['subject'] = await measure(
      async (latency) =>
        (await listEvidence(latency, new EvidenceStore(latency), { limit: 20, subject: task.subject })).items.length,
    );
    break;
  case 'legacy-daily':
    runs['daily'] = await measure(
      async (latency) => (await legacyDailyRun(latency, engine, catalog, { date: task.date, now })).summary.controls,
    );
    break;
  case 'legacy-listing':
    runs['page'] = await measure(async (latency) => (await legacyListingPage(latency, { limit: 20 })).length);
    runs['subject'] = await measure(
      async (latency) => (await legacyListingPage(latency, { limit: 20, subject: task.subject })).length,
    );
    break;
}
const result: ProbeResult = { runs, idleRssMiB, peakRssMiB: ownPeakRssMiB() };
process.send!({ kind: 'probe-result', result });
process.disconnect();
