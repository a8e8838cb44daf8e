/**
 * Batching and idempotency: at most `--batch-size` items (≤ 500) and 4 MiB per request, never
 * across files, each with an `Idempotency-Key` derived from the file's SHA-256 and the batch's
 * index, so running the same files again stores nothing twice.
 */
import { createHash } from 'node:crypto';
import { maxBatchBytes, plural } from '../../../functions/src/contract.ts';
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
  idempotencyKey: string;
}

export class InputError extends Error {}

/** Sets `source` on the items that have none; the others keep theirs. */
export function withSource(items: SourceItem[], source: string | undefined): SourceItem[] {
  if (source === undefined) return items;
  return items.map((entry) => (entry.item['source'] === undefined ? { ...entry, item: { ...entry.item, source } } : entry));
}

/** Splits items, in order, into groups of at most `size` items whose `{"items": [...]}` body fits in `maxBytes`. */
export function batchItems<T extends { item: unknown; origin?: Origin }>(
  items: readonly T[],
  size: number,
  maxBytes = maxBatchBytes,
): T[][] {
  const overhead = Buffer.byteLength('{"items":[]}');
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = overhead;
  for (const entry of items) {
    const itemBytes = Buffer.byteLength(JSON.stringify(entry.item));
    if (overhead + itemBytes > maxBytes) {
      const where = entry.origin ? `${entry.origin.file}:${entry.origin.line}: ` : '';
      throw new InputError(`${where}the item is ${itemBytes} bytes; a request may carry at most ${maxBytes}`);
    }
    // Each item after the first also costs a comma.
    if (current.length > 0 && (current.length >= size || bytes + 1 + itemBytes > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = overhead;
    }
    bytes += itemBytes + (current.length > 0 ? 1 : 0);
    current.push(entry);
  }
  if (current.length > 0) batches.push(current);
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
