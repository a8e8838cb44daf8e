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
 *
 * Memory is bounded twice: the state by its budget of bytes (assessment/evidence-state.ts), and
 * the batches read at once by their count and their bytes. A state that had to set items aside
 * is not saved as a checkpoint (which items it set aside depends on the order it read them), so
 * the next run reads them again and sets aside again until the evidence fits.
 */
import { EvidenceState } from '../assessment/evidence-state.js';
import type { EvidenceItem, SetAsideEvidence } from '../assessment/model.js';
import { logs } from '../logs.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { batchReceivedAt, utcDay } from './evidence-layout.js';
import type { EvidenceStore } from './evidence-store.js';
import type { SizedItem } from './ndjson.js';

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
  /** The state's budget of bytes; `maxLiveEvidenceBytes` when absent (tests give a small one). */
  budgetBytes?: number;
}

export interface Snapshot {
  items: EvidenceItem[];
  /** What the state set aside to keep to its budget; absent when nothing was. */
  setAside?: SetAsideEvidence;
  /** The checkpoint started from, if any. */
  from?: { date: string; watermark: string };
  batches: number;
  /** Items read from batches since the checkpoint. */
  received: number;
  checkpointWritten: boolean;
}

/** Batches read at once: enough to hide latency, few enough to bound memory. */
const parallelReads = 16;
/** And no more bytes of them than this: an import's batch may hold 16 MiB. */
const parallelReadBytes = 32 * 1024 * 1024;
/** A checkpoint is kept only for evaluations of the present, not for backfills of long-past days. */
const maxCheckpointLagMs = 24 * 60 * 60 * 1000;

export async function loadSnapshot(options: SnapshotOptions): Promise<Snapshot> {
  const { evidence, checkpoints } = options;
  const asOf = options.asOf.getTime();
  const upTo = options.receivedUpTo.getTime();
  const now = options.now ?? Date.now;
  const budget = options.budgetBytes === undefined ? {} : { budgetBytes: options.budgetBytes };
  const base = await checkpoints.latestUsable({ date: options.date, asOf, receivedUpTo: upTo, ...budget });
  const state = base?.state ?? new EvidenceState(asOf, options.budgetBytes);
  state.advance(asOf);
  const after = base?.watermark ?? -Infinity;
  const watermark = upTo - evidence.settleMs;
  const checkpointing = options.checkpoint === true && watermark > after && upTo - asOf <= maxCheckpointLagMs;

  // Items the new checkpoint may vouch for go straight into the state; the last few minutes'
  // arrivals wait until it is written, and their batches are read again then rather than held.
  const later: { name: string; size: number }[] = [];
  const indexed = new Map<string, Promise<Set<string>>>();
  let batches = 0;
  let received = 0;
  await readBatches(evidence, evidence.batchObjectsBetween(after, upTo), async (batch, lines) => {
    batches++;
    let waiting = false;
    for (const line of lines) {
      const arrived = Date.parse(line.item.receivedAt);
      if (arrived > upTo) continue;
      received++;
      if (!checkpointing || arrived <= watermark) state.add(line.item, line.bytes);
      else waiting = true;
    }
    if (waiting) later.push(batch);
    const items = lines.map((line) => line.item);
    await repairIndex(evidence, batch.name, items, indexed, now());
  });

  let checkpointWritten = false;
  // Which items a state over its budget set aside depends on the order it read them: never saved.
  if (checkpointing && state.setAside === undefined) checkpointWritten = await checkpoints.write(options.date, state, watermark);
  await readBatches(evidence, later, (_batch, lines) => {
    for (const { item, bytes } of lines) {
      const arrived = Date.parse(item.receivedAt);
      if (arrived > watermark && arrived <= upTo) state.add(item, bytes);
    }
  });
  const setAside = state.setAside;
  if (setAside) logs.evidenceSetAside(options.date, setAside.items, setAside.bytes, setAside.budgetBytes);
  return {
    items: state.items(),
    ...(setAside ? { setAside } : {}),
    ...(base ? { from: { date: base.date, watermark: new Date(base.watermark).toISOString() } } : {}),
    batches,
    received,
    checkpointWritten,
  };
}

type Listed = { name: string; size: number };

/** Reads batches a few at a time, bounded by count and bytes, handing each to `each` in the order listed. */
async function readBatches(
  evidence: EvidenceStore,
  listed: AsyncIterable<Listed> | Iterable<Listed>,
  each: (batch: Listed, lines: readonly SizedItem[]) => void | Promise<void>,
): Promise<void> {
  const pending: Listed[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    const reading = pending.splice(0);
    pendingBytes = 0;
    const contents = await Promise.all(reading.map(({ name }) => evidence.readSizedBatch(name)));
    for (const [n, lines] of contents.entries()) await each(reading[n]!, lines);
  };
  for await (const batch of listed) {
    if (pending.length > 0 && pendingBytes + batch.size > parallelReadBytes) await flush();
    pending.push(batch);
    pendingBytes += batch.size;
    if (pending.length >= parallelReads) await flush();
  }
  await flush();
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
