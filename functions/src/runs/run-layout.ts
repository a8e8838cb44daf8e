/**
 * Where collection runs live in the object store (docs/storage.md describes it for people).
 * Every object is written create-only, so a run's history is append-only like its evidence:
 *
 *   runs/<id>/run.json
 *       The run as opened: source, kinds, who opened it, when it expires.
 *   runs/<id>/receipts/<digest>.json
 *       One per accepted batch: the ids and subjects of its items, per kind. Named by a digest of
 *       the item ids, so a retried batch finds its receipt written and writes nothing; the
 *       object's `items` metadata is how many items it names, which a listing gives for free.
 *   runs/<id>/end.json
 *       How the run ended (completed or cancelled), by whom, with its counts. Create-only: of
 *       two requests ending a run at once, exactly one wins.
 *   runs/<id>/population/<kind>.json
 *       A complete run's subjects of one kind: sorted, counted and hashed, so the population of
 *       a (source, kind) is one read.
 *   runs/<id>/acknowledgements/<kind>.json
 *       Who acknowledged the run's population drop of one kind, when and why. Create-only: of two
 *       acknowledgements at once, exactly one wins.
 *   populations-index/<source segment>/<kind>/<key>
 *       Empty objects, one per complete run and kind, whose names sort newest completion first;
 *       their metadata holds the population's `count` and `sha256`. The newest complete population
 *       of a (source, kind), and the one before it, are one `list` of two.
 *   runs-index/source/<source segment>/<key>
 *       Empty objects whose names sort newest opening first: a source's runs page by one `list`.
 *   runs-kinds/<source segment>/<kind>
 *       Empty objects, one per kind a source has opened a run with, written when it first does:
 *       the kinds whose populations a report reads, by one `list`, without reading any run.
 *   runs-sources/<source segment>.json
 *       One per source that has opened a run, written when its first run opens: the sources
 *       page by one `list`, in segment order, without listing any run. It holds the source's name.
 */
import { createHash, randomBytes } from 'node:crypto';
import { collectionRunIdPattern } from '@evident/contract';
import { valueSegment } from '../evidence/evidence-layout.js';
import { newestFirstKey } from '../storage/newest-first.js';

const runsPrefix = 'runs/';

export const runObjectName = (id: string) => `${runsPrefix}${id}/run.json`;
export const endObjectName = (id: string) => `${runsPrefix}${id}/end.json`;
export const receiptsPrefix = (id: string) => `${runsPrefix}${id}/receipts/`;
export const populationObjectName = (id: string, kind: string) => `${runsPrefix}${id}/population/${kind}.json`;
export const acknowledgementObjectName = (id: string, kind: string) => `${runsPrefix}${id}/acknowledgements/${kind}.json`;
export const populationsIndexPrefix = (source: string, kind: string) => `populations-index/${valueSegment(source)}/${kind}/`;
export const segmentIndexPrefix = (segment: string) => `runs-index/source/${segment}/`;
export const sourceIndexPrefix = (source: string) => segmentIndexPrefix(valueSegment(source));
export const sourcesPrefix = 'runs-sources/';
export const sourceKindsPrefix = (segment: string) => `runs-kinds/${segment}/`;
export const sourceKindMarkerName = (source: string, kind: string) => `${sourceKindsPrefix(valueSegment(source))}${kind}`;
export const sourceMarkerName = (source: string) => `${sourcesPrefix}${valueSegment(source)}.json`;

/** The source segment a marker's name holds. */
export const segmentOfMarker = (name: string) => name.slice(sourcesPrefix.length, -'.json'.length);

/** Whether text has the shape of a source segment (evidence-layout.ts `valueSegment`): a sources page's place. */
export const isSourceSegment = (text: string) => /^(v-[A-Za-z0-9%._~!*'()-]{1,120}|h-[0-9a-f]{40})$/.test(text);

/** A batch's receipt, named by its item ids whatever their order. */
export function receiptObjectName(id: string, itemIds: readonly string[]): string {
  const digest = createHash('sha256')
    .update([...itemIds].sort().join('\n'))
    .digest('hex');
  return `${receiptsPrefix(id)}${digest.slice(0, 40)}.json`;
}

/** A new run id that sorts by opening time: `run-` + base36 milliseconds + randomness. */
export function newRunId(now: Date): string {
  return `run-${now.getTime().toString(36).padStart(9, '0')}-${randomBytes(6).toString('hex')}`;
}

const runIdShape = new RegExp(collectionRunIdPattern);

/** A complete population's place in its (source, kind) index: newest completion first. */
export const populationKey = (runId: string, endedAt: string) => newestFirstKey(Date.parse(endedAt), runId);

/** A run's place in its source's listing, from the opening time its id records; undefined for a malformed id. */
export function runKey(id: string): string | undefined {
  if (!runIdShape.test(id)) return undefined;
  return newestFirstKey(parseInt(id.slice(4, 13), 36), id);
}

/** When a run opened, as its id records it (to the millisecond). */
export const openedAtOfRun = (id: string) => new Date(parseInt(id.slice(4, 13), 36)).toISOString();
