/** Evidence items as newline-delimited JSON, the format of batches and checkpoints (and what BigQuery reads). */
import type { EvidenceItem } from '../assessment/model.js';

export function toNdjson(items: readonly EvidenceItem[]): string {
  return items.map((item) => `${JSON.stringify(item)}\n`).join('');
}

/** The items of an NDJSON object, line by line, without decoding the whole buffer as one string. */
export function parseNdjson(data: Buffer): EvidenceItem[] {
  const items: EvidenceItem[] = [];
  let start = 0;
  for (let end = data.indexOf(0x0a); end !== -1; start = end + 1, end = data.indexOf(0x0a, start)) {
    if (end > start) items.push(JSON.parse(data.toString('utf8', start, end)) as EvidenceItem);
  }
  if (start < data.length) items.push(JSON.parse(data.toString('utf8', start)) as EvidenceItem);
  return items;
}
