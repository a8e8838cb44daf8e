/**
 * What it takes to re-derive every report of an audit package (verify-package.ts does): the
 * catalog the reports name, the report before the period (the first day's diff), per day the
 * exceptions in force and the collection-run populations its evaluation saw, and the evidence —
 * the state at the start of the period (the items a day's evaluation could still pick, with
 * their receivedAt) and every item received after, up to the last report's making.
 *
 *   catalog/catalog.json                             the compiled catalog: controls, checks' CEL, frameworks
 *   inputs/previous/<date>.json                      the report before the period, as stored
 *   inputs/exceptions/<date>.json                    the exceptions in force for that day's report
 *   inputs/populations/<date>.json                   the collection-run populations as of its cut-off
 *   inputs/populations/runs/<run>/<kind>.json        a complete population's subjects, once per run and kind
 *   evidence/<kind>/<subject>/<date>-<id>.json       each item: kind, subject, the day it was collected, its id
 *
 * Reads: one listing of the batches received in the period (a page per thousand), each batch once, the
 * state at the start as the daily job loads it (a checkpoint and the batches after it), the
 * exception indexes once, the sources of collection runs once, and each day's populations from
 * them (runs/population-inputs.ts: nothing a day for a store with no collection runs). Memory holds a
 * few batches, the state at the start and the ids written (for the cited items the batches lack).
 */
import type { ActiveException } from '../assessment/exceptions.js';
import type { EvidenceItem } from '../assessment/model.js';
import { CheckpointStore } from '../evidence/checkpoint-store.js';
import { EvidenceState } from '../assessment/evidence-state.js';
import { batchReceivedAt } from '../evidence/evidence-layout.js';
import { ExceptionStore } from '../exceptions/exception-store.js';
import { populationsAsOf, populationSources } from '../runs/population-inputs.js';
import { inBatchesAhead, type ObjectStore } from '../storage/object-store.js';
import { SubmissionStore } from '../submissions/submission-store.js';
import type { EvidenceStore } from '../evidence/evidence-store.js';
import {
  evidenceItemPath,
  exceptionsPath,
  populationsInputPath,
  populationSubjectsPath,
  submissionReviewsPath,
  type PopulationInput,
} from './package-paths.js';
import type { ArchiveFile } from './zip-writer.js';

/**
 * An item's file: its JSON, readable. Stored, not deflated: an item is some 400 bytes, and a
 * year's 91,000 of them inflated one by one cost the verifier half a second (zlib's set-up for
 * each) for 14 MB saved in a 60 MB zip.
 */
export const evidenceFile = (item: EvidenceItem): ArchiveFile => ({
  path: evidenceItemPath(item),
  data: Buffer.from(JSON.stringify(item, null, 2)),
  modified: new Date(item.receivedAt),
  compress: false,
});

/** A day's report as the inputs know it: when it was made and as of when. */
export interface ReportDay {
  date: string;
  asOf: string;
  generatedAt: string;
}

/** The evidence the days need, as the daily job folds it: the state at `start`, then every batch up to `upTo`. */
export interface EvidenceWindow {
  /** The first report day, the earliest cut-off and the earliest making among the reports. */
  date: string;
  asOf: Date;
  start: Date;
  /** The latest making among the reports: nothing received after it counts for any. */
  upTo: Date;
}

export function evidenceWindowOf(days: readonly ReportDay[]): EvidenceWindow | undefined {
  if (days.length === 0) return undefined;
  const earliest = (values: string[]) => new Date(Math.min(...values.map((value) => Date.parse(value))));
  return {
    date: days[0]!.date,
    asOf: earliest(days.map((day) => day.asOf)),
    start: earliest(days.map((day) => day.generatedAt)),
    upTo: new Date(Math.max(...days.map((day) => Date.parse(day.generatedAt)))),
  };
}

/** What the evidence files held, for the manifest. */
export interface EvidenceCounts {
  /** Items of the state at the start (received up to `start`). */
  atStart: number;
  /** Items received after it, up to `upTo`. */
  received: number;
}

/** Batches read at a time: each may hold thousands of items, so a few. */
const batchesAhead = 4;

/**
 * Every item of the state at the start, then every item received after it, each once, noting
 * each path written by id (`written`) and handing each item to `onItem`. Items of the state
 * arrive in id order, the rest in arrival order.
 *
 * The state at the start is folded as the daily job folds it (evidence/evidence-snapshot.ts): the
 * newest usable checkpoint, then the batches named after its watermark up to `start`, their
 * items received up to `start`. The batches after `start` follow in the same listing, from the
 * checkpoint's watermark to `upTo`, rather than being listed again for them.
 */
