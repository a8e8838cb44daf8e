/**
 * The limit on a subscription's test pings and redeliveries, counted together, kept in the store
 * so that it holds across instances: past it, 429 with `Retry-After` until the oldest send in the
 * window is old enough. The clock is the test's.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhookManualSends } from '@evident/contract';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import type { ObjectStore } from '../../../functions/src/storage/object-store.ts';
import { setMode } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import type { Served } from '../../support/serve.ts';
import { webhookInstances } from '../../support/webhook-instances.ts';

const { limit, windowSeconds } = webhookManualSends;
const start = new Date('2026-11-24T06:00:00Z');

let now = start;
const webhooks = webhookInstances();
const instance = (store: () => Promise<ObjectStore>) => webhooks.instance(store, () => now);

beforeAll(() => setMode('public'));

afterEach(() => {
  now = start;
});

async function subscribe(served: Served): Promise<string> {
  const response = await fetch(`${served.url}/api/webhooks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: 'https://hooks.example.com/evident', events: ['report.published'] }),
  });
  return ((await response.json()) as { id: string }).id;
}

const post = (served: Served, path: string) => fetch(`${served.url}${path}`, { method: 'POST' });

const limited = (id: string, path: string, response: Response, retryAfter: number) =>
  expectedProblem(
    'webhook_rate_limited',
    `This webhook had ${limit} pings and redeliveries in the last ${windowSeconds / 60} minutes, the most allowed; ` +
      `send the next in ${retryAfter} s.`,
    path,
    response.headers.get('x-request-id')!,
  );

describe('pings and redeliveries', () => {
  it(`are ${limit} a window per subscription, counted together; then 429 with Retry-After until the oldest is old enough`, async () => {
    const served = await instance(async () => new MemoryStore());
    const [id, other] = [await subscribe(served), await subscribe(served)];
    const pinged = await post(served, `/api/webhooks/${id}/ping`);
    const { id: deliveryId } = (await pinged.json()) as { id: string };
    const statuses = [pinged.status];
    now = new Date(start.getTime() + 60_000);
    for (let n = 1; n < limit; n++) {
      const path = n % 2 ? `/api/webhooks/${id}/deliveries/${deliveryId}/redeliver` : `/api/webhooks/${id}/ping`;
      statuses.push((await post(served, path)).status);
    }
    expect(statuses).toEqual(Array.from({ length: limit }, () => 202));

    for (const path of [`/api/webhooks/${id}/ping`, `/api/webhooks/${id}/deliveries/${deliveryId}/redeliver`]) {
      const refused = await post(served, path);
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, String(windowSeconds - 60)]);
      expect(await refused.json()).toEqual(limited(id, path, refused, windowSeconds - 60));
    }
    // Another subscription has its own sends.
    expect((await post(served, `/api/webhooks/${other}/ping`)).status).toBe(202);

    // The first send leaves the window: one more, and the next waits for the second.
    now = new Date(start.getTime() + windowSeconds * 1000);
    expect((await post(served, `/api/webhooks/${id}/ping`)).status).toBe(202);
    const again = await post(served, `/api/webhooks/${id}/ping`);
    expect([again.status, again.headers.get('retry-after')]).toEqual([429, '60']);
  });

  it(`let exactly ${limit} of 40 concurrent pings through, on two instances over one folder`, async () => {
    const dir = await webhooks.sharedFolder();
    const instances = [
      await instance(async () => new LocalFolderStore(dir)),
      await instance(async () => new LocalFolderStore(dir)),
    ];
    const id = await subscribe(instances[0]!);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => post(instances[n % 2]!, `/api/webhooks/${id}/ping`)));
    const statuses = answers.map((answer) => answer.status);
    expect([statuses.filter((status) => status === 202).length, statuses.filter((status) => status === 429).length]).toEqual([
      limit,
      40 - limit,
    ]);
    for (const answer of answers.filter((each) => each.status === 429)) {
      expect(await answer.json()).toEqual(limited(id, `/api/webhooks/${id}/ping`, answer, windowSeconds));
    }
  });
});
