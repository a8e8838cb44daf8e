/**
 * Webhook subscriptions, deliveries and their attempts in the object store:
 *
 *   webhooks/subscriptions/<id>.json                    a subscription, with its secret
 *   webhooks/deliveries/<delivery id>.json              a message: its event and exact body (create-only)
 *   webhooks/delivery-index/<id>/<newest-first key>     one per delivery of a subscription, for paging
 *   webhooks/attempts/<delivery id>/<time>-<rand>.json  one per attempt, written by whoever made it
 *
 * A delivery's id is derived from its event and subscription, so announcing an event twice (a
 * retried job) stores one delivery and queues one task; every attempt, retries and redeliveries
 * alike, sends it under that id, the `webhook-id` receivers deduplicate by. Attempts are separate
 * objects so concurrent attempts never overwrite each other's record.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { components } from '../generated/api-types.js';
import { listNames, ObjectNotFound, PreconditionFailed, inBatches, type ObjectStore } from '../storage/object-store.js';
import { idOfKey, newestFirstKey, pageNewestFirst, type PlacedPage } from '../storage/newest-first.js';
import type { WebhookEvent } from './webhook-events.js';

type Schemas = components['schemas'];
export type Webhook = Schemas['Webhook'];
export type Delivery = Schemas['Delivery'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];

export interface WebhookRecord extends Webhook {
  secret: string;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  event: { id: string; type: string; timestamp: string };
  /** The exact body every attempt sends. */
  body: string;
  createdAt: string;
}

/** An attempt as stored: `final` when the queue will not try again. */
export interface AttemptRecord extends DeliveryAttempt {
  final: boolean;
}

const subscriptionsPrefix = 'webhooks/subscriptions/';
const subscriptionName = (id: string) => `${subscriptionsPrefix}${id}.json`;
const deliveryName = (id: string) => `webhooks/deliveries/${id}.json`;
const indexPrefix = (webhookId: string) => `webhooks/delivery-index/${webhookId}/`;
const attemptsPrefix = (deliveryId: string) => `webhooks/attempts/${deliveryId}/`;

export const newWebhookId = () => `wh-${randomBytes(6).toString('hex')}`;
/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
export const deliveryIdOf = (eventId: string, webhookId: string) =>
  `msg_${createHash('sha256').update(`${eventId}\n${webhookId}`).digest('hex').slice(0, 24)}`;

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const parse = <T>(data: Buffer) => JSON.parse(data.toString('utf8')) as T;

export class WebhookStore {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  async create(record: WebhookRecord): Promise<void> {
    await this.#store.create(subscriptionName(record.id), json(record), { contentType: 'application/json' });
  }

  async get(id: string): Promise<WebhookRecord | undefined> {
    try {
      return parse<WebhookRecord>((await this.#store.read(subscriptionName(id))).data);
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /** Every subscription, oldest first (there are at most a few dozen). */
  async list(): Promise<WebhookRecord[]> {
    const names = await listNames(this.#store, subscriptionsPrefix);
    const records = await inBatches(names, 16, async (name) => parse<WebhookRecord>((await this.#store.read(name)).data));
    return records.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  }

  /** Removes a subscription; its deliveries stay readable by id. False when there was none. */
  async delete(id: string): Promise<boolean> {
    try {
      await this.#store.delete(subscriptionName(id));
      return true;
    } catch (error) {
      if (error instanceof ObjectNotFound) return false;
      throw error;
    }
  }

  /**
   * Records the delivery of an event to a subscription, once: the same event announced again
   * (a retried job) finds the delivery recorded and gets it back, its index entry made sure of,
   * for the caller to queue again; the queue itself refuses a second task for one delivery.
   */
  async recordDelivery(webhook: WebhookRecord, event: WebhookEvent, body: string, at: Date): Promise<DeliveryRecord> {
    let record: DeliveryRecord = {
      id: deliveryIdOf(event.id, webhook.id),
      webhookId: webhook.id,
      event: { id: event.id, type: event.type, timestamp: event.timestamp },
      body,
      createdAt: at.toISOString(),
    };
    try {
      await this.#store.create(deliveryName(record.id), json(record), { contentType: 'application/json' });
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      record = (await this.delivery(record.id)) ?? record;
    }
    await this.#createOnce(
      `${indexPrefix(webhook.id)}${newestFirstKey(Date.parse(record.createdAt), record.id)}`,
      Buffer.alloc(0),
    );
    return record;
  }

  async #createOnce(name: string, data: Buffer): Promise<void> {
    try {
      await this.#store.create(name, data);
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
    }
  }

  async delivery(id: string): Promise<DeliveryRecord | undefined> {
    try {
      return parse<DeliveryRecord>((await this.#store.read(deliveryName(id))).data);
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  async recordAttempt(deliveryId: string, attempt: AttemptRecord): Promise<void> {
    const name = `${attemptsPrefix(deliveryId)}${String(Date.parse(attempt.at)).padStart(15, '0')}-${randomBytes(4).toString('hex')}.json`;
    await this.#store.create(name, json(attempt), { contentType: 'application/json' });
  }

  async attempts(deliveryId: string): Promise<AttemptRecord[]> {
    const names = await listNames(this.#store, attemptsPrefix(deliveryId));
    return inBatches(names, 16, async (name) => parse<AttemptRecord>((await this.#store.read(name)).data));
  }

  /** A delivery as the API shows it: with its attempts, oldest first, and what became of it. */
  async describe(record: DeliveryRecord): Promise<Delivery> {
    const attempts = await this.attempts(record.id);
    return {
      id: record.id,
      webhookId: record.webhookId,
      event: { type: record.event.type, timestamp: record.event.timestamp },
      createdAt: record.createdAt,
      state: stateOf(attempts),
      attempts: attempts.map(({ final: _final, ...attempt }) => attempt),
    };
  }

  /** A page of a subscription's deliveries, newest first. */
  async page(webhookId: string, options: { after?: string; limit: number }): Promise<PlacedPage<Delivery>> {
    const { entries, hasMore, next } = await pageNewestFirst(this.#store, indexPrefix(webhookId), options);
    const records = await inBatches(entries, 16, (entry) => this.delivery(idOfKey(entry.key)));
    const items = await inBatches(
      records.filter((record): record is DeliveryRecord => record !== undefined),
      8,
      (record) => this.describe(record),
    );
    return { items, hasMore, ...(next ? { next } : {}) };
  }
}

/** Delivered once any attempt was; failed once the last attempt was the queue's last; pending otherwise. */
export function stateOf(attempts: readonly AttemptRecord[]): Delivery['state'] {
  if (attempts.some((attempt) => attempt.outcome === 'delivered')) return 'delivered';
  return attempts.at(-1)?.final ? 'failed' : 'pending';
}
