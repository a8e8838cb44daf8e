/**
 * Where evidence lives in the object store. Every name the evidence code reads or writes is
 * made here, so the layout is written down once (docs/storage.md describes it for people).
 *
 *   evidence/received=YYYY-MM-DD/<stamp>-<token>.ndjson
 *       The items, one JSON line each, in one object per ingest batch, partitioned by the UTC day
 *       they were received. `<stamp>` is the batch's receivedAt (`20261123T061502123Z`), so names
 *       sort by arrival and a range of arrival times is a range of names. This is what the daily
 *       job reads (only the batches since its last checkpoint) and what BigQuery reads as a
 *       hive-partitioned NDJSON table.
 *   evidence-ids/<id>.json
 *       One object per item id, written create-only before its batch: the item itself, with its
 *       batch and content fingerprint in the object's metadata. It makes ingest idempotent and
 *       serves `GET /api/evidence/{id}` in one read.
 *   evidence-index/<dimension>/[<value>/]<key>
 *       Empty objects whose names sort newest `collectedAt` first (`<key>` = inverted time + id)
 *       and whose metadata holds the item's kind, subject, source and controls. A listing page
 *       is one `list` of the right index and one read per item shown.
 *   evidence-index/indexed/received=YYYY-MM-DD/<batch file>
 *       Marks a batch whose index entries are all written (the daily job repairs any that lack it).
 *   evidence-keys/<sha256 of Idempotency-Key>.json
 *       What a key was first used for, and the outcome to answer its retries with.
 *
 * Nothing but batches lives under `evidence/`, so that a table over `gs://<bucket>/evidence/*`
 * sees only items.
 */
import { createHash } from 'node:crypto';
import { newestFirstKey } from '../storage/newest-first.js';

export const partitionsPrefix = 'evidence/';
const claimsPrefix = 'evidence-ids/';
export const indexPrefix = 'evidence-index/';
export const keysPrefix = 'evidence-keys/';
const indexedPrefix = `${indexPrefix}indexed/`;

/** `YYYY-MM-DD` of an instant, in UTC: partitions follow UTC days whatever the report time zone. */
export const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** `20261123T061502123Z`: an instant as a name segment that sorts in time order. */
export const stampOf = (time: number) => new Date(time).toISOString().replace(/[-:.]/g, '');

export const partitionPrefix = (day: string) => `${partitionsPrefix}received=${day}/`;

export function batchObjectName(receivedAt: number, token: string): string {
  return `${partitionPrefix(utcDay(receivedAt))}${stampOf(receivedAt)}-${token}.ndjson`;
}

const batchPattern = /^evidence\/received=(\d{4}-\d{2}-\d{2})\/(\d{8}T\d{9}Z)-[A-Za-z0-9]+\.ndjson$/;

/** The arrival time a batch's name records, or undefined for a name that is not a batch. */
export function batchReceivedAt(name: string): number | undefined {
  const match = batchPattern.exec(name);
  if (!match) return undefined;
  const stamp = match[2]!;
  const iso = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}.${stamp.slice(15, 18)}Z`;
  return Date.parse(iso);
}

/** The first name of a partition at or after an arrival time: a `startOffset` for listing. */
export const batchNameFrom = (receivedAt: number) => `${partitionPrefix(utcDay(receivedAt))}${stampOf(receivedAt)}`;

export const claimObjectName = (id: string) => `${claimsPrefix}${id}.json`;
export const keyObjectName = (keyHash: string) => `${keysPrefix}${keyHash}.json`;
export const indexedMarkerName = (batch: string) => `${indexedPrefix}${batch.slice(partitionsPrefix.length)}`;
export const batchOfIndexedMarker = (marker: string) => `${partitionsPrefix}${marker.slice(indexedPrefix.length)}`;
export const indexedMarkersPrefix = (day: string) => `${indexedPrefix}received=${day}/`;

/**
 * A value as one name segment: readable when short, hashed when long (a subject may be 300
 * characters and a segment at most 200 bytes). The `v-`/`h-` prefixes keep the two apart.
 */
export function valueSegment(value: string): string {
  const encoded = encodeURIComponent(value);
  return encoded.length <= 120 ? `v-${encoded}` : `h-${createHash('sha256').update(value).digest('hex').slice(0, 40)}`;
}

/** An item's place in every index: newest `collectedAt` first, then by id. */
export const indexKey = newestFirstKey;

/** The listing indexes an evidence query can read. */
export type IndexPath =
  | { dimension: 'all' }
  | { dimension: 'kind'; kind: string }
  | { dimension: 'subject'; subject: string }
  | { dimension: 'source'; source: string }
  | { dimension: 'kind-source'; kind: string; source: string }
  | { dimension: 'control'; control: string };

export function indexPrefixOf(path: IndexPath): string {
  switch (path.dimension) {
    case 'all':
      return `${indexPrefix}all/`;
    case 'kind':
      return `${indexPrefix}kind/${path.kind}/`;
    case 'subject':
      return `${indexPrefix}subject/${valueSegment(path.subject)}/`;
    case 'source':
      return `${indexPrefix}source/${valueSegment(path.source)}/`;
    case 'kind-source':
      return `${indexPrefix}kind-source/${path.kind}/${valueSegment(path.source)}/`;
    case 'control':
      return `${indexPrefix}control/${path.control}/`;
  }
}

/** Every index an item appears in. Attestations are also filed under each control they name. */
export function indexesOf(item: { kind: string; subject: string; source: string; controls?: string[] }): IndexPath[] {
  const paths: IndexPath[] = [
    { dimension: 'all' },
    { dimension: 'kind', kind: item.kind },
    { dimension: 'subject', subject: item.subject },
    { dimension: 'source', source: item.source },
    { dimension: 'kind-source', kind: item.kind, source: item.source },
  ];
  if (item.kind === 'attestation') for (const control of item.controls ?? []) paths.push({ dimension: 'control', control });
  return paths;
}
