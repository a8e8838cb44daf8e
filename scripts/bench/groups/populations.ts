/**
 * Populations, on the latency-charging store (25 ms a call, 100 in flight; scripts/lib/latency-store.ts):
 *
 * - a collection run of 5,000 subjects — opened, sent in batches of the API's largest size, each
 *   admitted, ingested and recorded as `POST /api/evidence?run=` does, then completed — beside
 *   ingesting the same items in the same batches without a run: the run's extra object calls and
 *   time should be a few per batch and a few more, never one per subject; and the daily job
 *   after each, which reads the run's population: a constant number of calls more;
 * - a page of a control's population of 50,000 subjects through `GET /api/controls/{id}/population`
 *   (the first page and one deep in it, by its cursor), beside reading one report: at most 25 reads;
 * - a sample of 60 days of a daily control over 365 days of reports, as `GET /api/controls/{id}/sample`
 *   reads it, beside listing those reports: at most 400 reads.
 */
import { createHash } from 'node:crypto';
import { maxBatchItems, pageLimits } from '@evident/contract';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import type * as DatesModule from '../../../functions/src/assessment/dates.ts';
import type { Catalog, EvidenceInput } from '../../../functions/src/assessment/model.ts';
import type * as EvidenceStoreModule from '../../../functions/src/evidence/evidence-store.ts';
import type * as PopulationFamilyModule from '../../../functions/src/families/control-population.ts';
import type * as PagingModule from '../../../functions/src/families/paging.ts';
import type * as ServicesModule from '../../../functions/src/families/services.ts';
import type * as LogsModule from '../../../functions/src/logs.ts';
import type * as DailyReportModule from '../../../functions/src/reports/daily-report.ts';
import type * as EvaluateModule from '../../../functions/src/assessment/evaluate.ts';
import type * as PopulationStoreModule from '../../../functions/src/populations/control-population-store.ts';
import type * as ControlSampleModule from '../../../functions/src/reports/control-sample.ts';
import type * as ReportStoreModule from '../../../functions/src/reports/report-store.ts';
import type * as RunStoreModule from '../../../functions/src/runs/run-store.ts';
import type * as MemoryStoreModule from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../lib/catalog-bundle.ts';
import { compiled } from '../../lib/compiled.ts';
import { LatencyStore } from '../../lib/latency-store.ts';
import { paths } from '../../lib/paths.ts';
import type { Comparison } from '../comparison.ts';
import type { BenchGroup } from '../group.ts';
import { reportOf } from './history.ts';

const today = '2026-11-24';
const runSubjects = 5_000;
const populationSubjects = 50_000;
const sampleDays = 365;
const sampleSize = 60;
const collector = { uid: 'bench', email: 'bench@example.com' };

/** What a measurement cost on the latency-charging store: its object calls and simulated time (I/O + CPU). */
interface Cost {
  calls: number;
  reads: number;
  ms: number;
}

/** Runs `work` on a fresh latency-charging store over `memory`, and what it cost. */
async function costOf(memory: MemoryStoreModule.MemoryStore, work: (store: LatencyStore) => Promise<unknown>): Promise<Cost> {
  const store = new LatencyStore(memory);
  const cpu = process.cpuUsage();
  await work(store);
  const used = process.cpuUsage(cpu);
  const counts = store.counts;
  const calls = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return { calls, reads: counts.read + counts.stat + counts.list, ms: store.elapsedMs + (used.user + used.system) / 1000 };
}

/** Evident's own code as the build compiled it (functions/lib), its exports in one object. */
async function modules() {
  const loaded = await Promise.all([
    compiled<typeof DatesModule>('assessment/dates.js'),
    compiled<typeof EvidenceStoreModule>('evidence/evidence-store.js'),
    compiled<typeof RunStoreModule>('runs/run-store.js'),
    compiled<typeof MemoryStoreModule>('storage/memory-store.js'),
    compiled<typeof PopulationStoreModule>('populations/control-population-store.js'),
    compiled<typeof PopulationFamilyModule>('families/control-population.js'),
    compiled<typeof PagingModule>('families/paging.js'),
    compiled<typeof ServicesModule>('families/services.js'),
    compiled<typeof ReportStoreModule>('reports/report-store.js'),
    compiled<typeof ControlSampleModule>('reports/control-sample.js'),
    compiled<typeof LogsModule>('logs.js'),
    compiled<typeof DailyReportModule>('reports/daily-report.js'),
    compiled<typeof EvaluateModule>('assessment/evaluate.js'),
  ]);
  return Object.assign({}, ...loaded) as UnionToIntersection<(typeof loaded)[number]>;
}
/** One object with every module's exports. */
type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;
type Modules = Awaited<ReturnType<typeof modules>>;

