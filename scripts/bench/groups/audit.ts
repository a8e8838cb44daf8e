/**
 * A year's audit package built in the background, and verified (issue 35's Scale), on the
 * latency-injecting store (25 ms a call, 100 in flight; scripts/lib/latency-store.ts):
 *
 * - The store holds a year of real daily runs (audit-year.ts): 250 subjects reporting each day,
 *   of the kinds the catalog's checks read, sent in batches of 50 and assessed by the daily job,
 *   so 91,250 evidence items in the period and reports that are what the engine made of them.
 * - The package of those 365 days is built as the task-queue worker builds it (find, build,
 *   sweep), in a process given the worker's heap (audit-build-probe.ts). Its object calls (reads,
 *   stats, lists; writes apart) against the bare reads — each report of the period and the one
 *   before, the checkpoint its first day starts from and each evidence batch after, read once,
 *   as many in flight as the builder reads them, in the same process — plus one listing per day;
 *   its simulated time (virtual I/O + CPU) against the job's 540 s; its peak RSS against 512 MiB.
 * - The zip is verified as `npm run verify-audit -- package.zip --key key.pem` verifies it, in a
 *   process of its own (wall time, unzipping and hashing included), against the engine
 *   evaluating the same 365 days in memory in this run, as the daily runs did (≤ 2×).
 *
 *   npm run bench -- --only audit
 *
 * With `EVIDENT_AUDIT_KEEP=<folder>`, the zip and the public key are left there (package.zip,
 * key.pem) for profiling the verifier or the zip by hand, rather than deleted with the run.
 */
import { spawn, fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as EvaluateModule from '../../../functions/src/assessment/evaluate.ts';
import type { Catalog } from '../../../functions/src/assessment/model.ts';
import type * as PackageBuildsModule from '../../../functions/src/audit/package-builds.ts';
import type * as EvidenceLayoutModule from '../../../functions/src/evidence/evidence-layout.ts';
import type * as ReportStoreModule from '../../../functions/src/reports/report-store.ts';
import type * as MemoryStoreModule from '../../../functions/src/storage/memory-store.ts';
import type * as ObjectStoreModule from '../../../functions/src/storage/object-store.ts';
import type { ObjectStore } from '../../../functions/src/storage/object-store.ts';
import { compiled } from '../../lib/compiled.ts';
import { paths } from '../../lib/paths.ts';
import { evaluateYear, seedYear, yearModules, type YearShape } from '../audit-year.ts';
import { workerExecArgv, type BuildResult, type BuildTask } from '../audit-build-probe.ts';
import type { Comparison } from '../comparison.ts';
import type { BenchGroup } from '../group.ts';
import { serveStores } from '../remote-store.ts';

const shape: YearShape = { from: '2025-11-24', days: 365, daysBefore: 3, subjects: 250, batchSize: 50 };
/** The job function's timeout (functions/src/index.ts) and the memory the issue allows the build. */
const jobSeconds = 540;
const buildMiB = 512;
/** As many in flight as the builder reads them (audit-package.ts, package-inputs.ts, checkpoint-store.ts). */
const reportsInFlight = 8;
const batchesInFlight = 4;

async function modules() {
  const [{ MemoryStore }, builds, { reportObjectName }, { batchReceivedAt }, { listNames }, { compileCatalog }] =
    await Promise.all([
      compiled<typeof MemoryStoreModule>('storage/memory-store.js'),
      compiled<typeof PackageBuildsModule>('audit/package-builds.js'),
      compiled<typeof ReportStoreModule>('reports/report-store.js'),
      compiled<typeof EvidenceLayoutModule>('evidence/evidence-layout.js'),
      compiled<typeof ObjectStoreModule>('storage/object-store.js'),
      compiled<typeof EvaluateModule>('assessment/evaluate.js'),
    ]);
  return { MemoryStore, ...builds, reportObjectName, batchReceivedAt, listNames, compileCatalog };
}

type Modules = Awaited<ReturnType<typeof modules>>;

/** The objects the package is made from, each once: reports, the first day's checkpoint, the batches after it. */
async function bareObjects(
  m: Modules,
  store: ObjectStore,
  period: readonly string[],
  before: string,
): Promise<BuildTask['bare']> {
  const report = async (date: string) => JSON.parse((await store.read(m.reportObjectName(date))).data.toString('utf8'));
  const first = Date.parse((await report(period[0]!)).generatedAt);
  const last = Date.parse((await report(period.at(-1)!)).generatedAt);
  const batches = (await m.listNames(store, 'evidence/')).filter((name) => {
    const received = m.batchReceivedAt(name);
    return received !== undefined && received > first && received <= last;
  });
  return [
    { names: [before, ...period].map(m.reportObjectName), inFlight: reportsInFlight },
    { names: await m.listNames(store, `state/day=${period[0]!}/`), inFlight: reportsInFlight },
    { names: batches, inFlight: batchesInFlight },
  ];
}

/** The build, in a process with the worker's heap, over this process's store. */
async function measureBuild(store: ObjectStore, task: BuildTask): Promise<BuildResult> {
  const child = fork(join(import.meta.dirname, '../audit-build-probe.ts'), ['--child'], {
    execArgv: workerExecArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  serveStores(child, { year: store });
  child.send(task);
  return new Promise((resolve, reject) => {
    child.on('message', (message: { kind?: string; result?: BuildResult }) => {
      if (message?.kind === 'build-result') resolve(message.result!);
    });
    child.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`the build process exited with ${code}`))));
  });
}

