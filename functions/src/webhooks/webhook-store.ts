/**
 * Webhook subscriptions, deliveries and their attempts in the object store:
 *
 *   webhooks/subscriptions/<id>.json                    a subscription, its credentials sealed
 *   webhooks/deliveries/<delivery id>.json              a message: its event and exact body (create-only)
 *   webhooks/delivery-index/<id>/<newest-first key>     one per delivery of a subscription, for paging
 *   webhooks/attempts/<delivery id>/<time>-<seq>-<rand>.json  one per attempt, written by whoever made it
 *
 * and the slots of the cap and of the manual-send limit (webhook-limits.ts).
 *
 * A delivery's id is derived from its event and subscription, so announcing an event twice (a
 * retried job) stores one delivery and queues one task; every attempt, retries and redeliveries
 * alike, sends it under that id, the `webhook-id` receivers deduplicate by. Attempts are separate
 * objects so concurrent attempts never overwrite each other's record.
 *
 * A subscription's signing secret and URL are credentials: they are stored sealed
 * (webhook-keys.ts), beside the URL as listings show it (`shownWebhookUrl`), so listing and
 * announcing need no key. A subscription written before sealing holds both in clear; it reads
 * the same, and the first reader that opens its credentials (the delivery task) seals them in
 * place, as it does a credential sealed with a key that is no longer the first of the ring.
 */
import { createHash, randomBytes } from 'node:crypto';
import { shownWebhookUrl } from '@evident/contract';
import type { components } from '../generated/api-types.js';
import { listNames, ObjectNotFound, PreconditionFailed, inBatches, type ObjectStore } from '../storage/object-store.js';
import { idOfKey, newestFirstKey, pageNewestFirst, type PlacedPage } from '../storage/newest-first.js';
import type { WebhookEvent } from './webhook-events.js';
import { isSealed, type Sealed, type WebhookKeys } from './webhook-keys.js';
import { ManualSendLimit, SubscriptionCap } from './webhook-limits.js';

type Schemas = components['schemas'];
export type Webhook = Schemas['Webhook'];
export type Delivery = Schemas['Delivery'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];

/** A subscription as asked for: its URL in full, and its new secret. */
export interface NewWebhook extends Webhook {
  secret: string;
}

/** A credential as stored: sealed, or in clear in a subscription written before sealing. */
export type StoredCredential = Sealed | string;

/** A subscription as stored and read: `url` as listings show it, the credentials apart. */
export interface WebhookRecord extends Webhook {
  credentials: { url: StoredCredential; secret: StoredCredential };
}

/** What the delivery task needs to send: the URL in full and the signing secret. */
export interface OpenCredentials {
  url: string;
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
const idOfSubscription = (name: string) => name.slice(subscriptionsPrefix.length, -'.json'.length);
const deliveryName = (id: string) => `webhooks/deliveries/${id}.json`;
const indexPrefix = (webhookId: string) => `webhooks/delivery-index/${webhookId}/`;
const attemptsPrefix = (deliveryId: string) => `webhooks/attempts/${deliveryId}/`;
/** Attempts this process has recorded: the tie-break of two made within one millisecond. */
let attemptsRecorded = 0;

export const newWebhookId = () => `wh-${randomBytes(6).toString('hex')}`;
/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
export const deliveryIdOf = (eventId: string, webhookId: string) =>
  `msg_${createHash('sha256').update(`${eventId}\n${webhookId}`).digest('hex').slice(0, 24)}`;

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const parse = <T>(data: Buffer) => JSON.parse(data.toString('utf8')) as T;

/** A subscription as read: one written before sealing (its secret and URL in clear at the top) in today's shape. */
function recordOf(stored: WebhookRecord | (NewWebhook & { credentials?: undefined })): WebhookRecord {
  if (stored.credentials) return stored;
  const { secret, url, ...webhook } = stored;
  return { ...webhook, url: shownWebhookUrl(url), credentials: { url, secret } };
}

export class WebhookStore {
  readonly #store: ObjectStore;
  readonly #keys: () => WebhookKeys;
  readonly #cap: SubscriptionCap;
  readonly #sends: ManualSendLimit;

  /** `keys` is asked for only to seal or open credentials: announcing and listing never need it. */
  constructor(store: ObjectStore, keys: () => WebhookKeys = noKeys) {
    this.#store = store;
    this.#keys = keys;
    this.#cap = new SubscriptionCap(store);
    this.#sends = new ManualSendLimit(store);
  }

