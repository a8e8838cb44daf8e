/**
 * Outbound webhooks on the emulators, through Hosting: a receiver in this process (on 127.0.0.1,
 * which only the emulators may target) verifies every delivery with the `standardwebhooks`
 * library; the tasks emulator makes the attempts and retries them with back-off after the
 * receiver's failures; targets an attacker would like are refused.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { headingOf, openPage, screenshot, settles, useBrowser, visit } from '../support/browser.ts';
import { api } from '../support/api.ts';
import { functionUrl, mode } from '../support/emulator.ts';
import { until } from '../support/until.ts';
import { useWebhookReceiver, verify, type Received } from '../support/webhook-receiver.ts';

const browser = useBrowser();

const receiver = useWebhookReceiver('/evident');
const { received } = receiver;

async function subscribe(events: string[]): Promise<{ id: string; secret: string }> {
  const response = await api.fetch('/api/webhooks', { body: { url: receiver.url(), events } });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

interface Delivery {
  id: string;
  state: string;
  event: { type: string };
  attempts: { outcome: string; status?: number; error?: string }[];
}

/** Polls a subscription's deliveries until `done` holds, failing at the deadline. */
const deliveriesWhen = (id: string, done: (items: Delivery[]) => boolean) =>
  until(
    `the deliveries of ${id} to settle`,
    async () => (await api.get<{ items: Delivery[] }>(`/api/webhooks/${id}/deliveries`)).items,
    done,
    { timeoutMs: 120_000, intervalMs: 500 },
  );