/** The 5,000 users a collector sends, in batches of the most `POST /api/evidence` takes. */
function runBatches(): EvidenceInput[][] {
  const example = evidenceKinds['idp.user'].example as Record<string, unknown>;
  const items = Array.from({ length: runSubjects }, (_, index) => ({
    kind: 'idp.user' as const,
    source: 'okta',
    subject: `user-${String(index).padStart(5, '0')}@example.com`,
    collectedAt: `${today}T02:00:00Z`,
    data: { ...example, email: `user-${index}@example.com` },
    id: `bench-run-${index}`,
  }));
  return Array.from({ length: Math.ceil(items.length / maxBatchItems) }, (_, batch) =>
    items.slice(batch * maxBatchItems, (batch + 1) * maxBatchItems),
  );
}

/**
 * A run of 5,000 subjects opened, sent and completed, and the same items ingested without a run;
 * then the daily job after each, on the store each left.
 */
async function runCosts(m: Modules, catalog: Catalog) {
  const { EvidenceStore, RunStore, MemoryStore } = m;
  const batches = runBatches();
  const now = new Date(`${today}T03:00:00Z`);
  const [bareStore, runStore] = [new MemoryStore(), new MemoryStore()];
  const bare = await costOf(bareStore, async (store) => {
    const evidence = new EvidenceStore(store);
    for (const batch of batches) await evidence.ingest(batch, { receivedAt: now });
  });
  const run = await costOf(runStore, async (store) => {
    const [evidence, runs] = [
      new EvidenceStore(store),
      new RunStore(
        store,
        () => 6,
        () => 10,
      ),
    ];
    const opened = await runs.open({ source: 'okta', kinds: ['idp.user'], openedBy: collector }, now);
    for (const batch of batches) {
      await runs.admit(opened.id, batch, now);
      const outcomes = await evidence.ingest(batch, { receivedAt: now, extra: { runId: opened.id } });
      await runs.recordBatch(
        opened.id,
        batch.map((item, index) => ({ id: outcomes[index]!.id, kind: item.kind, subject: item.subject })),
      );
    }
    const completed = await runs.complete(opened.id, { 'idp.user': runSubjects }, collector, now);
    if (completed.status !== 'complete') throw new Error(`the run ended ${completed.status}`);
  });
  const daily = (memory: MemoryStoreModule.MemoryStore) =>
    costOf(memory, async (store) => {
      const { created } = await m.produceDailyReport({
        store,
        catalog: m.compileCatalog(catalog),
        timeZone: 'UTC',
        now: new Date(`${today}T06:00:00Z`),
        trigger: 'bench',
      });
      if (!created) throw new Error('the daily job made no report');
    });
  return { batches: batches.length, bare, run, dailyBare: await daily(bareStore), dailyRun: await daily(runStore) };
}

/** A population of 50,000 users, every fifth failing. */
function bigPopulation(controlId: string) {
  const subjects = Array.from({ length: populationSubjects }, (_, index) => ({
    subject: `user-${String(index).padStart(6, '0')}@example.com`,
    outcome: index % 5 === 4 ? ('fail' as const) : ('pass' as const),
    evidenceId: `ev-${index}`,
  }));
  const sha256 = createHash('sha256')
    .update(subjects.map((subject) => `${subject.subject}\n`).join(''))
    .digest('hex');
  return { controlId, kind: 'idp.user', count: subjects.length, sha256, subjects };
}

/**
 * The first page and one deep in a 50,000-subject population that spans two stored chunks, each
 * on fresh services, as the operation serves them; and one report read bare.
 */
