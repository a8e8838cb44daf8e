/**
 * The evidence an evaluation needs, read in proportion to what changed: the newest checkpoint
 * it can start from, plus the batches received since that checkpoint's watermark — never the
 * whole history (that happens once, on a store with no checkpoint at all).
 *
 * The result equals folding every item received up to `receivedUpTo`: a checkpoint holds
 * exactly the items received up to its watermark, and the batches after it hold the rest.
 * That rests on one promise of the evidence store: a batch is visible within `settleMs` of the
 * time it is named after. So a checkpoint written now only vouches for items received up to
 * `settleMs` ago; the newer ones are read again next time.
 *
 * On the way it repairs what a writer that died mid-ingest left undone: a batch older than
 * `settleMs` with no "indexed" marker gets its listing index entries.
 */
import { EvidenceState } from '../assessment/evidence-state.js';
import type { EvidenceItem } from '../assessment/model.js';
import { logs } from '../logs.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { batchReceivedAt, utcDay } from './evidence-layout.js';
import type { EvidenceStore } from './evidence-store.js';

export interface SnapshotOptions {
  evidence: EvidenceStore;
  checkpoints: CheckpointStore;
  /** The report day the evaluation is for. */
  date: string;
  /** Items collected before this instant count. */
  asOf: Date;
  /** Items received up to this instant count. */
  receivedUpTo: Date;
  /** Store a checkpoint of `date` for the runs that follow (the daily job does; analyses do not). */
  checkpoint?: boolean;
  /** The wall clock, for repairs: a batch younger than `settleMs` may still be being indexed. */
  now?: () => number;
}

export interface Snapshot {
  items: EvidenceItem[];
  /** The checkpoint started from, if any. */
  from?: { date: string; watermark: string };
  batches: number;
  /** Items read from batches since the checkpoint. */
  received: number;
  checkpointWritten: boolean;
}

/** Batches read at once: enough to hide latency, few enough to bound memory. */
const parallelReads = 16;
/** A checkpoint is kept only for evaluations of the present, not for backfills of long-past days. */
const maxCheckpointLagMs = 24 * 60 * 60 * 1000;

export async function loadSnapshot(options: SnapshotOptions): Promise<Snapshot> {
  const { evidence, checkpoints } = options;
  const asOf = options.asOf.getTime();
  const upTo = options.receivedUpTo.getTime();
  const now = options.now ?? Date.now;
  const base = await checkpoints.latestUsable({ date: options.date, asOf, receivedUpTo: upTo });
  const state = base?.state ?? new EvidenceState(asOf);
  state.advance(asOf);
  const after = base?.watermark ?? -Infinity;
  const watermark = upTo - evidence.settleMs;

  // Items the new checkpoint may vouch for go straight into the state; the last few minutes'
  // arrivals wait until it is written.
  const recent: EvidenceItem[] = [];
  let batches = 0;
  let received = 0;
  const indexed = new Map<string, Promise<Set<string>>>();
  const names: string[] = [];
  const flush = async () => {
    const reading = names.splice(0);
    const contents = await Promise.all(reading.map((name) => evidence.readBatch(name)));
    for (const [n, items] of contents.entries()) {
      batches++;
      for (const item of items) {
        const arrived = Date.parse(item.receivedAt);
        if (arrived > upTo) continue;
        received++;
        if (arrived <= watermark) state.add(item);
        else recent.push(item);
      }
      await repairIndex(evidence, reading[n]!, items, indexed, now());
    }
  };
  for await (const name of evidence.batchesBetween(after, upTo)) {
    names.push(name);
    if (names.length >= parallelReads) await flush();
  }
  await flush();

  let checkpointWritten = false;
  if (options.checkpoint && watermark > after && upTo - asOf <= maxCheckpointLagMs) {
    checkpointWritten = await checkpoints.write(options.date, state, watermark);
  }
  for (const item of recent) state.add(item);
  return {
    items: state.items(),
    ...(base ? { from: { date: base.date, watermark: new Date(base.watermark).toISOString() } } : {}),
    batches,
    received,
    checkpointWritten,
  };
}

async function repairIndex(
  evidence: EvidenceStore,
  batch: string,
  items: readonly EvidenceItem[],
  indexed: Map<string, Promise<Set<string>>>,
  now: number,
): Promise<void> {
  const arrived = batchReceivedAt(batch);
  if (arrived === undefined || now - arrived <= evidence.settleMs) return;
  const day = utcDay(arrived);
  let known = indexed.get(day);
  if (!known) indexed.set(day, (known = evidence.indexedBatches(day)));
  if ((await known).has(batch)) return;
  await evidence.writeIndex(batch, items);
  logs.evidenceIndexRepaired(batch, items.length);
}