  /**
   * Stores a new subscription, its credentials sealed, within the cap: throws
   * `WebhookCapReached` when the deployment keeps as many as it may.
   */
  async create(webhook: NewWebhook, now: Date): Promise<WebhookRecord> {
    const { secret, url, ...rest } = webhook;
    const keys = this.#keys();
    const record: WebhookRecord = {
      ...rest,
      url: shownWebhookUrl(url),
      credentials: { url: keys.seal(url, webhook.id, 'url'), secret: keys.seal(secret, webhook.id, 'secret') },
    };
    const stored = new Set((await listNames(this.#store, subscriptionsPrefix)).map(idOfSubscription));
    const slot = await this.#cap.claim(webhook.id, stored, now);
    try {
      await this.#store.create(subscriptionName(webhook.id), json(record), { contentType: 'application/json' });
    } catch (error) {
      await this.#cap.release(webhook.id, slot);
      throw error;
    }
    return record;
  }

  async get(id: string): Promise<WebhookRecord | undefined> {
    try {
      return recordOf(parse((await this.#store.read(subscriptionName(id))).data));
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /** Every subscription, oldest first (there are at most a few dozen). */
  async list(): Promise<WebhookRecord[]> {
    const names = await listNames(this.#store, subscriptionsPrefix);
    const records = await inBatches(names, 16, async (name) => recordOf(parse((await this.#store.read(name)).data)));
    return records.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  }

  /** Removes a subscription, then its slot and its sends; its deliveries stay readable by id. False when there was none. */
  async delete(id: string): Promise<boolean> {
    try {
      await this.#store.delete(subscriptionName(id));
    } catch (error) {
      if (error instanceof ObjectNotFound) return false;
      throw error;
    }
    await Promise.all([this.#cap.release(id), this.#sends.clear(id)]);
    return true;
  }

  /** Takes one of a subscription's pings and redeliveries; throws `ManualSendsLimited` past the limit. */
  async takeManualSend(webhookId: string, now: Date): Promise<void> {
    await this.#sends.take(webhookId, now);
  }

  /**
   * A subscription's URL and secret, opened. Credentials in clear (written before sealing) or
   * sealed with a key that is no longer the first are sealed again with it, in place.
   */
  async credentials(record: WebhookRecord): Promise<OpenCredentials> {
    const keys = this.#keys();
    const open = (value: StoredCredential, field: string) => (isSealed(value) ? keys.open(value, record.id, field) : value);
    const opened = { url: open(record.credentials.url, 'url'), secret: open(record.credentials.secret, 'secret') };
    const current = (value: StoredCredential) => isSealed(value) && value.kid === keys.currentKid;
    if (!current(record.credentials.url) || !current(record.credentials.secret)) await this.#reseal(record.id, opened);
    return opened;
  }

  /** Seals a subscription's credentials with the current key, unless it changed or went since it was read. */
  async #reseal(id: string, opened: OpenCredentials): Promise<void> {
    const keys = this.#keys();
    try {
      const { data, info } = await this.#store.read(subscriptionName(id));
      const record = recordOf(parse(data));
      const credentials = { url: keys.seal(opened.url, id, 'url'), secret: keys.seal(opened.secret, id, 'secret') };
      await this.#store.replace(subscriptionName(id), json({ ...record, credentials }), info.generation, {
        contentType: 'application/json',
      });
    } catch (error) {
      // Deleted, or sealed by another reader meanwhile: either way nothing is left to do.
      if (!(error instanceof ObjectNotFound || error instanceof PreconditionFailed)) throw error;
    }
  }

  /**
   * Records the delivery of an event to a subscription, once: the same event announced again
   * (a retried job) finds the delivery recorded and gets it back, its index entry made sure of,
   * for the caller to queue again; the queue itself refuses a second task for one delivery.
   */
  async recordDelivery(webhook: Pick<Webhook, 'id'>, event: WebhookEvent, body: string, at: Date): Promise<DeliveryRecord> {
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
    // Names sort in the order the attempts were made, which says what became of the delivery
    // (its last attempt): by the millisecond, then by this process's count, since one process
    // can make several attempts within a millisecond (a receiver on loopback that refuses at once).
    const order = `${String(Date.parse(attempt.at)).padStart(15, '0')}-${String(++attemptsRecorded).padStart(12, '0')}`;
    const name = `${attemptsPrefix(deliveryId)}${order}-${randomBytes(4).toString('hex')}.json`;
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

/** The key ring of a store that never seals or opens (announcing, listing). */
function noKeys(): WebhookKeys {
  throw new Error('This WebhookStore was given no keys: it cannot seal or open webhook credentials.');
}

/** Delivered once any attempt was; failed once the last attempt was the queue's last; pending otherwise. */
export function stateOf(attempts: readonly AttemptRecord[]): Delivery['state'] {
  if (attempts.some((attempt) => attempt.outcome === 'delivered')) return 'delivered';
  return attempts.at(-1)?.final ? 'failed' : 'pending';
}