/** `npm run verify-audit -- <zip> --key <pem>` in a process of its own: its wall time and what it said. */
async function measureVerifier(zip: string, key: string): Promise<{ ms: number; output: string; code: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(paths.root, 'scripts/verify-audit.ts'), zip, '--key', key], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { ms: performance.now() - started, output, code };
}

/** The built zip, put together from its parts; the build's failure, said, when it did not complete. */
async function builtZip(m: Modules, store: ObjectStore, id: string): Promise<Buffer> {
  const log = new m.AuditPackageLog(store, id);
  await log.refresh();
  const parts = m.partsOf(log.events);
  if (!parts) throw new Error(`the package was not built: ${JSON.stringify(log.events.at(-1))}`);
  const names = await m.listNames(store, `audit/parts/${id}/${parts.attempt}/`);
  return Buffer.concat(await Promise.all(names.map(async (name) => (await store.read(name)).data)));
}

export const auditGroup: BenchGroup = {
  name: 'audit',
  heading: () =>
    `A year's audit package (${shape.days} days, ${(shape.days * shape.subjects).toLocaleString('en')} evidence items) built and verified, on the latency-injecting store`,
  async measure() {
    const m = await modules();
    const year = await yearModules();
    const catalog = m.compileCatalog(JSON.parse(readFileSync(join(paths.functionsGenerated, 'catalog.json'), 'utf8')) as Catalog);
    const memory = new m.MemoryStore();
    const period = await seedYear(year, memory, catalog, shape, (line) => console.log(line));
    const to = period.at(-1)!;
    // Asked for the day after the period, as the audit card asks for a period ending yesterday.
    const now = new Date(Date.parse(`${to}T12:00:00Z`) + 86_400_000);
    const builds = new m.PackageBuilds(memory, () => 14);
    const record = await builds.open(
      { from: shape.from, to, fingerprint: m.fingerprintOf(period.map((date) => ({ date, generation: '1' }))) },
      { uid: 'bench' },
      now,
    );
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const build = await measureBuild(memory, {
      packageId: record.id,
      now: now.toISOString(),
      signingKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      bare: await bareObjects(m, memory, period, year.addDays(shape.from, -1)),
    });

    const keep = process.env.EVIDENT_AUDIT_KEEP;
    const folder = keep ?? mkdtempSync(join(tmpdir(), 'evident-audit-bench-'));
    if (keep) mkdirSync(keep, { recursive: true });
    try {
      const zip = await builtZip(m, memory, record.id);
      writeFileSync(join(folder, 'package.zip'), zip);
      writeFileSync(join(folder, 'key.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
      const verified = await measureVerifier(join(folder, 'package.zip'), join(folder, 'key.pem'));
      const follows = `Reports: ${period.length}; ${period.length} follow from the evidence, 0 do not.`;
      if (verified.code !== 0 || !verified.output.includes(follows))
        throw new Error(`the verifier did not verify the package (exit ${verified.code}):\n${verified.output.slice(0, 2000)}`);
      const engine = await evaluateYear(year, memory, catalog, shape, period);
      if (engine.follow !== period.length) throw new Error(`the engine re-made ${engine.follow} of ${period.length} reports`);
      return figures(build, { ms: verified.ms, zipMiB: zip.length / 2 ** 20 }, engine.ms, period.length);
    } finally {
      if (!keep) rmSync(folder, { recursive: true, force: true });
    }
  },
};

function figures(build: BuildResult, verifier: { ms: number; zipMiB: number }, engineMs: number, days: number): Comparison[] {
  const { calls, requests, bare } = build;
  const reading = requests.read + requests.stat + requests.list;
  const writes = calls.create + calls.replace + calls.delete;
  const bareSeconds = (bare.ioMs + bare.cpuMs) / 1000;
  const items = (days * shape.subjects).toLocaleString('en');
  return [
    {
      figure: `audit package, ${days} days, ${items} items: object requests (${requests.read} reads, ${requests.stat} stats, ${requests.list} lists; ${writes} writes apart)`,
      measured: reading,
      baselineName: `${bare.reads.toLocaleString('en')} reads of what it is made from, bare, + ${days} listings`,
      baseline: bare.reads,
      unit: 'reads',
      target: { within: bare.reads + days },
    },
    {
      figure: `audit package, ${days} days: simulated time (${(build.ioMs / 1000).toFixed(1)} s I/O + ${(build.cpuMs / 1000).toFixed(1)} s CPU), ${verifier.zipMiB.toFixed(0)} MiB zip`,
      measured: (build.ioMs + build.cpuMs) / 1000,
      baselineName: 'the same reads, bare',
      baseline: bareSeconds,
      unit: 's',
      target: { within: jobSeconds },
    },
    {
      figure: `audit package, ${days} days: peak RSS of the build (heap as the worker's 1 GiB instance gives it)`,
      measured: build.peakRssMiB,
      baselineName: 'the same process idle',
      baseline: build.idleRssMiB,
      unit: 'MiB',
      target: { within: buildMiB },
    },
    {
      figure: `verify-audit over that package: wall time (unzip, SHA-256, signature, ${days} days re-derived)`,
      measured: verifier.ms,
      baselineName: `the engine evaluating the ${days} days, in memory`,
      baseline: engineMs,
      unit: 'ms',
      target: { atMost: 2 },
    },
  ];
}
