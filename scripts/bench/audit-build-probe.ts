/**
 * The audit benchmark's build, in a process of its own given the heap the package worker's
 * instance gives it (functions/src/index.ts: 1 GiB, of which V8 takes a quarter for the old
 * generation), so its peak resident memory is the build's: the store is in the process that
 * forked it (groups/audit.ts), reached over IPC and wrapped in the latency-injecting store.
 *
 * It runs what the task-queue worker runs for one package (jobs/audit-package-job.ts: find the
 * record, build, sweep), then reads bare, on a fresh latency store, the objects the package is
 * made from, as many in flight as the builder reads them.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type * as BuildPackageModule from '../../functions/src/audit/build-package.ts';
import type * as PackageBuildsModule from '../../functions/src/audit/package-builds.ts';
import type * as EvaluateModule from '../../functions/src/assessment/evaluate.ts';
import type { Catalog } from '../../functions/src/assessment/model.ts';
import type * as EvidenceStoreModule from '../../functions/src/evidence/evidence-store.ts';
import type * as LogsModule from '../../functions/src/logs.ts';
import type * as ReportStoreModule from '../../functions/src/reports/report-store.ts';
import type * as ObjectStoreModule from '../../functions/src/storage/object-store.ts';
import { compiled } from '../lib/compiled.ts';
import { LatencyStore, type OperationCounts } from '../lib/latency-store.ts';
import { paths } from '../lib/paths.ts';
import { remoteStore } from './remote-store.ts';
import { ownPeakRssMiB } from './peak-memory.ts';

/** The worker's instance memory (functions/src/index.ts) and the heap Node takes of it there. */
export const workerMiB = 1024;
export const workerExecArgv = [`--max-old-space-size=${workerMiB / 4}`];

export interface BuildTask {
  packageId: string;
  now: string;
  /** PKCS#8 PEM of the key the manifest is signed with, as `AUDIT_SIGNING_KEY` holds it. */
  signingKey: string;
  /** The objects the package is made from, by how many the builder reads at a time. */
  bare: { names: string[]; inFlight: number }[];
}

export interface BuildResult {
  calls: OperationCounts;
  requests: OperationCounts;
  /** Simulated I/O (the latency store's virtual clock) and the process's CPU over the build. */
  ioMs: number;
  cpuMs: number;
  bare: { reads: number; ioMs: number; cpuMs: number };
  idleRssMiB: number;
  peakRssMiB: number;
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

async function main(task: BuildTask): Promise<BuildResult> {
  const [{ buildPackage }, { PackageBuilds }, engine, { EvidenceStore }, { ReportStore }, { inBatches }, { logs }] =
    await Promise.all([
      compiled<typeof BuildPackageModule>('audit/build-package.js'),
      compiled<typeof PackageBuildsModule>('audit/package-builds.js'),
      compiled<typeof EvaluateModule>('assessment/evaluate.js'),
      compiled<typeof EvidenceStoreModule>('evidence/evidence-store.js'),
      compiled<typeof ReportStoreModule>('reports/report-store.js'),
      compiled<typeof ObjectStoreModule>('storage/object-store.js'),
      compiled<typeof LogsModule>('logs.js'),
    ]);
  // Quiet, but for a build that fails (the bench then says so, from the package's events).
  for (const name of Object.keys(logs) as (keyof typeof logs)[]) if (name !== 'auditPackageFailed') logs[name] = () => undefined;
  // The catalog as the worker loads it: the build's generated copy.
  const catalog = JSON.parse(readFileSync(`${paths.functionsGenerated}/catalog.json`, 'utf8')) as Catalog;
  engine.compileCatalog(catalog);
  const remote = await remoteStore(process as unknown as Parameters<typeof remoteStore>[0], 'year');
  const signingKey = createPrivateKey(task.signingKey);
  const now = new Date(task.now);
  const idleRssMiB = process.memoryUsage().rss / 2 ** 20;

  // The worker's task (jobs/audit-package-job.ts), its services fresh: nothing cached.
  const latency = new LatencyStore(remote);
  const sources = {
    store: latency,
    catalog,
    reports: new ReportStore(latency),
    evidence: new EvidenceStore(latency),
    now: () => now,
    timeZone: () => 'UTC',
    signingKey: () => signingKey,
  };
  let cpu = process.cpuUsage();
  const builds = new PackageBuilds(latency, () => 14);
  const record = await builds.find(task.packageId, now);
  if (!record) throw new Error(`no package ${task.packageId}`);
  await buildPackage(sources, record);
  await builds.sweep(now);
  const build = { calls: latency.counts, requests: latency.requests, ioMs: latency.elapsedMs, cpuMs: cpuMsSince(cpu) };
  const peak = ownPeakRssMiB();

  const bare = new LatencyStore(remote);
  cpu = process.cpuUsage();
  for (const { names, inFlight } of task.bare) await inBatches(names, inFlight, (name) => bare.read(name));
  return {
    ...build,
    bare: { reads: bare.requests.read, ioMs: bare.elapsedMs, cpuMs: cpuMsSince(cpu) },
    idleRssMiB,
    peakRssMiB: peak,
  };
}

if (process.argv[2] === '--child') {
  process.once('message', (task: BuildTask) => {
    main(task).then(
      (result) => {
        process.send!({ kind: 'build-result', result });
        process.disconnect();
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
