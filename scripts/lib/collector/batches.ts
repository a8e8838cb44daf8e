/**
 * Batching and idempotency: at most `--batch-size` items (≤ 500) and 4 MiB per request, never
 * across files. An evidence file's batches each carry an `Idempotency-Key` derived from the
 * file's SHA-256 and the batch's index, so running the same files again stores nothing twice
 * (OCSF findings carry their own ids instead; see ocsf-files.ts).
 */
import { createHash } from 'node:crypto';
import { maxBatchBytes, plural } from '@evident/contract';
import type { Origin, ParsedFile, SourceItem } from './evidence-files.ts';

export interface Batch {
  file: string;
  /** 0-based within the file. */
  index: number;
  /** How many batches the file makes. */
  of: number;
  items: SourceItem[];
  /** The exact request body. */
  body: string;
  /** Sent as `Idempotency-Key`; none for items that carry their own ids (see ocsf-files.ts). */
  idempotencyKey?: string;
}

export class InputError extends Error {}

/** Sets `source` on the items that have none; the others keep theirs. */
export function withSource(items: SourceItem[], source: string | undefined): SourceItem[] {
  if (source === undefined) return items;
  return items.map((entry) => (entry.item['source'] === undefined ? { ...entry, item: { ...entry.item, source } } : entry));
}

const bodyOverhead = Buffer.byteLength('{"items":[]}');

/**
 * Groups items, as they come, into batches of at most `size` items whose `{"items": [...]}` body
 * fits in `maxBytes`: what `batchItems` does to a list, for items streamed from a file.
 */
export class Batcher<T extends { item: unknown; origin?: Origin }> {
  readonly #size: number;
  readonly #maxBytes: number;
  #current: T[] = [];
  #bytes = bodyOverhead;

  constructor(size: number, maxBytes = maxBatchBytes) {
    this.#size = size;
    this.#maxBytes = maxBytes;
  }

  /** Adds an item; answers the batch it completed, if any. Throws `InputError` for an item no request can carry. */
  add(entry: T): T[] | undefined {
    const itemBytes = Buffer.byteLength(JSON.stringify(entry.item));
    if (bodyOverhead + itemBytes > this.#maxBytes) {
      const where = entry.origin ? `${entry.origin.file}:${entry.origin.line}: ` : '';
      throw new InputError(`${where}the item is ${itemBytes} bytes; a request may carry at most ${this.#maxBytes}`);
    }
    // Each item after the first also costs a comma.
    const full = this.#current.length > 0 && this.#bytes + 1 + itemBytes > this.#maxBytes ? this.finish() : undefined;
    this.#bytes += itemBytes + (this.#current.length > 0 ? 1 : 0);
    this.#current.push(entry);
    return full ?? (this.#current.length >= this.#size ? this.finish() : undefined);
  }

  /** The batch being filled, if it has any items; the next item starts a new one. */
  finish(): T[] | undefined {
    const batch = this.#current;
    this.#current = [];
    this.#bytes = bodyOverhead;
    return batch.length > 0 ? batch : undefined;
  }
}

/** Splits items, in order, into groups of at most `size` items whose `{"items": [...]}` body fits in `maxBytes`. */
export function batchItems<T extends { item: unknown; origin?: Origin }>(
  items: readonly T[],
  size: number,
  maxBytes = maxBatchBytes,
): T[][] {
  const batcher = new Batcher<T>(size, maxBytes);
  const batches: T[][] = [];
  for (const entry of items) {
    const full = batcher.add(entry);
    if (full) batches.push(full);
  }
  const last = batcher.finish();
  if (last) batches.push(last);
  return batches;
}

/**
 * The `Idempotency-Key` of a file's batch: the same file contents and batch index always give the
 * same key, so a re-run is answered from the first run's result and the server derives the same
 * item ids. (The same file sent again with other options, such as another `--source`, is a
 * different body under the same key: the server refuses it with `idempotency_key_reused`.)
 */
export function idempotencyKey(fileDigest: string, batchIndex: number): string {
  return `collect-${createHash('sha256').update(`evident-collect/1\n${fileDigest}\n${batchIndex}`).digest('hex')}`;
}

/** A parsed file's requests. Throws `InputError` for an item too large to send. */
export function planBatches(parsed: ParsedFile, size: number, source?: string, maxBytes = maxBatchBytes): Batch[] {
  const groups = batchItems(withSource(parsed.items, source), size, maxBytes);
  return groups.map((items, index) => ({
    file: parsed.file,
    index,
    of: groups.length,
    items,
    body: JSON.stringify({ items: items.map((entry) => entry.item) }),
    idempotencyKey: idempotencyKey(parsed.digest, index),
  }));
}

/** `batch 2/3 of file (lines 201-400)`. */
export function describeBatch(batch: Batch): string {
  const lines = batch.items.map((entry) => entry.origin.line);
  const first = Math.min(...lines);
  const last = Math.max(...lines);
  const range = first === last ? `line ${first}` : `lines ${first}-${last}`;
  return `${batch.file} batch ${batch.index + 1}/${batch.of} (${plural(batch.items.length, 'item')}, ${range})`;
}
