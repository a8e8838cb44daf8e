/**
 * A delivery's attempts are read back in the order they were made, even when several fall in one
 * millisecond (a receiver on loopback that refuses at once): the last one says what became of
 * the delivery, so reading them out of order showed a failed delivery as pending.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { WebhookKeys } from '../../../functions/src/webhooks/webhook-keys.ts';
import { stateOf, WebhookStore } from '../../../functions/src/webhooks/webhook-store.ts';

const keys = WebhookKeys.parse(WebhookKeys.generate());

describe('a delivery’s attempts', () => {
  it('come back in the order they were made, within one millisecond too', async () => {
    const webhooks = new WebhookStore(new MemoryStore(), () => keys);
    const at = '2026-11-27T12:00:00.000Z';
    for (let made = 1; made <= 30; made++) {
      await webhooks.recordAttempt('msg_0123456789abcdef01234567', {
        at,
        durationMs: made,
        outcome: 'failed',
        status: 503,
        error: 'the endpoint answered 503',
        final: made === 30,
      });
    }
    const attempts = await webhooks.attempts('msg_0123456789abcdef01234567');
    expect(attempts.map((attempt) => attempt.durationMs)).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(stateOf(attempts)).toBe('failed');
  });
});
