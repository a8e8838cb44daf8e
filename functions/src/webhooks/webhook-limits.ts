/**
 * The two limits on webhooks that concurrent requests on many instances could otherwise step
 * past, both kept in slots (webhook-slots.ts):
 *
 *   webhooks/subscription-slots/<nn>          one per subscription, `maxWebhooks` of them
 *   webhooks/manual-sends/<webhook id>/<nn>   one per ping or redelivery in the window
 *
 * A count read and then written (as the cap once was) lets every create that counted before
 * the others wrote pass. A slot is taken by a write that fails when someone else took it.
 */
import { maxWebhooks, webhookManualSends } from '@evident/contract';
import { inBatches, type ObjectStore } from '../storage/object-store.js';
import { SlotSet, type FreeSlot } from './webhook-slots.js';

/** The deployment keeps as many subscriptions as it may. */
export class WebhookCapReached extends Error {
  readonly max = maxWebhooks;

  constructor() {
    super(`There are ${maxWebhooks} subscriptions already.`);
    this.name = 'WebhookCapReached';
  }
}

/** A subscription asked for as many pings and redeliveries as the window allows. */
export class ManualSendsLimited extends Error {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super(`Too many pings and redeliveries; the next in ${retryAfterSeconds} s.`);
    this.name = 'ManualSendsLimited';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * How long a subscription slot may stay without its subscription before another create takes
 * it back: a create that took the slot and stopped (its instance died) before writing the
 * subscription. Ten times the webhooks function's 60 s timeout, so no create still running can
 * lose its slot.
 */
export const orphanSlotMs = 10 * 60_000;

/**
 * The cap on subscriptions. Each subscription holds a slot; a create takes a free one before it
 * writes the subscription, and a delete frees it after. Subscriptions from before the slots
 * hold none: they count all the same, and creates only take slots from their number up, so
 * however many creates race, slots held plus those older subscriptions stay within the cap (the
 * older ones can only grow fewer).
 */
export class SubscriptionCap {
  readonly #slots: SlotSet;

  constructor(store: ObjectStore) {
    this.#slots = new SlotSet(store, 'webhooks/subscription-slots/', maxWebhooks);
  }

  /**
   * Takes a slot for a new subscription, given the ids of the subscriptions stored now; throws
   * `WebhookCapReached` when none is left. The slot taken, to give back if the write fails.
   */
  async claim(webhookId: string, stored: ReadonlySet<string>, now: Date): Promise<number> {
    const held = await this.#slots.held();
    const holders = new Set([...held.values()].map((info) => info.metadata['webhook']));
    const older = [...stored].filter((id) => !holders.has(id)).length;
    const free: FreeSlot[] = [];
    for (let number = older; number < maxWebhooks; number++) {
      const info = held.get(number);
      if (!info) free.push({ number });
      else if (isOrphan(info.metadata, stored, now)) free.push({ number, generation: info.generation });
    }
    const taken = await this.#slots.take(free, { webhook: webhookId, claimed: now.toISOString() });
    if (taken === undefined) throw new WebhookCapReached();
    return taken;
  }

  /** Frees the slot a subscription held (or one a failed create took). */
  async release(webhookId: string, number?: number): Promise<void> {
    for (const [held, info] of await this.#slots.held()) {
      if (info.metadata['webhook'] === webhookId && (number === undefined || number === held))
        await this.#slots.release(held, info.generation);
    }
  }
}

/** A slot whose subscription does not exist, taken long enough ago that its create cannot still be running. */
function isOrphan(metadata: Record<string, string>, stored: ReadonlySet<string>, now: Date): boolean {
  const claimed = Date.parse(metadata['claimed'] ?? '');
  return !stored.has(metadata['webhook'] ?? '') && !(now.getTime() - claimed < orphanSlotMs);
}

/**
 * The limit on pings and redeliveries: `limit` slots per subscription, each taken with the time
 * it was and free again `windowSeconds` later, so no window of that length holds more than
 * `limit` (a sliding window, kept by as many objects as the limit, never more).
 */
export class ManualSendLimit {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  #slots(webhookId: string): SlotSet {
    return new SlotSet(this.#store, `webhooks/manual-sends/${webhookId}/`, webhookManualSends.limit);
  }

  /** Takes a send for `webhookId` now, or throws `ManualSendsLimited` with when the next one frees. */
  async take(webhookId: string, now: Date): Promise<void> {
    const slots = this.#slots(webhookId);
    const metadata = { at: now.toISOString() };
    let look = await lookAt(slots, now);
    if (look.free.length > 0) {
      if ((await slots.take(look.free, metadata)) !== undefined) return;
      // Concurrent sends took them first: look again, to take one freed since or to say when the oldest frees.
      look = await lookAt(slots, now);
      if (look.free.length > 0 && (await slots.take(look.free, metadata)) !== undefined) return;
    }
    const waitMs = Number.isFinite(look.nextFreeAt) ? look.nextFreeAt - now.getTime() : 1000;
    throw new ManualSendsLimited(Math.max(1, Math.ceil(waitMs / 1000)));
  }

  /** Forgets a deleted subscription's sends. */
  async clear(webhookId: string): Promise<void> {
    const slots = this.#slots(webhookId);
    await inBatches([...(await slots.held())], 16, ([number, info]) => slots.release(number, info.generation));
  }
}

/** The send slots free now (never taken, or taken a window ago), and when the first one in use frees. */
async function lookAt(slots: SlotSet, now: Date): Promise<{ free: FreeSlot[]; nextFreeAt: number }> {
  const windowMs = webhookManualSends.windowSeconds * 1000;
  const held = await slots.held();
  const free: FreeSlot[] = [];
  let nextFreeAt = Infinity;
  for (let number = 0; number < slots.count; number++) {
    const info = held.get(number);
    const at = Date.parse(info?.metadata['at'] ?? '');
    if (!info) free.push({ number });
    else if (!(now.getTime() - at < windowMs)) free.push({ number, generation: info.generation });
    else nextFreeAt = Math.min(nextFreeAt, at + windowMs);
  }
  return { free, nextFreeAt };
}
