/**
 * Webhooks in one process: the family over a memory store, a queue that runs each task's
 * attempts as Cloud Tasks would (again after each failure, up to the retry limit, without the
 * back-off), and a receiver on 127.0.0.1 that verifies every delivery with the
 * `standardwebhooks` library, as an integrator would.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../../functions/src/assessment/model.ts';
import type { NamedTaskQueue } from '../../../functions/src/common/cloud-tasks.ts';
import { createWebhooksFamily } from '../../../functions/src/families/webhooks.ts';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { WebhookDispatcher, deliveryRetry, type DeliveryTask } from '../../../functions/src/webhooks/webhook-dispatch.ts';
import { reportEvents } from '../../../functions/src/webhooks/webhook-events.ts';
import { WebhookKeys } from '../../../functions/src/webhooks/webhook-keys.ts';
import { attemptDelivery } from '../../../functions/src/webhooks/webhook-sender.ts';
import { WebhookStore } from '../../../functions/src/webhooks/webhook-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

const catalog = compileCatalogSources(paths.catalog);
const policy = { allowLoopback: true };
const keys = WebhookKeys.parse(WebhookKeys.generate());

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver whose answers a test scripts: a status per request, a redirect, or a connection dropped. */
class Receiver {
  readonly received: Received[] = [];
  /** The paths requested, in order. */
  readonly paths: string[] = [];
  answers: (number | 'drop' | { redirect: string })[] = [];
  #server: Server | undefined;

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        this.paths.push(req.url ?? '');
        const answer = this.answers.shift() ?? 204;
        if (answer === 'drop') req.socket.destroy();
        else if (typeof answer === 'object') res.writeHead(307, { location: answer.redirect }).end();
        else res.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}/hooks`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }
}

let store: MemoryStore;
let webhooks: WebhookStore;
let queue: NamedTaskQueue<DeliveryTask> & { ran: Promise<void>[] };
let served: Served;
const receiver = new Receiver();
let url = '';
/** What names resolve to, for the family and the sender alike; any other name is public. */
const dns = new Map<string, string>();
const lookup = async (host: string) => [{ address: dns.get(host) ?? '93.184.215.14', family: 4 }];

/**
 * Runs a task's attempts in order, as the queue would, each retried after a failure until the
 * last; like Cloud Tasks, it takes one task per id.
 */
function inProcessQueue(): NamedTaskQueue<DeliveryTask> & { ran: Promise<void>[] } {
  const ran: Promise<void>[] = [];
  const taken = new Set<string>();
  return {
    ran,
    async enqueue({ deliveryId }, id) {
      if (taken.has(id)) return;
      taken.add(id);
      ran.push(
        (async () => {
          for (let number = 1; number <= deliveryRetry.maxAttempts; number++) {
            const final = number === deliveryRetry.maxAttempts;
            try {
              await attemptDelivery({ store: webhooks, policy, now: () => new Date(), lookup }, deliveryId, { number, final });
              return;
            } catch {
              // the queue tries again
            }
          }
        })(),
      );
    },
  };
}

const settle = () => Promise.all(queue.ran.splice(0));

beforeAll(async () => {
  setMode('public');
  for (const name of ['webhookAttempted', 'webhookSkipped', 'webhookTargetRefused'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  url = await receiver.start();
});

beforeEach(async () => {
  store = new MemoryStore();
  webhooks = new WebhookStore(store, () => keys);
  queue = inProcessQueue();
  receiver.received.length = 0;
  receiver.paths.length = 0;
  receiver.answers = [];
  dns.clear();
  await served?.close();
  served = await serve(
    createWebhooksFamily({
      store: async () => store,
      catalog: () => catalog,
      loadTable: tableOf('webhooks'),
      verifyToken: fakeVerifier(),
      queue: () => queue,
      policy: () => policy,
      lookup,
      keys: () => keys,
    }),
  );
});

afterAll(async () => {
  await served.close();
  await receiver.stop();
  vi.restoreAllMocks();
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${served.url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });

async function subscribe(events: string[], format?: 'json' | 'slack'): Promise<{ id: string; secret: string }> {
  const response = await call('POST', '/api/webhooks', { url, events, ...(format ? { format } : {}) });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

/** The received message, verified with the subscription's secret as a receiver would. */
const verified = (secret: string, message: Received) =>
  new Webhook(secret).verify(message.body, {
    'webhook-id': String(message.headers['webhook-id']),
    'webhook-timestamp': String(message.headers['webhook-timestamp']),
    'webhook-signature': String(message.headers['webhook-signature']),
  });

const report = (runId: string): Report =>
  ({
    date: '2026-11-24',
    runId,
    summary: { score: 81.6, counts: { passing: 40, failing: 5, stale: 2, missing: 1, not_applicable: 1 }, controls: 49 },
    diff: {
      previousDate: '2026-11-23',
      newlyFailing: ['IAM-08'],
      fixed: [],
      newlyStale: [],
      changes: [{ id: 'IAM-08', from: 'passing', to: 'failing' }],
    },
    controls: [
      {
        id: 'IAM-08',
        title: 'Data stores are not public',
        severity: 'critical',
        owner: 'Platform lead',
        dueDate: '2026-12-01',
      },
    ],
  }) as unknown as Report;

describe('subscriptions', () => {
  it('are created with a secret shown once, then listed and read without it', async () => {
    const response = await call('POST', '/api/webhooks', { url, events: ['report.published'], description: 'ops channel' });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Record<string, unknown>;
    expect(created).toEqual({
      id: expect.stringMatching(/^wh-[0-9a-f]{12}$/),
      url,
      events: ['report.published'],
      format: 'json',
      description: 'ops channel',
      createdAt: expect.any(String),
      createdBy: { uid: 'anonymous' },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(response.headers.get('location')).toBe(`/api/webhooks/${String(created['id'])}`);
    // The path (`/hooks`) is short: all of it is hidden.
    const { secret: _secret, ...rest } = created;
    const shown = { ...rest, url: `${new URL(url).origin}/…` };
    expect(await (await call('GET', '/api/webhooks')).json()).toEqual({ webhooks: [shown] });
    expect(await (await call('GET', `/api/webhooks/${String(created['id'])}`)).json()).toEqual(shown);
  });

  it('show a Slack URL once, then only its host and last four characters, and keep it and the secret sealed', async () => {
    const slackUrl = 'https://hooks.slack.com/services/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';
    const response = await call('POST', '/api/webhooks', { url: slackUrl, events: ['report.published'], format: 'slack' });
    const created = (await response.json()) as { id: string; url: string; secret: string };
    expect([response.status, created.url]).toEqual([201, slackUrl]);
    const listed = (await (await call('GET', '/api/webhooks')).json()) as { webhooks: { url: string }[] };
    const got = (await (await call('GET', `/api/webhooks/${created.id}`)).json()) as { url: string };
    expect([listed.webhooks.map((webhook) => webhook.url), got.url]).toEqual([
      ['https://hooks.slack.com/…Op0a'],
      'https://hooks.slack.com/…Op0a',
    ]);
    // What the bucket holds: neither the URL nor the secret, in any object.
    const names = (await store.list('webhooks/')).items.map((item) => item.name);
    const bytes = Buffer.concat(await Promise.all(names.map(async (name) => (await store.read(name)).data)));
    for (const credential of [slackUrl, 'services/T0AAAAAAA', created.secret, created.secret.slice('whsec_'.length)])
      expect(bytes.includes(credential)).toBe(false);
  });

  it('refuse a target that is not https, or private, with the reason', async () => {
    const refused = await call('POST', '/api/webhooks', { url: 'https://10.0.0.7/hooks', events: ['report.published'] });
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { code: string; detail: string };
    expect(body.code).toBe('webhook_target_refused');
    expect(body.detail).toMatch(/^The webhook URL is refused: 10\.0\.0\.7 is a private address/);
    const plain = (await (
      await call('POST', '/api/webhooks', { url: 'http://example.com/', events: ['report.published'] })
    ).json()) as {
      detail: string;
    };
    expect(plain.detail).toBe('The webhook URL is refused: the URL must use https.');
  });

  it('refuse a name that resolves to an internal address without saying what it resolves to', async () => {
    dns.set('x.corp', '10.1.2.3');
    const logged = vi.mocked(logs.webhookTargetRefused);
    logged.mockClear();
    const refused = await call('POST', '/api/webhooks', { url: 'https://x.corp/hooks', events: ['report.published'] });
    expect([refused.status, refused.headers.get('content-type')]).toEqual([422, 'application/problem+json']);
    expect(await refused.json()).toEqual(
      expectedProblem(
        'webhook_target_refused',
        'The webhook URL is refused: x.corp is not an allowed target (it must resolve only to public addresses).',
        '/api/webhooks',
        refused.headers.get('x-request-id')!,
      ),
    );
    // The address is for the operators' logs only.
    expect(logged.mock.calls).toEqual([['subscribe', 'x.corp', 'x.corp resolves to 10.1.2.3, which is a private address']]);
  });

  it('are deleted once: then 404, and nothing more is delivered to them', async () => {
    const { id } = await subscribe(['report.published']);
    expect((await call('DELETE', `/api/webhooks/${id}`)).status).toBe(204);
    const again = await call('DELETE', `/api/webhooks/${id}`);
    expect([again.status, ((await again.json()) as { code: string }).code]).toEqual([404, 'webhook_not_found']);
    // A delivery recorded before the deletion (a retry still queued) sends nothing and records no attempt.
    const record = {
      id,
      url,
      events: ['report.published' as const],
      format: 'json' as const,
      description: '',
      createdAt: '',
      createdBy: { uid: 'a' },
      secret: 'whsec_AAAA',
    };
    const queuedBefore = await webhooks.recordDelivery(
      record,
      reportEvents(report('daily-1'), { republished: false, at: new Date() })[0]!,
      '{}',
      new Date(),
    );
    await attemptDelivery({ store: webhooks, policy, now: () => new Date() }, queuedBefore.id, { number: 1, final: false });
    expect([receiver.received.length, await webhooks.attempts(queuedBefore.id)]).toEqual([0, []]);
  });
});

describe('deliveries', () => {
  it('sends a ping signed with the secret, under one webhook-id, and records the attempt', async () => {
    const { id, secret } = await subscribe(['report.published']);
    const pinged = await call('POST', `/api/webhooks/${id}/ping`);
    expect(pinged.status).toBe(202);
    const delivery = (await pinged.json()) as { id: string; state: string };
    expect(delivery.state).toBe('pending');
    await settle();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(delivery.id);
    expect(verified(secret, receiver.received[0]!)).toMatchObject({ type: 'webhook.ping', data: { webhookId: id } });
    const page = (await (await call('GET', `/api/webhooks/${id}/deliveries`)).json()) as {
      items: { id: string; state: string; attempts: { outcome: string; status: number }[] }[];
      hasMore: boolean;
    };
    expect(page.hasMore).toBe(false);
    expect(page.items.map((item) => [item.id, item.state, item.attempts.map((a) => [a.outcome, a.status])])).toEqual([
      [delivery.id, 'delivered', [['delivered', 204]]],
    ]);
  });

  it('retries after a 500 and a dropped connection, under the same webhook-id, until delivered', async () => {
    const { id, secret } = await subscribe(['report.published']);
    receiver.answers = [500, 'drop', 200];
    await call('POST', `/api/webhooks/${id}/ping`);
    await settle();
    const ids = new Set(receiver.received.map((message) => message.headers['webhook-id']));
    expect([receiver.received.length, ids.size]).toEqual([3, 1]);
    for (const message of receiver.received) verified(secret, message);
    const [delivery] = (await (await call('GET', `/api/webhooks/${id}/deliveries`)).json()).items as {
      state: string;
      attempts: { outcome: string; status?: number; error?: string }[];
    }[];
    expect(delivery!.state).toBe('delivered');
    expect(
      delivery!.attempts.map(({ outcome, status, error }) => [outcome, status ?? null, error === undefined ? null : 'error']),
    ).toEqual([
      ['failed', 500, 'error'],
      ['failed', null, 'error'],
      ['delivered', 200, null],
    ]);
  });

  it('counts a redirect as a failed attempt and never follows it, not even to the same receiver', async () => {
    const { id } = await subscribe(['report.published']);
    receiver.answers = [{ redirect: '/elsewhere' }];
    await call('POST', `/api/webhooks/${id}/ping`);
    await settle();
    expect(receiver.paths).toEqual(['/hooks', '/hooks']);
    const [delivery] = (await (await call('GET', `/api/webhooks/${id}/deliveries`)).json()).items as {
      attempts: { outcome: string; status?: number; error?: string }[];
    }[];
    expect(delivery!.attempts).toEqual([
      expect.objectContaining({ outcome: 'failed', status: 307, error: 'the endpoint answered 307' }),
      expect.objectContaining({ outcome: 'delivered', status: 204 }),
    ]);
  });

  it('is failed after the last attempt, and a redelivery sends the same message again', async () => {
    const { id, secret } = await subscribe(['report.published']);
    receiver.answers = Array.from({ length: deliveryRetry.maxAttempts }, () => 503);
    const { id: deliveryId } = (await (await call('POST', `/api/webhooks/${id}/ping`)).json()) as { id: string };
    await settle();
    const failed = (await (await call('GET', `/api/webhooks/${id}/deliveries`)).json()).items[0] as {
      state: string;
      attempts: unknown[];
    };
    expect([failed.state, failed.attempts.length]).toEqual(['failed', deliveryRetry.maxAttempts]);
    const redelivered = await call('POST', `/api/webhooks/${id}/deliveries/${deliveryId}/redeliver`);
    expect(redelivered.status).toBe(202);
    await settle();
    const last = receiver.received.at(-1)!;
    expect([last.headers['webhook-id'], last.body]).toEqual([deliveryId, receiver.received[0]!.body]);
    verified(secret, last);
    const after = (await (await call('GET', `/api/webhooks/${id}/deliveries`)).json()).items[0] as { state: string };
    expect(after.state).toBe('delivered');
  });

  it("answers a redelivery of another webhook's delivery, or of none, with 404", async () => {
    const { id } = await subscribe(['report.published']);
    const missing = await call('POST', `/api/webhooks/${id}/deliveries/msg_000000000000000000000000/redeliver`);
    expect(await missing.json()).toEqual(
      expectedProblem(
        'delivery_not_found',
        `The webhook ${id} has no delivery "msg_000000000000000000000000".`,
        `/api/webhooks/${id}/deliveries/msg_000000000000000000000000/redeliver`,
        missing.headers.get('x-request-id')!,
      ),
    );
  });

  it('records a target that now resolves to an internal address as refused, without the address', async () => {
    const response = await call('POST', '/api/webhooks', {
      url: 'https://hooks.example.com/evident',
      events: ['report.published'],
    });
    const { id } = (await response.json()) as { id: string };
    dns.set('hooks.example.com', '10.1.2.3'); // rebound after the subscription was checked
    receiver.answers = [];
    await call('POST', `/api/webhooks/${id}/ping`);
    await settle();
    const [delivery] = (await (await call('GET', `/api/webhooks/${id}/deliveries`)).json()).items as {
      state: string;
      attempts: { outcome: string; error?: string }[];
    }[];
    expect(delivery!.attempts.map(({ outcome, error }) => [outcome, error])).toEqual(
      Array.from({ length: deliveryRetry.maxAttempts }, () => [
        'failed',
        'refused: hooks.example.com is not an allowed target (it must resolve only to public addresses)',
      ]),
    );
  });
});

describe('announcing events', () => {
  it('delivers each event once to the subscriptions that want it, however often it is announced', async () => {
    await subscribe(['report.published', 'control.status_changed']);
    await subscribe(['control.status_changed'], 'slack');
    const dispatcher = new WebhookDispatcher(webhooks, queue, () => new Date());
    const kinds = () =>
      receiver.received.map((message) => (JSON.parse(message.body) as { type?: string; text?: string }).type ?? 'slack').sort();
    const events = reportEvents(report('daily-1'), { republished: false, at: new Date() });
    expect(await dispatcher.announce(events)).toBe(3);
    await dispatcher.announce(events); // a retried job announces again
    await settle();
    expect(kinds()).toEqual(['control.status_changed', 'report.published', 'slack']);
    expect(receiver.received.map((message) => JSON.parse(message.body) as unknown)).toContainEqual({
      text: 'IAM-08 Data stores are not public: passing → failing (2026-11-24)',
    });
    // A republication the same day brings a new report.published, but the same status change is not sent again.
    await dispatcher.announce(reportEvents(report('an-2'), { republished: true, at: new Date() }));
    await settle();
    expect(kinds()).toEqual(['control.status_changed', 'report.published', 'report.published', 'slack']);
  });
});
