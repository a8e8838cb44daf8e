/**
 * What evaluation needs from the run store as of a report's cut-off (assessment/populations.ts):
 * for each source and kind, its newest complete population that ended before the cut-off, with
 * the drop it made and whether that was acknowledged before the cut-off, and the newest run that
 * had ended (or been abandoned) by then when it was not complete.
 *
 * Records are create-only and everything is judged by the times they carry, so the same cut-off
 * gives the same answer however late it is asked: a retried analysis, or an auditor's
 * re-derivation, sees the populations the report saw.
 *
 * Reads: one `list` of the sources (or none, given them); per source, one `list` of its kinds, one of its newest runs
 * and two reads per run until each kind is decided (usually the newest run decides them all); per
 * (source, kind), one `list` of its newest index entry, the population and its run's end record
 * (read once per run, and not again when the run was read above), and an acknowledgement when
 * there is a drop. Nothing grows with the history.
 */
import type { CollectionRunIncompleteReason } from '@evident/contract';
import type { SourcePopulation } from '../assessment/model.js';
import { idOfKey, invertedTime } from '../storage/newest-first.js';
import { inBatches, listAll, ObjectNotFound, type ObjectStore } from '../storage/object-store.js';
import {
  acknowledgementObjectName,
  endObjectName,
  openedAtOfRun,
  populationObjectName,
  populationsIndexPrefix,
  runObjectName,
  segmentIndexPrefix,
  segmentOfMarker,
  sourceKindsPrefix,
  sourcesPrefix,
} from './run-layout.js';
import type { CollectionRun, Population } from './run-store.js';

/** How far back among a source's newest runs a kind is looked for before it counts as never run. */
const runsLooked = 20;
const runsPerRead = 2;
const parallelSources = 16;

type Opened = Pick<CollectionRun, 'id' | 'source' | 'kinds' | 'expiresAt'>;
type Ended = Pick<CollectionRun, 'endedAt' | 'drops' | 'incompleteReason'> & { status: string; endedAt: string };
type Decided =
  { status: 'complete' } | { status: 'incomplete'; runId: string; reason: CollectionRunIncompleteReason; endedAt: string };

/**
 * The sources that have opened runs: one listing. Their markers are never removed, so a listing
 * made now holds every source an earlier cut-off saw, and a source with no run before a cut-off
 * gives nothing for it: one listing serves the cut-offs of many days (an audit package's).
 */
export async function populationSources(store: ObjectStore): Promise<string[]> {
  return (await listAll(store, sourcesPrefix)).map((info) => segmentOfMarker(info.name));
}

/** `sources`: from `populationSources`, when many cut-offs are asked about; listed when absent. */
export async function populationsAsOf(store: ObjectStore, asOf: Date, sources?: readonly string[]): Promise<SourcePopulation[]> {
  const cutoff = asOf.getTime();
  const segments = sources ?? (await populationSources(store));
  const perSource = await inBatches(segments, parallelSources, (segment) => sourcePopulations(store, segment, cutoff));
  return perSource.flat().sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.kind < b.kind ? -1 : 1));
}

/** A source's end records, each read once however many of its kinds a run ended. */
type EndRecords = (runId: string) => Promise<Ended | undefined>;

async function sourcePopulations(store: ObjectStore, segment: string, cutoff: number): Promise<SourcePopulation[]> {
  const read = new Map<string, Promise<Ended | undefined>>();
  const endOf: EndRecords = (runId) => {
    if (!read.has(runId)) read.set(runId, readJson<Ended>(store, endObjectName(runId)));
    return read.get(runId)!;
  };
  const { source, decided } = await newestEndedRuns(store, segment, cutoff, endOf);
  if (source === undefined) return [];
  const populations = await Promise.all(
    [...decided].map(async ([kind, newest]): Promise<SourcePopulation | undefined> => {
      const complete = await newestComplete(store, { source, kind, cutoff }, endOf);
      if (!newest && !complete) return undefined;
      return {
        source,
        kind,
        ...(complete ? { complete } : {}),
        ...(newest?.status === 'incomplete'
          ? { incomplete: { runId: newest.runId, reason: newest.reason, endedAt: newest.endedAt } }
          : {}),
      };
    }),
  );
  return populations.filter((population) => population !== undefined);
}

/**
 * Per kind the source has opened runs with, how its newest run that had ended by the cut-off
 * ended; a kind none of its newest runs opened is judged on its complete populations alone.
 */