export async function* evidenceInputFiles(
  sources: { store: ObjectStore; evidence: EvidenceStore },
  window: EvidenceWindow,
  written: Map<string, string>,
  counts: EvidenceCounts,
  onItem: (item: EvidenceItem) => void = () => undefined,
): AsyncGenerator<ArchiveFile> {
  const asOf = window.asOf.getTime();
  const start = window.start.getTime();
  const upTo = window.upTo.getTime();
  const base = await new CheckpointStore(sources.store).latestUsable({ date: window.date, asOf, receivedUpTo: start });
  const state = base?.state ?? new EvidenceState(asOf);
  state.advance(asOf);
  let stateWritten = false;
  const names: string[] = [];
  for await (const { name } of sources.evidence.batchObjectsBetween(base?.watermark ?? -Infinity, upTo)) names.push(name);
  const received = names.findIndex((name) => batchReceivedAt(name)! > start);
  const firstAfter = received < 0 ? names.length : received;
  function* atStart(folded: EvidenceState): Generator<ArchiveFile> {
    for (const item of folded.items()) {
      if (written.has(item.id)) continue;
      const file = evidenceFile(item);
      written.set(item.id, file.path);
      counts.atStart += 1;
      onItem(item);
      yield file;
    }
  }
  let batch = 0;
  for await (const lines of inBatchesAhead(names, batchesAhead, (name) => sources.evidence.readSizedBatch(name))) {
    if (batch++ < firstAfter) {
      for (const { item, bytes } of lines) if (Date.parse(item.receivedAt) <= start) state.add(item, bytes);
      continue;
    }
    if (!stateWritten) yield* atStart(state);
    stateWritten = true;
    for (const { item } of lines) {
      if (Date.parse(item.receivedAt) > upTo || written.has(item.id)) continue;
      const file = evidenceFile(item);
      written.set(item.id, file.path);
      counts.received += 1;
      onItem(item);
      yield file;
    }
  }
  if (!stateWritten) yield* atStart(state);
}

/**
 * The reviews of the submissions among the packaged evidence, by submission id, each with its
 * decision and when: a report made with reviews required counted an attestation only when its
 * review was an acceptance before the report's cut-off, so re-deriving it takes them. One read per
 * packaged submission (a review is written once beside it), never a listing of every review.
 */
export async function submissionReviewsFile(
  sources: { store: ObjectStore; evidence: EvidenceStore },
  submissions: ReadonlySet<string>,
  modified: Date,
): Promise<ArchiveFile> {
  const decisions = await new SubmissionStore(sources.store, sources.evidence).decisions(submissions);
  const sorted = [...decisions].sort(([a], [b]) => a.localeCompare(b));
  return { path: submissionReviewsPath, data: Buffer.from(JSON.stringify(Object.fromEntries(sorted), null, 2)), modified };
}

/**
 * Per report day, the exceptions in force and the populations its evaluation saw; each complete
 * population's subjects once per run and kind. Everything is judged by the times records carry,
 * so asked now it answers what the day's evaluation saw.
 */
export async function* dayInputFiles(
  sources: { store: ObjectStore },
  days: readonly ReportDay[],
  modified: Date,
): AsyncGenerator<ArchiveFile> {
  const cutoffs = days.map(({ date, asOf }) => ({ date, asOf: new Date(asOf) }));
  const inForce = await new ExceptionStore(sources.store).inForceEach(cutoffs);
  // Listed once for every day, not once a day.
  const populationsFrom = await populationSources(sources.store);
  const subjectsWritten = new Set<string>();
  const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2));
  for (const [n, { date, asOf }] of cutoffs.entries()) {
    yield { path: exceptionsPath(date), data: json(inForce[n] satisfies ActiveException[] | undefined), modified };
    const populations = await populationsAsOf(sources.store, asOf, populationsFrom);
    const inputs: PopulationInput[] = [];
    for (const population of populations) {
      const { complete, ...rest } = population;
      if (!complete) {
        inputs.push(rest);
        continue;
      }
      const path = populationSubjectsPath(complete.runId, population.kind);
      if (!subjectsWritten.has(path)) {
        subjectsWritten.add(path);
        yield { path, data: json([...complete.subjects].sort()), modified };
      }
      inputs.push({ ...rest, complete: { ...complete, subjects: path } });
    }
    yield { path: populationsInputPath(date), data: json(inputs), modified };
  }
}
