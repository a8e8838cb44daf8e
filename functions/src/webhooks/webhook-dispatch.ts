/**
 * Fans events out to the subscriptions that want them: each becomes a delivery (recorded once,
 * webhook-store.ts) and a task on the delivery queue, named after the delivery so the queue
 * holds one task for it however often the event is announced. The task function
 * (`deliverWebhook`) makes the attempts (webhook-sender.ts); Cloud Tasks retries a failed one
 * with exponential back-off.
 */
import { randomBytes } from 'node:crypto';
import type { NamedTaskQueue } from '../common/cloud-tasks.js';
import { inBatches } from '../storage/object-store.js';
import { payloadOf, ping, type WebhookEvent } from './webhook-events.js';
import type { DeliveryRecord, WebhookRecord, WebhookStore } from './webhook-store.js';

export const deliveryFunctionName = 'deliverWebhook';
/**
 * How Cloud Tasks retries a delivery: six attempts over about ten minutes (5 s, 10 s, 20 s…),
 * long enough to ride out a receiver's restart; the last attempt marks the delivery failed, and
 * a person can redeliver it later.
 */
export const deliveryRetry = { maxAttempts: 6, minBackoffSeconds: 5, maxBackoffSeconds: 300, maxDoublings: 6 } as const;

/**
 * The same attempts a second apart and doubling from there, only in the emulators: a local
 * receiver that failed is tried again while someone watches, and a test of retries through the
 * real queue waits seconds, not minutes. A deployed function always gets `deliveryRetry`. (The
 * emulator reads a function's options with its own environment and the project's `.env` files
 * only, so the emulator itself is all this can go by.)
 */
export const deliveryRetryInEmulator = { ...deliveryRetry, minBackoffSeconds: 1, maxBackoffSeconds: 8 } as const;

/** Deliveries recorded and queued at once while announcing. */
const parallelSends = 16;

export interface DeliveryTask extends Record<string, unknown> {
  deliveryId: string;
}

export class WebhookDispatcher {
  readonly #store: WebhookStore;
  readonly #queue: NamedTaskQueue<DeliveryTask>;
  readonly #now: () => Date;

  constructor(store: WebhookStore, queue: NamedTaskQueue<DeliveryTask>, now: () => Date) {
    this.#store = store;
    this.#queue = queue;
    this.#now = now;
  }

  /** Queues each event for every subscription that wants it; the deliveries queued. */
  async announce(events: readonly WebhookEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const webhooks = await this.#store.list();
    const wanted = events.flatMap((event) =>
      webhooks.filter((webhook) => (webhook.events as string[]).includes(event.type)).map((webhook) => ({ webhook, event })),
    );
    // A day's status changes and reminders times every subscription: several at a time, not one by one.
    await inBatches(wanted, parallelSends, ({ webhook, event }) => this.#send(webhook, event));
    return wanted.length;
  }

  /** A test event to one subscription, whatever it subscribed to. */
  async ping(webhook: WebhookRecord): Promise<DeliveryRecord> {
    return this.#send(webhook, ping(webhook.id, this.#now(), randomBytes(8).toString('hex')));
  }

  /** The same message again, under the same `webhook-id`, as a new task. */
  async redeliver(delivery: DeliveryRecord): Promise<void> {
    await this.#queue.enqueue({ deliveryId: delivery.id }, `${delivery.id}-again-${randomBytes(6).toString('hex')}`);
  }

  async #send(webhook: WebhookRecord, event: WebhookEvent): Promise<DeliveryRecord> {
    const delivery = await this.#store.recordDelivery(webhook, event, payloadOf(event, webhook.format), this.#now());
    await this.#queue.enqueue({ deliveryId: delivery.id }, delivery.id);
    return delivery;
  }
}
