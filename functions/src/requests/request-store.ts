/**
 * The auditor's request list in the object store: each request its own object,
 * `audit-requests/<id>.json`, created create-only and changed by compare-and-swap on the
 * generation read, so two people changing one request at once never lose each other's step:
 * the later is refused (`RequestChanged`) and sees the other's change when it reads again.
 * Its control and status are in its metadata, so a listing filtered by either reads only the
 * requests it shows. The list holds at most `auditRequestLimits.requests` requests.
 */
import { randomBytes } from 'node:crypto';
import { auditRequestLimits } from '@evident/contract';
import {
  inBatches,
  listAll,
  ObjectNotFound,
  PreconditionFailed,
  type ObjectInfo,
  type ObjectStore,
} from '../storage/object-store.js';
import { RequestLimitReached, type AuditRequest } from './request-model.js';

export const requestsPrefix = 'audit-requests/';
const nameOf = (id: string) => `${requestsPrefix}${id}.json`;
const idOf = (name: string) => name.slice(requestsPrefix.length, -'.json'.length);

/** `req-20270301-<10 hex>`: the day it was made, then randomness (its digit keeps it off the paths' words). */
export const newRequestId = (today: string): string => `req-${today.replaceAll('-', '')}-${randomBytes(5).toString('hex')}`;

/** The change was based on another version than the one stored, or another writer got there first. */
export class RequestChanged extends Error {
  readonly id: string;
  readonly version: number | undefined;

  constructor(id: string, version?: number) {
    super(`The request ${id} changed meanwhile.`);
    this.name = 'RequestChanged';
    this.id = id;
    this.version = version;
  }
}

const writeOptions = (request: AuditRequest) => ({
  contentType: 'application/json',
  metadata: { control: request.controlId, status: request.status },
});

export interface RequestFilter {
  status?: string;
  control?: string;
}

export class AuditRequestStore {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  async get(id: string): Promise<AuditRequest | undefined> {
    return (await this.#read(id))?.request;
  }

  /** Every request the filter keeps, in id order: one listing, and a read of each kept. */
  async list(filter: RequestFilter = {}): Promise<AuditRequest[]> {
    const kept = (await listAll(this.#store, requestsPrefix)).filter(
      ({ metadata }) =>
        (filter.status === undefined || metadata['status'] === filter.status) &&
        (filter.control === undefined || metadata['control'] === filter.control),
    );
    const read = await inBatches(kept, 16, (info) => this.get(idOf(info.name)));
    return read.filter((request): request is AuditRequest => request !== undefined);
  }

  /** How many requests the list holds (one listing). */
  async count(): Promise<number> {
    return (await listAll(this.#store, requestsPrefix)).length;
  }

  /**
   * Creates the requests, all or none: past the list's bound, or when one of their ids is taken
   * meanwhile, those already created are deleted again and nothing stays.
   */
  async createAll(requests: readonly AuditRequest[]): Promise<void> {
    const held = await this.count();
    if (held + requests.length > auditRequestLimits.requests) {
      throw new RequestLimitReached(
        `The list holds ${held} requests; ${requests.length} more would pass the ${auditRequestLimits.requests} it keeps.`,
      );
    }
    const created: string[] = [];
    try {
      await inBatches(requests, 16, async (request) => {
        await this.#store.create(nameOf(request.id), JSON.stringify(request), writeOptions(request));
        created.push(request.id);
      });
    } catch (error) {
      await inBatches(created, 16, (id) => this.#store.delete(nameOf(id)).catch(() => undefined));
      const taken =
        error instanceof PreconditionFailed ? requests.find((request) => nameOf(request.id) === error.objectName) : undefined;
      throw taken ? new RequestChanged(taken.id) : error;
    }
  }

  /**
   * Applies `change` to the request as stored at `basedOn`: `undefined` when there is no such
   * request, `RequestChanged` when it is at another version or another writer replaces it first.
   */
  async update(id: string, basedOn: number, change: (request: AuditRequest) => AuditRequest): Promise<AuditRequest | undefined> {
    const found = await this.#read(id);
    if (!found) return undefined;
    if (found.request.version !== basedOn) throw new RequestChanged(id, found.request.version);
    const next = change(found.request);
    try {
      await this.#store.replace(nameOf(id), JSON.stringify(next), found.info.generation, writeOptions(next));
    } catch (error) {
      throw error instanceof PreconditionFailed ? new RequestChanged(id) : error;
    }
    return next;
  }

  async #read(id: string): Promise<{ request: AuditRequest; info: ObjectInfo } | undefined> {
    try {
      const { data, info } = await this.#store.read(nameOf(id));
      return { request: JSON.parse(data.toString('utf8')) as AuditRequest, info };
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }
}