describe(`webhooks, ${mode} mode`, () => {
  it.each([
    ['https://10.1.2.3/hooks', '10.1.2.3 is a private address'],
    ['https://169.254.169.254/computeMetadata/v1/', '169.254.169.254 is a link-local address (cloud metadata)'],
    ['https://metadata.google.internal/', 'metadata.google.internal is the cloud metadata server'],
    ['http://example.com/hooks', 'the URL must use https'],
  ])('refuses %s as a target', async (url, reason) => {
    const response = await api.fetch('/api/webhooks', { body: { url, events: ['report.published'] } });
    const body = (await response.json()) as { code: string; detail: string };
    expect([response.status, body.code, body.detail]).toEqual([
      422,
      'webhook_target_refused',
      `The webhook URL is refused: ${reason}.`,
    ]);
  });

  it('delivers a ping after the receiver failed twice: retried with back-off, one webhook-id, every attempt signed', async () => {
    const { id, secret } = await subscribe(['report.published']);
    received.length = 0;
    receiver.answers = [500, 500];
    const pinged = await api.fetch(`/api/webhooks/${id}/ping`, { method: 'POST' });
    expect(pinged.status).toBe(202);
    const { id: deliveryId } = (await pinged.json()) as { id: string };
    const [delivery] = await deliveriesWhen(id, (items) => items[0]?.state === 'delivered');
    expect(delivery!.attempts.map((attempt) => [attempt.outcome, attempt.status])).toEqual([
      ['failed', 500],
      ['failed', 500],
      ['delivered', 204],
    ]);
    const mine = received.filter((message) => message.headers['webhook-id'] === deliveryId);
    expect(mine).toHaveLength(3);
    for (const message of mine) expect(verify(secret, message).type).toBe('webhook.ping');
    await api.fetch(`/api/webhooks/${id}`, { method: 'DELETE' });
  }, 150_000);

  it('delivers a ping once the receiver is up again, after it was down and then too slow to answer', async () => {
    // A receiver of its own on a port nothing listens on yet: the first attempt finds it down.
    const late = createServer();
    await new Promise<void>((resolve) => late.listen(0, '127.0.0.1', resolve));
    const { port } = late.address() as AddressInfo;
    await new Promise<void>((resolve) => late.close(() => resolve()));
    const response = await api.fetch('/api/webhooks', {
      body: { url: `http://127.0.0.1:${port}/late`, events: ['report.published'] },
    });
    const { id, secret } = (await response.json()) as { id: string; secret: string };
    const { id: deliveryId } = (await (await api.fetch(`/api/webhooks/${id}/ping`, { method: 'POST' })).json()) as { id: string };
    await deliveriesWhen(id, (items) => (items[0]?.attempts.length ?? 0) >= 1);

    // Up again: it holds the next request past the sender's 10 s limit, then answers.
    const seen: Received[] = [];
    const held: (() => void)[] = [];
    late.removeAllListeners('request');
    late.on('request', (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (seen.length === 1) held.push(() => res.destroy());
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => late.listen(port, '127.0.0.1', resolve));
    try {
      const [delivery] = await deliveriesWhen(id, (items) => items[0]?.state === 'delivered');
      const { attempts } = delivery!;
      expect(attempts.map((attempt) => [attempt.outcome, attempt.status ?? null])).toEqual([
        ['failed', null],
        ['failed', null],
        ['delivered', 204],
      ]);
      expect(attempts[0]!.error).toContain('ECONNREFUSED');
      expect(attempts[1]!.error).toBe('no answer within 10 s');
      expect(seen.map((message) => message.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
      for (const message of seen) expect(verify(secret, message).type).toBe('webhook.ping');
    } finally {
      for (const release of held) release();
      await new Promise<void>((resolve) => late.close(() => resolve()));
      await api.fetch(`/api/webhooks/${id}`, { method: 'DELETE' });
    }
  }, 150_000);

  it("announces the day's report when the daily job runs, signed, once", async () => {
    const { id, secret } = await subscribe(['report.published']);
    received.length = 0;
    receiver.answers = [];
    // The emulator does not fire schedules: the development trigger runs the same job.
    const ran = await fetch(functionUrl('devDailyReport'), { method: 'POST' });
    const { date } = (await ran.json()) as { date: string };
    const [delivery] = await deliveriesWhen(id, (items) => items.some((item) => item.state === 'delivered'));
    expect(delivery!.event.type).toBe('report.published');
    const message = received.find((candidate) => candidate.headers['webhook-id'] === delivery!.id)!;
    const event = verify(secret, message);
    expect([event.type, event.data['date'], typeof event.data['score']]).toEqual(['report.published', date, 'number']);
    // The job again: the same report, announced under the same ids, is not recorded twice. The job
    // answers after it recorded its deliveries, so the list is complete when it has answered.
    await fetch(functionUrl('devDailyReport'), { method: 'POST' });
    const items = await deliveriesWhen(id, () => true);
    expect(items.map((item) => item.id)).toEqual([delivery!.id]);
    await api.fetch(`/api/webhooks/${id}`, { method: 'DELETE' });
  }, 150_000);

  it('lets a person add a webhook on its page, read the secret once, send a ping and see it delivered', async () => {
    received.length = 0;
    receiver.answers = [];
    const opened = await openPage(browser());
    const { page } = opened;
    try {
      await visit(page, '/settings/webhooks', 'webhooks@example.com');
      await page.getByTestId('no-webhooks').or(page.getByTestId('webhook-item').first()).first().waitFor(settles);
      expect(await headingOf(page)).toBe('Webhooks');
      const form = page.getByRole('form', { name: 'Add a webhook' });
      // Said before anything is sent: no event chosen, and a plain-http URL that is not this machine.
      await page.getByTestId('webhook-url-input').fill('http://hooks.example.com/x');
      await form.getByRole('button', { name: 'Add the webhook' }).click();
      expect(await page.getByTestId('webhook-events-error').textContent()).toBe('Choose at least one event.');
      expect(await page.getByTestId('webhook-url-error').textContent()).toContain('https://');

      await page.getByTestId('webhook-url-input').fill(receiver.url());
      await page.getByTestId('webhook-event-report.published').check();
      await form.getByLabel('Description').fill('Browser receiver');
      await form.getByRole('button', { name: 'Add the webhook' }).click();
      await page.getByTestId('webhook-secret').waitFor(settles);
      const secret = await page.getByTestId('webhook-secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      expect(await page.getByTestId('webhook-created').textContent()).toContain('will not be shown again');

      const { webhooks } = (await (await api.fetch('/api/webhooks')).json()) as {
        webhooks: { id: string; description: string }[];
      };
      const id = webhooks.find((webhook) => webhook.description === 'Browser receiver')!.id;
      const item = page.locator(`[data-webhook="${id}"]`);
      await item.getByRole('button', { name: 'Send a ping' }).click();
      const delivery = item.getByTestId('delivery-item').first();
      await expect.poll(() => delivery.getAttribute('data-state'), { timeout: 60_000 }).toBe('delivered');
      expect(await delivery.getByTestId('delivery-event').textContent()).toBe('webhook.ping');
      const deliveryId = await delivery.getAttribute('data-delivery');
      const message = received.find((candidate) => candidate.headers['webhook-id'] === deliveryId)!;
      expect(verify(secret, message).type).toBe('webhook.ping');
      await screenshot(page, 'webhooks');
      expect(opened.problems).toEqual([]);
      await api.fetch(`/api/webhooks/${id}`, { method: 'DELETE' });
    } finally {
      await opened.close();
    }
  }, 150_000);
});
