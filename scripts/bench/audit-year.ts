/**
 * The audit benchmark's year: a store holding a year of real daily runs, each made by the daily
 * job (reports/daily-report.ts) from the evidence received that morning, so every stored report
 * is what the engine made of it and a verifier re-deriving the days finds they follow. And the
 * baseline the verifier is held to: the same days evaluated again by the engine, in memory.
 *
 * Each of `subjects` subjects reports once a day, of the kinds the catalog's checks read (their
 * kind's example with values varied, so checks pass and fail), collected from 02:00 UTC and sent
 * at 03:00 in batches of `batchSize`, as collectors send them; the daily job runs at 06:00. The
 * days before the period give its first day a report before it and a state to start from.
 */
import type * as DailyReportModule from '../../functions/src/reports/daily-report.ts';
import type * as DatesModule from '../../functions/src/assessment/dates.ts';
import type * as EvaluateModule from '../../functions/src/assessment/evaluate.ts';
import type * as EvidenceStateModule from '../../functions/src/assessment/evidence-state.ts';
import type { EvidenceInput, EvidenceItem, Report } from '../../functions/src/assessment/model.ts';
import type * as EvidenceStoreModule from '../../functions/src/evidence/evidence-store.ts';
import type * as LogsModule from '../../functions/src/logs.ts';
import type * as ReportStoreModule from '../../functions/src/reports/report-store.ts';
import type { ObjectStore } from '../../functions/src/storage/object-store.ts';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { compiled } from '../lib/compiled.ts';

export interface YearShape {
  /** The first day of the period; `daysBefore` days of history come before it. */
  from: string;
  days: number;
  daysBefore: number;
  subjects: number;
  batchSize: number;
}

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

/** The compiled modules the year is made and evaluated with. */
export async function yearModules() {
  const [{ produceDailyReport }, engine, { EvidenceState }, { EvidenceStore }, { ReportStore }, { addDays }, { logs }] =
    await Promise.all([
      compiled<typeof DailyReportModule>('reports/daily-report.js'),
      compiled<typeof EvaluateModule>('assessment/evaluate.js'),
      compiled<typeof EvidenceStateModule>('assessment/evidence-state.js'),
      compiled<typeof EvidenceStoreModule>('evidence/evidence-store.js'),
      compiled<typeof ReportStoreModule>('reports/report-store.js'),
      compiled<typeof DatesModule>('assessment/dates.js'),
      compiled<typeof LogsModule>('logs.js'),
    ]);
  // A year of runs would otherwise log a line per run and batch.
  for (const name of Object.keys(logs) as (keyof typeof logs)[]) logs[name] = () => undefined;
  return { produceDailyReport, engine, EvidenceState, EvidenceStore, ReportStore, addDays };
}

type YearModules = Awaited<ReturnType<typeof yearModules>>;
type Compiled = EvaluateModule.CompiledCatalog;

/** A day's evidence as its collectors send it. */
function dayInputs(catalog: Compiled, shape: YearShape, date: string, day: number): EvidenceInput[] {
  const kinds = [...new Set(catalog.catalog.controls.flatMap((control) => control.evidence.map((need) => need.kind)))].filter(
    (kind) => kind !== 'attestation',
  ) as (keyof typeof evidenceKinds)[];
  const collected = Date.parse(`${date}T02:00:00Z`);
  return Array.from({ length: shape.subjects }, (_, subject) => {
    const kind = kinds[subject % kinds.length]!;
    return {
      id: `s${subject}-d${day}`,
      kind,
      source: `collector-${kind}`,
      subject: `subject-${subject}`,
      collectedAt: new Date(collected + subject * 10_000).toISOString(),
      data: dataFor(evidenceKinds[kind].example as Record<string, unknown>, subject * 7919 + day),
    };
  });
}

/** Every day of history through the real ingest and daily job; the days of the period, oldest first. */
export async function seedYear(
  m: YearModules,
  store: ObjectStore,
  catalog: Compiled,
  shape: YearShape,
  log: (line: string) => void,
): Promise<string[]> {
  const evidence = new m.EvidenceStore(store);
  const started = performance.now();
  const period: string[] = [];
  for (let day = -shape.daysBefore; day < shape.days; day++) {
    const date = m.addDays(shape.from, day);
    const inputs = dayInputs(catalog, shape, date, day + shape.daysBefore);
    for (let start = 0; start < inputs.length; start += shape.batchSize) {
      const receivedAt = new Date(Date.parse(`${date}T03:00:00Z`) + (start / shape.batchSize) * 60_000);
      await evidence.ingest(inputs.slice(start, start + shape.batchSize), { receivedAt });
    }
    const now = new Date(`${date}T06:00:00Z`);
    await m.produceDailyReport({ store, catalog, timeZone: 'UTC', now, date, trigger: 'bench', evidence });
    if (day >= 0) period.push(date);
    if (day >= 0 && (day + 1) % 90 === 0)
      log(`  year: day ${day + 1} of ${shape.days} run in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return period;
}

/**
 * The days of the period evaluated again by the engine, as the verifier re-derives them: the
 * evidence folded day by day (items added as they were received up to each report's making), each
 * day evaluated with the report before it, and the result's bytes compared with the stored
 * report's. Only the folding and the evaluation are timed: the daily runs' own work.
 */
export async function evaluateYear(
  m: YearModules,
  store: ObjectStore,
  catalog: Compiled,
  shape: YearShape,
  period: readonly string[],
): Promise<{ ms: number; follow: number }> {
  const reports = new m.ReportStore(store);
  const evidence = new m.EvidenceStore(store);
  const items: EvidenceItem[] = [];
  for await (const name of evidence.batchesBetween(-Infinity, Infinity)) items.push(...(await evidence.readBatch(name)));
  items.sort((a, b) => (a.receivedAt < b.receivedAt ? -1 : a.receivedAt > b.receivedAt ? 1 : a.id < b.id ? -1 : 1));
  const stored: { bytes: Buffer; report: Report }[] = [];
  for (const date of [m.addDays(shape.from, -1), ...period]) stored.push((await reports.find(date))!);
  let state: EvidenceStateModule.EvidenceState | undefined;
  let next = 0;
  let ms = 0;
  let follow = 0;
  for (let day = 1; day < stored.length; day++) {
    const { bytes, report } = stored[day]!;
    const started = performance.now();
    const asOf = Date.parse(report.asOf);
    state ??= new m.EvidenceState(asOf);
    state.advance(asOf);
    const upTo = Date.parse(report.generatedAt);
    for (; next < items.length && Date.parse(items[next]!.receivedAt) <= upTo; next++) state.add(items[next]!);
    const derived = m.engine.evaluate(catalog, {
      date: report.date,
      timeZone: report.timeZone,
      asOf: new Date(asOf),
      generatedAt: new Date(upTo),
      runId: report.runId,
      evidence: state.items(),
      previous: stored[day - 1]!.report,
      exceptions: [],
      populations: [],
    });
    ms += performance.now() - started;
    if (Buffer.from(JSON.stringify(derived)).equals(bytes)) follow++;
  }
  return { ms, follow };
}
