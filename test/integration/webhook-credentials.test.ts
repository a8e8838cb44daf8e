/**
 * Webhook credentials on the emulators: the key the functions emulator reads from
 * `functions/.secret.local` (written by the test script) reaches both functions that need it, so
 * a subscription's URL and secret are sealed in the local store, listed shortened, and a ping
 * signed with the secret still verifies with the `standardwebhooks` library. Pings past the
 * per-subscription limit answer 429 whichever instance serves them.
 */
import { describe, expect, it } from 'vitest';
import { webhookManualSends } from '@evident/contract';
import { LocalFolderStore } from '../../functions/src/storage/local-folder-store.ts';
import { api } from '../support/api.ts';
import { mode } from '../support/emulator.ts';
import { until } from '../support/until.ts';
import { useWebhookReceiver, verify } from '../support/webhook-receiver.ts';

const store = new LocalFolderStore(process.env.EVIDENT_STORE_DIR!);
const receiver = useWebhookReceiver('/sealed-receiver-path');

describe(`webhook credentials, ${mode} mode`, () => {
  it('are sealed in the store, listed shortened, and still sign a ping that verifies', async () => {
    const created = await api.fetch('/api/webhooks', { body: { url: receiver.url(), events: ['report.published'] } });
    expect(created.status).toBe(201);
    const { id, url, secret } = (await created.json()) as { id: string; url: string; secret: string };
    try {
      expect(url).toBe(receiver.url());
      const shown = `${new URL(receiver.url()).origin}/…path`;
      expect(((await (await api.fetch(`/api/webhooks/${id}`)).json()) as { url: string }).url).toBe(shown);

      const stored = (await store.read(`webhooks/subscriptions/${id}.json`)).data.toString('utf8');
      for (const credential of ['sealed-receiver-path', secret, secret.slice('whsec_'.length)])
        expect(stored.includes(credential)).toBe(false);

      const pinged = await api.fetch(`/api/webhooks/${id}/ping`, { method: 'POST' });
      expect(pinged.status).toBe(202);
      const { id: deliveryId } = (await pinged.json()) as { id: string };
      const message = (await until(
        'the ping to arrive',
        async () => receiver.received.find((candidate) => candidate.headers['webhook-id'] === deliveryId),
        (arrived) => arrived !== undefined,
        { timeoutMs: 60_000, intervalMs: 250 },
      ))!;
      expect(verify(secret, message).type).toBe('webhook.ping');
    } finally {
      await api.fetch(`/api/webhooks/${id}`, { method: 'DELETE' });
    }
  }, 90_000);

  it(`answers the ping after ${webhookManualSends.limit} in the window with 429 and Retry-After`, async () => {
    const created = await api.fetch('/api/webhooks', { body: { url: receiver.url(), events: ['report.published'] } });
    const { id } = (await created.json()) as { id: string };
    try {
      const statuses: number[] = [];
      for (let n = 0; n < webhookManualSends.limit; n++)
        statuses.push((await api.fetch(`/api/webhooks/${id}/ping`, { method: 'POST' })).status);
      expect(statuses).toEqual(Array.from({ length: webhookManualSends.limit }, () => 202));
      const refused = await api.fetch(`/api/webhooks/${id}/ping`, { method: 'POST' });
      const body = (await refused.json()) as { code: string };
      expect([refused.status, body.code, Number(refused.headers.get('retry-after')) > 0]).toEqual([
        429,
        'webhook_rate_limited',
        true,
      ]);
    } finally {
      await api.fetch(`/api/webhooks/${id}`, { method: 'DELETE' });
    }
  }, 90_000);
});