async function newestEndedRuns(
  store: ObjectStore,
  segment: string,
  cutoff: number,
  endOf: EndRecords,
): Promise<{ source: string | undefined; decided: Map<string, Decided | undefined> }> {
  const prefix = segmentIndexPrefix(segment);
  const kindsPrefix = sourceKindsPrefix(segment);
  // Keys sort newest opening first: those from the cut-off's key on opened before it.
  const [page, kindMarkers] = await Promise.all([
    store.list(prefix, { pageSize: runsLooked, startOffset: `${prefix}${invertedTime(cutoff - 1)}` }),
    listAll(store, kindsPrefix),
  ]);
  const ids = page.items.map((info) => idOfKey(info.name.slice(prefix.length)));
  const kinds = kindMarkers.map((info) => info.name.slice(kindsPrefix.length));
  const decided = new Map<string, Decided | undefined>();
  let source: string | undefined;
  // A source whose runs all opened before kinds were marked (API 1.16.0) has no markers: its
  // newest runs are all read, and their kinds are the ones it has.
  const unmarked = kinds.length === 0;
  for (let at = 0; at < ids.length && (unmarked || decided.size < kinds.length); at += runsPerRead) {
    const runs = await Promise.all(ids.slice(at, at + runsPerRead).map((id) => readRun(store, id, endOf)));
    for (const { opened, ended } of runs) {
      source ??= opened.source;
      const outcome = outcomeAt(opened, ended, cutoff);
      if (outcome === undefined) continue; // still running at the cut-off: it decides nothing yet
      for (const kind of opened.kinds) if (!decided.has(kind)) decided.set(kind, outcome);
    }
  }
  // Only kinds some run opened before the cut-off have a population then.
  if (source !== undefined)
    for (const kind of kinds) if (!decided.has(kind) && ids.length === runsLooked) decided.set(kind, undefined);
  return { source, decided };
}

/** How a run stood at the cut-off: ended complete or not, abandoned, or (undefined) still running. */
function outcomeAt(opened: Opened, ended: Ended | undefined, cutoff: number): Decided | undefined {
  if (ended && Date.parse(ended.endedAt) < cutoff) {
    if (ended.status === 'complete') return { status: 'complete' };
    const reason = ended.incompleteReason ?? 'cancelled';
    return { status: 'incomplete', runId: opened.id, reason, endedAt: ended.endedAt };
  }
  if (Date.parse(opened.expiresAt) <= cutoff) {
    return { status: 'incomplete', runId: opened.id, reason: 'abandoned', endedAt: opened.expiresAt };
  }
  return undefined;
}

/** The newest complete population of a (source, kind) that ended before the cut-off, with its drop. */
async function newestComplete(
  store: ObjectStore,
  { source, kind, cutoff }: { source: string; kind: string; cutoff: number },
  endOf: EndRecords,
): Promise<SourcePopulation['complete'] | undefined> {
  const prefix = populationsIndexPrefix(source, kind);
  const newest = (await store.list(prefix, { pageSize: 1, startOffset: `${prefix}${invertedTime(cutoff - 1)}` })).items[0];
  if (!newest) return undefined;
  const runId = idOfKey(newest.name.slice(prefix.length));
  const [population, seen] = await Promise.all([readJson<Population>(store, populationObjectName(runId, kind)), endOf(runId)]);
  // Indexed means ended: a run read as running above has completed since, so its record is read now.
  const ended = seen ?? (await readJson<Ended>(store, endObjectName(runId)))!;
  const drop = ended.drops?.find((candidate) => candidate.kind === kind);
  const acknowledgement = drop && (await readJson<{ at: string }>(store, acknowledgementObjectName(runId, kind)));
  return {
    runId,
    openedAt: openedAtOfRun(runId),
    endedAt: ended.endedAt,
    count: population!.count,
    sha256: population!.sha256,
    subjects: new Set(population!.subjects),
    ...(drop
      ? {
          drop: {
            previousRunId: drop.previousRunId,
            previousCount: drop.previousCount,
            percent: drop.percent,
            acknowledged: acknowledgement !== undefined && Date.parse(acknowledgement.at) < cutoff,
          },
        }
      : {}),
  };
}

async function readRun(store: ObjectStore, id: string, endOf: EndRecords): Promise<{ opened: Opened; ended: Ended | undefined }> {
  const [opened, ended] = await Promise.all([readJson<Opened>(store, runObjectName(id)), endOf(id)]);
  return { opened: opened!, ended };
}

async function readJson<T>(store: ObjectStore, name: string): Promise<T | undefined> {
  try {
    return JSON.parse((await store.read(name)).data.toString('utf8')) as T;
  } catch (error) {
    if (error instanceof ObjectNotFound) return undefined;
    throw error;
  }
}
