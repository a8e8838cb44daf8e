/** Evidence items as newline-delimited JSON, the format of batches and checkpoints (and what BigQuery reads). */
import type { EvidenceItem } from '../assessment/model.js';

export function toNdjson(items: readonly EvidenceItem[]): string {
  return items.map((item) => `${JSON.stringify(item)}\n`).join('');
}

/** An item as read, with its line's bytes: what holding it is accounted at (assessment/evidence-state.ts). */
export interface SizedItem {
  item: EvidenceItem;
  bytes: number;
}

/** The items of an NDJSON object, line by line, without decoding the whole buffer as one string. */
export function parseNdjson(data: Buffer): EvidenceItem[] {
  return parseSizedNdjson(data).map(({ item }) => item);
}

/** The same, each with the bytes of its line. */
export function parseSizedNdjson(data: Buffer): SizedItem[] {
  const items: SizedItem[] = [];
  let start = 0;
  for (let end = data.indexOf(0x0a); end !== -1; start = end + 1, end = data.indexOf(0x0a, start)) {
    if (end > start) items.push({ item: JSON.parse(data.toString('utf8', start, end)) as EvidenceItem, bytes: end - start });
  }
  if (start < data.length)
    items.push({ item: JSON.parse(data.toString('utf8', start)) as EvidenceItem, bytes: data.length - start });
  return items;
}
