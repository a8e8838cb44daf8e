/**
 * Evidence in the object store: one immutable JSON object per item, `evidence/items/<id>.json`,
 * written create-only. That makes ingest idempotent without locks: a retry finds its own item
 * already there (same content → `existing`), and a different item under a taken id is refused.
 *
 * Items never change once written, so an instance caches every item it has read and, on the
 * next listing, reads only the names it has not seen.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EvidenceInput, EvidenceItem } from '../assessment/model.js';
import { ApiProblem, invalidRequest, type RequestError } from '../http/problem.js';
import { inBatches, listNames, ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';

const itemsPrefix = 'evidence/items/';
const keysPrefix = 'evidence/idempotency/';
const parallelWrites = 16;

export const evidenceObjectName = (id: string) => `${itemsPrefix}${id}.json`;

interface KeyRecord {
  name: string;
  generation: string;
  request: string;
  outcomes?: IngestOutcome[];
}

export interface IngestOutcome {
  id: string;
  status: 'created' | 'existing';
}

/** What makes two items the same item: everything the sender chose, not when it arrived. */
function fingerprint(item: Omit<EvidenceItem, 'receivedAt'> & { receivedAt?: string }): string {
  const { receivedAt: _receivedAt, ...content } = item;
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/** JSON with object keys sorted, so equal content hashes equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A new id that sorts by creation time: `ev-` + base36 milliseconds + randomness. */
export function newEvidenceId(now: Date): string {
  return `ev-${now.getTime().toString(36).padStart(9, '0')}-${randomBytes(6).toString('hex')}`;
}

export class EvidenceStore {
  readonly #store: ObjectStore;
  readonly #cache = new Map<string, EvidenceItem>();

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /**
   * Stores items create-only. Ids come from the items, else from the idempotency key (so a
   * retried request derives the same ids), else are new. Conflicts are found before anything
   * is written, so a refused batch stores nothing.
   */
  async ingest(
    inputs: readonly EvidenceInput[],
    options: { receivedAt: Date; idempotencyKey?: string; pointer: (index: number) => string; extra?: Partial<EvidenceItem> },
  ): Promise<IngestOutcome[]> {
    const keyHash = options.idempotencyKey ? createHash('sha256').update(options.idempotencyKey).digest('hex') : undefined;
    const items: EvidenceItem[] = inputs.map((input, index) => ({
      ...input,
      id: input.id ?? (keyHash ? `k-${keyHash.slice(0, 24)}-${index}` : newEvidenceId(options.receivedAt)),
      receivedAt: options.receivedAt.toISOString(),
      attachments: [],
      ...options.extra,
    }));

    const errors: RequestError[] = [];
    const firstIndex = new Map<string, number>();
    items.forEach((item, index) => {
      const earlier = firstIndex.get(item.id);
      if (earlier === undefined) firstIndex.set(item.id, index);
      else
        errors.push({
          in: 'body',
          pointer: `${options.pointer(index)}/id`,
          message: `repeats the id of ${options.pointer(earlier)}`,
        });
    });
    if (errors.length > 0) throw invalidRequest(errors);

    const key = keyHash ? await this.#claimKey(keyHash, items) : undefined;
    if (key?.outcomes) return key.outcomes;

    const fingerprints = items.map(fingerprint);
    const existing = await inBatches(items, parallelWrites, (item) => this.#find(item.id));
    existing.forEach((stored, index) => {
      if (stored && fingerprint(stored) !== fingerprints[index]) {
        throw new ApiProblem(
          'evidence_conflict',
          `An evidence item with id "${stored.id}" already exists with different content; evidence is append-only, so ` +
            'send the correction under a new id.',
        );
      }
    });
    const outcomes = await inBatches(items, parallelWrites, async (item, index): Promise<IngestOutcome> => {
      if (existing[index]) return { id: item.id, status: 'existing' };
      try {
        await this.#store.create(evidenceObjectName(item.id), JSON.stringify(item), { contentType: 'application/json' });
        this.#cache.set(evidenceObjectName(item.id), item);
        return { id: item.id, status: 'created' };
      } catch (error) {
        if (!(error instanceof PreconditionFailed)) throw error;
        // Another request stored the same id between our check and our write.
        const stored = await this.#find(item.id);
        if (stored && fingerprint(stored) === fingerprints[index]) return { id: item.id, status: 'existing' };
        throw new ApiProblem(
          'evidence_conflict',
          `An evidence item with id "${item.id}" was just stored with different content.`,
        );
      }
    });
    if (key) await this.#recordOutcomes(key, outcomes);
    return outcomes;
  }

  /**
   * Remembers what a key was first used for; the same key with another body is refused. Once
   * the first request finished, its outcomes are kept with the key and a retry gets them back
   * as they were (a retry racing the first request simply re-runs the create-only writes).
   */
  async #claimKey(keyHash: string, items: EvidenceItem[]): Promise<KeyRecord> {
    const request = createHash('sha256')
      .update(canonicalJson(items.map(fingerprint)))
      .digest('hex');
    const name = `${keysPrefix}${keyHash}.json`;
    try {
      const info = await this.#store.create(name, JSON.stringify({ request }), { contentType: 'application/json' });
      return { name, generation: info.generation, request };
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      const { data, info } = await this.#store.read(name);
      const stored = JSON.parse(data.toString('utf8')) as { request: string; outcomes?: IngestOutcome[] };
      if (stored.request !== request) {
        throw new ApiProblem(
          'idempotency_key_reused',
          'This Idempotency-Key was already used for a different request body; use a new key for a new request.',
        );
      }
      return { name, generation: info.generation, request, ...(stored.outcomes ? { outcomes: stored.outcomes } : {}) };
    }
  }

  async #recordOutcomes(key: KeyRecord, outcomes: IngestOutcome[]): Promise<void> {
    try {
      await this.#store.replace(key.name, JSON.stringify({ request: key.request, outcomes }), key.generation, {
        contentType: 'application/json',
      });
    } catch (error) {
      // A concurrent retry recorded first; its outcomes describe the same writes.
      if (!(error instanceof PreconditionFailed)) throw error;
    }
  }

  async #find(id: string): Promise<EvidenceItem | undefined> {
    try {
      return await this.get(id);
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /** One item; `ObjectNotFound` when there is none. */
  async get(id: string): Promise<EvidenceItem> {
    return this.#load(evidenceObjectName(id));
  }

  /** Every stored item, in id order; only names this instance has not read yet cost a read. */
  async all(): Promise<EvidenceItem[]> {
    return inBatches(await listNames(this.#store, itemsPrefix), 32, (name) => this.#load(name));
  }

  async #load(name: string): Promise<EvidenceItem> {
    const cached = this.#cache.get(name);
    if (cached) return cached;
    const item = JSON.parse((await this.#store.read(name)).data.toString('utf8')) as EvidenceItem;
    this.#cache.set(name, item);
    return item;
  }
}
