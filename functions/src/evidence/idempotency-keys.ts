/**
 * `Idempotency-Key`s of evidence ingest, one object each (`evidence-keys/<sha256>.json`): what
 * the key was first used for (a hash of the items' fingerprints) and, once that request
 * finished, its outcomes. A retry with the same key gets those outcomes back as they were; the
 * same key with another body is refused.
 */
import { createHash } from 'node:crypto';
import { PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import { canonicalJson } from './canonical-json.js';
import { EvidenceKeyReused } from './evidence-errors.js';
import { keyObjectName } from './evidence-layout.js';

export interface KeyOutcome {
  id: string;
  status: 'created' | 'existing';
}

export interface KeyRecord {
  name: string;
  generation: string;
  request: string;
  outcomes?: KeyOutcome[];
}

export class IdempotencyKeys {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /**
   * Claims a key for a request (the fingerprints of its items), or finds the request that
   * claimed it first: with its outcomes when it has finished. A retry racing the first request
   * gets no outcomes and simply re-runs the create-only writes.
   */
  async claim(keyHash: string, fingerprints: readonly string[]): Promise<KeyRecord> {
    const request = createHash('sha256').update(canonicalJson(fingerprints)).digest('hex');
    const name = keyObjectName(keyHash);
    try {
      const info = await this.#store.create(name, JSON.stringify({ request }), { contentType: 'application/json' });
      return { name, generation: info.generation, request };
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      const { data, info } = await this.#store.read(name);
      const stored = JSON.parse(data.toString('utf8')) as { request: string; outcomes?: KeyOutcome[] };
      if (stored.request !== request) throw new EvidenceKeyReused();
      return { name, generation: info.generation, request, ...(stored.outcomes ? { outcomes: stored.outcomes } : {}) };
    }
  }

  async record(key: KeyRecord, outcomes: KeyOutcome[]): Promise<void> {
    try {
      await this.#store.replace(key.name, JSON.stringify({ request: key.request, outcomes }), key.generation, {
        contentType: 'application/json',
      });
    } catch (error) {
      // A concurrent retry recorded first; its outcomes describe the same writes.
      if (!(error instanceof PreconditionFailed)) throw error;
    }
  }
}
