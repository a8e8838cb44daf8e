/**
 * Checkpoints of the evidence state (assessment/evidence-state.ts), one per report day, so a
 * day's evaluation starts from yesterday's state instead of from the first item ever received:
 *
 *   state/day=YYYY-MM-DD/manifest.json       what the checkpoint holds: its `asOf`, its
 *                                            `watermark` (every item received at or before it
 *                                            is folded in, none after) and its parts
 *   state/day=YYYY-MM-DD/<token>-<n>.ndjson  the state's items, at most 4 MiB per part
 *
 * Parts are written first and the manifest create-only last, so a checkpoint exists only once
 * complete and two writers leave one (the loser removes its parts). A checkpoint serves any
 * evaluation as of its `asOf` or later that counts items received up to its watermark or later.
 * Checkpoints are derived data: deleting them costs time (the next run folds from an older one,
 * or from all batches), never correctness.
 */
import { randomBytes } from 'node:crypto';
import { addDays } from '../assessment/dates.js';
import { EvidenceState } from '../assessment/evidence-state.js';
import type { EvidenceItem } from '../assessment/model.js';
import { parseSizedNdjson } from './ndjson.js';
import { inBatches, ObjectNotFound, pages, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';

export const checkpointsPrefix = 'state/';
const manifestName = (date: string) => `${checkpointsPrefix}day=${date}/manifest.json`;
const partBytes = 4 * 1024 * 1024;
/** Parts written at once: the only serialised copy of the state held is theirs, never the whole state's. */
const partsInFlight = 4;

export interface Checkpoint {
  date: string;
  asOf: number;
  watermark: number;
  state: EvidenceState;
}

interface Manifest {
  format: 'evident-state/1';
  date: string;
  asOf: string;
  watermark: string;
  items: number;
  parts: string[];
}

export interface Needs {
  /** The day evaluated: checkpoints of later days are not considered. */
  date: string;
  asOf: number;
  /** Items received up to this instant are counted. */
  receivedUpTo: number;
  /** The state's budget of bytes (assessment/evidence-state.ts); its default when absent. */
  budgetBytes?: number;
}

export class CheckpointStore {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /**
   * The newest checkpoint an evaluation can start from. Usually the day's own or the day
   * before (one read each); after a gap, the manifests of the month before are listed, and only
   * after a longer one all earlier manifests.
   */
  async latestUsable(needs: Needs): Promise<Checkpoint | undefined> {
    const yesterday = addDays(needs.date, -1);
    for (const date of [needs.date, yesterday]) {
      const manifest = await this.#manifest(date);
      if (manifest && usable(manifest, needs)) return this.#load(manifest, needs.budgetBytes);
    }
    const monthBefore = addDays(needs.date, -32);
    for (const [from, before] of [
      [monthBefore, yesterday],
      [undefined, monthBefore],
    ] as const) {
      for (const date of (await this.#datesIn(from, before)).reverse().slice(0, 5)) {
        const manifest = await this.#manifest(date);
        if (manifest && usable(manifest, needs)) return this.#load(manifest, needs.budgetBytes);
      }
    }
    return undefined;
  }

  /** Stores a checkpoint of `date` unless one exists; `false` when another writer was first. */
  async write(date: string, state: EvidenceState, watermark: number): Promise<boolean> {
    const token = randomBytes(6).toString('hex');
    const items = state.items();
    const names: string[] = [];
    const writing = new Set<Promise<unknown>>();
    for (const bytes of serialise(items)) {
      const name = `${checkpointsPrefix}day=${date}/${token}-${String(names.length).padStart(4, '0')}.ndjson`;
      names.push(name);
      const write = this.#store.create(name, bytes, { contentType: 'application/x-ndjson' });
      writing.add(write);
      void write.then(
        () => writing.delete(write),
        () => undefined,
      );
      if (writing.size >= partsInFlight) await Promise.race(writing);
    }
    await Promise.all(writing);
    const manifest: Manifest = {
      format: 'evident-state/1',
      date,
      asOf: new Date(state.asOf).toISOString(),
      watermark: new Date(watermark).toISOString(),
      items: items.length,
      parts: names,
    };
    try {
      await this.#store.create(manifestName(date), JSON.stringify(manifest), { contentType: 'application/json' });
      return true;
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      await inBatches(names, 8, (name) => this.#store.delete(name).catch(() => undefined));
      return false;
    }
  }

  /** Removes every checkpoint (the migration does, so the next run folds what it moved). */
  async clear(): Promise<number> {
    let removed = 0;
    for (;;) {
      const page = await this.#store.list(checkpointsPrefix);
      if (page.items.length === 0) return removed;
      await inBatches(page.items, 32, async ({ name }) => {
        await this.#store.delete(name).catch((error: unknown) => {
          if (!(error instanceof ObjectNotFound)) throw error;
        });
      });
      removed += page.items.length;
    }
  }

  async #manifest(date: string): Promise<Manifest | undefined> {
    try {
      return JSON.parse((await this.#store.read(manifestName(date))).data.toString('utf8')) as Manifest;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  async #load(manifest: Manifest, budgetBytes?: number): Promise<Checkpoint> {
    const state = new EvidenceState(Date.parse(manifest.asOf), budgetBytes);
    // A few parts at a time: each is parsed into the state as it arrives, then dropped.
    await inBatches(manifest.parts, 4, async (part) => {
      const { data } = await this.#store.read(part);
      for (const { item, bytes } of parseSizedNdjson(data)) state.add(item, bytes);
    });
    return { date: manifest.date, asOf: state.asOf, watermark: Date.parse(manifest.watermark), state };
  }

  /** Days from `from` (or the first) up to, not including, `before` that have a checkpoint manifest, oldest first. */
  async #datesIn(from: string | undefined, before: string): Promise<string[]> {
    const dates: string[] = [];
    const range = {
      ...(from ? { startOffset: `${checkpointsPrefix}day=${from}` } : {}),
      endOffset: `${checkpointsPrefix}day=${before}`,
    };
    for await (const page of pages(this.#store, checkpointsPrefix, range)) {
      for (const { name } of page.items) {
        const match = /^state\/day=(\d{4}-\d{2}-\d{2})\/manifest\.json$/.exec(name);
        if (match) dates.push(match[1]!);
      }
    }
    return dates;
  }
}

function usable(manifest: Manifest, needs: Needs): boolean {
  return (
    manifest.format === 'evident-state/1' &&
    manifest.date <= needs.date &&
    Date.parse(manifest.asOf) <= needs.asOf &&
    Date.parse(manifest.watermark) <= needs.receivedUpTo
  );
}

/** Items as NDJSON in parts of at most `partBytes` (one line is never split), one part at a time. */
function* serialise(items: readonly EvidenceItem[]): Generator<Buffer> {
  let lines: string[] = [];
  let size = 0;
  for (const item of items) {
    const line = `${JSON.stringify(item)}\n`;
    if (size + line.length > partBytes && lines.length > 0) {
      yield Buffer.from(lines.join(''));
      lines = [];
      size = 0;
    }
    lines.push(line);
    size += line.length;
  }
  if (lines.length > 0) yield Buffer.from(lines.join(''));
}