async function pageCosts(m: Modules, catalog: Catalog) {
  const { MemoryStore, ReportStore, reportObjectName, writeControlPopulations, controlPopulationOperations, encodeCursor } = m;
  const memory = new MemoryStore();
  const report = reportOf(catalog, today, 1);
  await new ReportStore(memory).create(report);
  const controlId = catalog.controls[0]!.id;
  await writeControlPopulations(memory, { date: today, runId: report.runId }, [bigPopulation(controlId)]);
  const limit = pageLimits.populationSubjects.maximum;
  const deep = encodeCursor(
    'population',
    `${today}/${report.runId}/${controlId}/idp.user/${populationSubjects - 2 * limit - 500}`,
  );
  const pages = [];
  for (const cursor of [undefined, deep]) {
    pages.push(
      await costOf(memory, async (store) => {
        const services = m.servicesFrom({
          store: async () => store,
          catalog: () => catalog,
          now: () => new Date(`${today}T12:00:00Z`),
          timeZone: () => 'UTC',
        });
        const { getControlPopulation } = controlPopulationOperations(services);
        const query = { kind: 'idp.user' as const, limit, date: today, ...(cursor ? { cursor } : {}) };
        const answer = await getControlPopulation({ path: { id: controlId }, query, headers: {}, body: undefined } as never);
        if ((answer.body as { subjects: unknown[] }).subjects.length !== limit) throw new Error('the page is short');
      }),
    );
  }
  const oneReport = await costOf(memory, (store) => store.read(reportObjectName(today)));
  return { first: pages[0]!, deep: pages[1]!, oneReport };
}

/** A sample of 60 of 365 days' reports as the sample operation reads it, and the listing of those days. */
async function sampleCosts({ addDays, MemoryStore, ReportStore, readDaySample }: Modules, catalog: Catalog) {
  const memory = new MemoryStore();
  const stored = new ReportStore(memory);
  const from = addDays(today, 1 - sampleDays);
  for (let day = 0; day < sampleDays; day += 1) await stored.create(reportOf(catalog, addDays(from, day), day));
  const request = { controlId: catalog.controls[0]!.id, from, to: today, seed: 'bench', size: sampleSize, today };
  const sample = await costOf(memory, async (store) => {
    const { sample: days } = await readDaySample(new ReportStore(store), request);
    if (days.length !== sampleSize) throw new Error(`sampled ${days.length} days`);
  });
  const index = await costOf(memory, (store) => new ReportStore(store).datesBetween(from, today));
  return { sample, index };
}

export const populationsGroup: BenchGroup = {
  name: 'populations',
  heading: () => 'Collection runs, control populations and samples on the latency-injecting store',
  async measure() {
    const m = await modules();
    for (const name of Object.keys(m.logs) as (keyof typeof m.logs)[]) m.logs[name] = () => undefined;
    const catalog = compileCatalogSources(paths.catalog);
    const { batches, bare, run, dailyBare, dailyRun } = await runCosts(m, catalog);
    const page = await pageCosts(m, catalog);
    const { sample, index } = await sampleCosts(m, catalog);
    const worstPage = page.first.reads >= page.deep.reads ? page.first : page.deep;
    const runName = `run: ${runSubjects.toLocaleString('en')} subjects in ${batches} batches, opened and completed`;
    const rows: Comparison[] = [
      {
        figure: `${runName} — object calls`,
        measured: run.calls,
        baselineName: 'the same batches without a run',
        baseline: bare.calls,
        unit: 'reads',
        // Each batch is admitted (3 calls) and recorded (1), and completing reads each receipt:
        // a few calls a batch, and a few to open and complete; none a subject.
        target: { within: bare.calls + 5 * batches + 15 },
      },
      {
        figure: `${runName} — simulated time (I/O + CPU)`,
        measured: run.ms,
        baselineName: 'the same batches without a run',
        baseline: bare.ms,
        unit: 'ms',
        // The calls a batch adds go one after another (admit, record, and completing's reads in parallel).
        target: { within: bare.ms + batches * 4 * 25 + 500 },
      },
      {
        figure: 'the daily job after that run — object calls',
        measured: dailyRun.calls,
        baselineName: 'the daily job after the same items without a run',
        baseline: dailyBare.calls,
        unit: 'reads',
        // Reading the run's population: the sources, the source's kinds and runs, the run, its
        // population and end record — a constant, whatever the run's size.
        target: { within: dailyBare.calls + 15 },
      },
      {
        figure: `population: a page of ${pageLimits.populationSubjects.maximum} of ${populationSubjects.toLocaleString('en')} subjects — object reads (stats, lists)`,
        measured: worstPage.reads,
        baselineName: 'one report read',
        baseline: page.oneReport.reads,
        unit: 'reads',
        target: { within: 25 },
      },
      {
        figure: `sample: ${sampleSize} of ${sampleDays} days of a daily control — object reads (stats, lists)`,
        measured: sample.reads,
        baselineName: `the ${sampleDays} reports\u2019 index`,
        baseline: index.reads,
        unit: 'reads',
        target: { within: 400 },
      },
    ];
    return rows;
  },
};
