/**
 * The audit package of a quarter: `GET /api/audit/package` for 91 days, made from stored reports
 * (every control, each result resting on five evidence items a day, as the history group's) and
 * the evidence they rest on, on the latency-injecting store (25 ms a call, 100 in flight;
 * scripts/lib/latency-store.ts), beside reading the same objects bare with the same number in
 * flight. Its object calls should be one read per report and per evidence item plus a few
 * listings; its time, the bare reads' plus the CPU of the archive (JSON, CSV, OSCAL, deflate,
 * SHA-256), which the bare reads do not do. The whole zip is produced and counted, not kept.
 */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as AuditPackageModule from '../../../functions/src/audit/audit-package.ts';
import type * as ZipStreamModule from '../../../functions/src/audit/zip-writer.ts';
import type * as DatesModule from '../../../functions/src/assessment/dates.ts';
import type { Catalog, EvidenceItem } from '../../../functions/src/assessment/model.ts';
import type * as EvidenceLayoutModule from '../../../functions/src/evidence/evidence-layout.ts';
import type * as EvidenceStoreModule from '../../../functions/src/evidence/evidence-store.ts';
import type { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import type * as ServicesModule from '../../../functions/src/families/services.ts';
import type * as ReportStoreModule from '../../../functions/src/reports/report-store.ts';
import type { ReportStore } from '../../../functions/src/reports/report-store.ts';
import type * as MemoryStoreModule from '../../../functions/src/storage/memory-store.ts';
import type * as ObjectStoreModule from '../../../functions/src/storage/object-store.ts';
import { compileCatalogSources } from '../../lib/catalog-bundle.ts';
import { compiled } from '../../lib/compiled.ts';
import { LatencyStore } from '../../lib/latency-store.ts';
import { paths } from '../../lib/paths.ts';
import type { Comparison } from '../comparison.ts';
import type { BenchGroup } from '../group.ts';
import { reportOf } from './history.ts';

const today = '2026-11-24';
/** A quarter, and the days before it whose reports a package must not read. */
const period = 91;
const storedDays = 120;

/**
 * Stores `storedDays` of reports up to today and, for the period from `from`, the evidence items
 * each day's results rest on, received that morning; the ids of those items.
 */
async function seedQuarter(
  catalog: Catalog,
  reports: ReportStore,
  evidence: EvidenceStore,
  from: string,
  addDays: (date: string, days: number) => string,
): Promise<Set<string>> {
  const cited = new Set<string>();
  for (let back = storedDays - 1; back >= 0; back -= 1) {
    const date = addDays(today, -back);
    const report = reportOf(catalog, date, storedDays - back);
    await reports.create(report);
    if (date < from) continue;
    const items: EvidenceItem[] = report.controls.flatMap((result) =>
      result.evidence.map((id) => ({
        id,
        kind: 'tls.endpoint' as const,
        source: 'bench',
        subject: `${result.id.toLowerCase()}.example.com`,
        collectedAt: `${date}T05:00:00.000Z`,
        receivedAt: `${date}T05:01:00.000Z`,
        data: { minTlsVersion: '1.3', hsts: true, certificateDaysLeft: 80, weakCiphers: false },
        attachments: [],
      })),
    );
    for (const item of items) cited.add(item.id);
    await evidence.importItems(items);
  }
  return cited;
}

/** The compiled modules the group drives. */
async function modules() {
  const [
    { addDays },
    { packageFiles, closingFiles },
    { zipStream },
    { servicesFrom },
    { ReportStore, reportObjectName },
    { EvidenceStore },
    { claimObjectName },
    { MemoryStore },
    { inBatches },
  ] = await Promise.all([
    compiled<typeof DatesModule>('assessment/dates.js'),
    compiled<typeof AuditPackageModule>('audit/audit-package.js'),
    compiled<typeof ZipStreamModule>('audit/zip-writer.js'),
    compiled<typeof ServicesModule>('families/services.js'),
    compiled<typeof ReportStoreModule>('reports/report-store.js'),
    compiled<typeof EvidenceStoreModule>('evidence/evidence-store.js'),
    compiled<typeof EvidenceLayoutModule>('evidence/evidence-layout.js'),
    compiled<typeof MemoryStoreModule>('storage/memory-store.js'),
    compiled<typeof ObjectStoreModule>('storage/object-store.js'),
  ]);
  return {
    addDays,
    packageFiles,
    closingFiles,
    zipStream,
    servicesFrom,
    ReportStore,
    reportObjectName,
    EvidenceStore,
    claimObjectName,
    MemoryStore,
    inBatches,
  };
}

type Modules = Awaited<ReturnType<typeof modules>>;

/**
 * The package of the period from `from`, on fresh services (nothing cached) over a store that
 * charges each call: its object requests, simulated time (I/O + CPU) and size, and what it holds.
 */
async function measurePackage(m: Modules, catalog: Catalog, memory: ObjectStoreModule.ObjectStore, from: string) {
  const latency = new LatencyStore(memory);
  const services = await m.servicesFrom({
    store: async () => latency,
    catalog: () => catalog,
    now: () => new Date(`${today}T12:00:00Z`),
    timeZone: () => 'UTC',
  })();
  const request = {
    from,
    to: today,
    dates: await services.reports.datesBetween(from, today),
    today,
    timeZone: 'UTC',
    generatedAt: new Date(`${today}T12:00:00Z`),
    apiVersion: 'bench',
    requestedBy: { uid: 'bench' },
  };
  latency.reset();
  const facts = { reports: [], versions: [], evidence: 0, attachments: 0, unavailable: [] };
  let bytes = 0;
  const cpu = process.cpuUsage();
  await pipeline(
    m.zipStream(m.packageFiles(services, request, facts), (archived) => m.closingFiles(request, facts, archived)),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done();
      },
    }),
  );
  const used = process.cpuUsage(cpu);
  const measured = { requests: latency.requests, ms: latency.elapsedMs + (used.user + used.system) / 1000 };
  return { ...measured, bytes, dates: request.dates, facts };
}

