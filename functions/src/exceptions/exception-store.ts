/**
 * Exceptions in the object store, append-only: each one object named by the day it expires,
 * `exceptions/expires=<YYYY-MM-DD>/<id>.json`, written create-only and never changed; a
 * revocation is a second create-only object under the same day,
 * `exception-revocations/expires=<YYYY-MM-DD>/<id>.json`, so revoking twice is refused by the
 * store itself and two revokers cannot both win.
 *
 * The names make the common reads cheap however long the history grows: the exceptions in force
 * on a day are one `list` of each prefix from the next day's expiries on, and a read of each of
 * those only (expired ones and their revocations are never read nor listed); the id names its
 * expiry day, so one exception is one read.
 */
import { randomBytes } from 'node:crypto';
import { addDays } from '../assessment/dates.js';
import type { ActiveException } from '../assessment/exceptions.js';
import type { Actor } from '../assessment/model.js';
import { inBatches, listNames, ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';

export interface ExceptionRecord extends ActiveException {
  justification: string;
  createdAt: string;
}

export interface Revocation {
  at: string;
  by: Actor;
  reason: string | null;
}

export interface StoredException {
  record: ExceptionRecord;
  revocation: Revocation | undefined;
}

const recordsPrefix = 'exceptions/';
const revocationsPrefix = 'exception-revocations/';

/** `exc-20270301-<10 hex>`: the day it expires, then randomness. */
export function newExceptionId(expiresOn: string): string {
  return `exc-${expiresOn.replaceAll('-', '')}-${randomBytes(5).toString('hex')}`;
}

const expiresOnOf = (id: string) => `${id.slice(4, 8)}-${id.slice(8, 10)}-${id.slice(10, 12)}`;
const recordName = (id: string) => `${recordsPrefix}expires=${expiresOnOf(id)}/${id}.json`;
const revocationName = (id: string) => `${revocationsPrefix}expires=${expiresOnOf(id)}/${id}.json`;
const idOf = (name: string) => name.slice(name.lastIndexOf('/') + 1, -'.json'.length);
const json = { contentType: 'application/json' };

export class ExceptionStore {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  async create(record: ExceptionRecord): Promise<void> {
    await this.#store.create(recordName(record.id), JSON.stringify(record), json);
  }

  async get(id: string): Promise<StoredException | undefined> {
    try {
      const [{ data }, revocation] = await Promise.all([this.#store.read(recordName(id)), this.#revocation(id)]);
      return { record: JSON.parse(data.toString('utf8')) as ExceptionRecord, revocation };
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /** Records the revocation unless there is one: `already` then, and the one that stands. */
  async revoke(id: string, revocation: Revocation): Promise<'revoked' | 'already'> {
    try {
      await this.#store.create(revocationName(id), JSON.stringify(revocation), json);
      return 'revoked';
    } catch (error) {
      if (error instanceof PreconditionFailed) return 'already';
      throw error;
    }
  }

  /** Every exception expiring on `from` or later (all of them without it), soonest expiry first, with revocations. */
  async list(from?: string): Promise<StoredException[]> {
    const [names, revoked] = await Promise.all([this.#names(recordsPrefix, from), this.#names(revocationsPrefix, from)]);
    const revokedIds = new Set(revoked.map(idOf));
    return inBatches(names, 16, async (name) => {
      const record = JSON.parse((await this.#store.read(name)).data.toString('utf8')) as ExceptionRecord;
      return { record, revocation: revokedIds.has(record.id) ? await this.#revocation(record.id) : undefined };
    });
  }

  /**
   * The exceptions in force for the report of `date` evaluated as of `asOf`: expiring after that
   * day, recorded before `asOf`, and not revoked before it.
   */
  async inForce(date: string, asOf: Date): Promise<ActiveException[]> {
    const cutoff = asOf.toISOString();
    return (await this.list(addDays(date, 1)))
      .filter(({ record, revocation }) => record.createdAt < cutoff && (!revocation || revocation.at >= cutoff))
      .map(({ record: { id, controlId, subject, expiresOn, approver } }) => ({ id, controlId, subject, expiresOn, approver }));
  }

  /** The names under `prefix`, from the expiry day `from` on when given. */
  #names(prefix: string, from: string | undefined): Promise<string[]> {
    return listNames(this.#store, prefix, from ? { startOffset: `${prefix}expires=${from}` } : {});
  }

  async #revocation(id: string): Promise<Revocation | undefined> {
    try {
      return JSON.parse((await this.#store.read(revocationName(id))).data.toString('utf8')) as Revocation;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }
}