/** The same objects read bare, as many in flight as the package reads them, neither parsed nor archived. */
async function readBare(m: Modules, memory: ObjectStoreModule.ObjectStore, dates: string[], cited: Set<string>) {
  const bare = new LatencyStore(memory);
  const cpu = process.cpuUsage();
  await m.inBatches(dates, 8, (date) => bare.read(m.reportObjectName(date)));
  await m.inBatches([...cited], 64, (id) => bare.read(m.claimObjectName(id)));
  const used = process.cpuUsage(cpu);
  return { reads: bare.requests.read, ms: bare.elapsedMs + (used.user + used.system) / 1000 };
}

export const auditGroup: BenchGroup = {
  name: 'audit',
  heading: () => `The audit package of a quarter (${period} days) on the latency-injecting store`,
  async measure() {
    const m = await modules();
    const catalog = compileCatalogSources(paths.catalog);
    const memory = new m.MemoryStore();
    const from = m.addDays(today, 1 - period);
    const cited = await seedQuarter(catalog, new m.ReportStore(memory), new m.EvidenceStore(memory), from, m.addDays);

    const measured = await measurePackage(m, catalog, memory, from);
    const { facts } = measured;
    if (facts.reports.length !== period || facts.evidence !== cited.size)
      throw new Error(`packaged ${facts.reports.length} reports and ${facts.evidence} items, not ${period} and ${cited.size}`);
    const baseline = await readBare(m, memory, [m.addDays(from, -1), ...measured.dates], cited);

    // Requests as the Cloud Storage driver makes them (a list is one request per page).
    const calls = measured.requests.read + measured.requests.stat + measured.requests.list;
    return [
      {
        figure: `audit package: ${period} days, ${cited.size.toLocaleString('en')} evidence items — object requests (reads, stats, lists)`,
        measured: calls,
        baselineName: `${baseline.reads.toLocaleString('en')} report and item reads, bare`,
        baseline: baseline.reads,
        unit: 'reads',
        target: { within: baseline.reads + period + 10 },
      },
      {
        figure: `audit package: ${period} days — simulated time (I/O + CPU), ${(measured.bytes / 1024 / 1024).toFixed(1)} MiB zip`,
        measured: measured.ms,
        baselineName: 'the same reads, bare, as many in flight',
        baseline: baseline.ms,
        unit: 'ms',
        target: { atMost: 2 },
      },
    ] satisfies Comparison[];
  },
};
