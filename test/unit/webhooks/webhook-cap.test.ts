/**
 * The cap on subscriptions holds under concurrency: creates on one instance and on several
 * instances over one store (as Cloud Functions instances share the bucket) all race, and exactly
 * as many succeed as the cap allows. Subscriptions from before the cap was kept by slots count
 * too, and a slot whose create never finished is taken back once that create cannot still be
 * running.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { maxWebhooks } from '@evident/contract';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { setMode } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import type { Served } from '../../support/serve.ts';
import { webhookInstances } from '../../support/webhook-instances.ts';

const tooMany = `There are ${maxWebhooks} subscriptions already, the most kept; delete one first.`;
const { instance, sharedFolder } = webhookInstances();

beforeAll(() => setMode('public'));

const create = (served: Served, n: number) =>
  fetch(`${served.url}/api/webhooks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: `https://hooks.example.com/${n}`, events: ['report.published'] }),
  });

/** Sends `count` creates at once, spread over the instances; each answer's status, and the refusals' bodies. */
async function createAtOnce(instances: Served[], count: number) {
  const answers = await Promise.all(Array.from({ length: count }, (_, n) => create(instances[n % instances.length]!, n)));
  const bodies = await Promise.all(answers.map(async (answer) => ({ answer, body: (await answer.json()) as unknown })));
  const refused = bodies.filter(({ answer }) => answer.status !== 201);
  return {
    created: bodies.length - refused.length,
    refusals: refused.map(({ answer, body }) => ({ status: answer.status, body })),
    expectedRefusals: refused.map(({ answer }) => ({
      status: 409,
      body: expectedProblem('too_many_webhooks', tooMany, '/api/webhooks', answer.headers.get('x-request-id')!),
    })),
  };
}

const listed = async (served: Served) =>
  ((await (await fetch(`${served.url}/api/webhooks`)).json()) as { webhooks: { id: string }[] }).webhooks;

describe('the subscription cap', () => {
  it(`lets exactly ${maxWebhooks} of 40 creates on one instance succeed when all 40 look before any writes`, async () => {
    // The first 40 listings wait for one another: every create has looked before any has written.
    const store = new RecordingStore(new MemoryStore());
    let release!: () => void;
    const allLooked = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    store.before = async ({ op, name }) => {
      if (op !== 'list' || !name.startsWith('webhooks/') || held === 40) return;
      held += 1;
      if (held === 40) release();
      await allLooked;
    };
    const served = await instance(async () => store);
    const { created, refusals, expectedRefusals } = await createAtOnce([served], 40);
    expect([created, refusals.length]).toEqual([maxWebhooks, 40 - maxWebhooks]);
    expect(refusals).toEqual(expectedRefusals);
    expect(await listed(served)).toHaveLength(maxWebhooks);
  });

  it(`lets exactly ${maxWebhooks} of 40 concurrent creates on four instances over one folder succeed`, async () => {
    const dir = await sharedFolder();
    const instances = await Promise.all(Array.from({ length: 4 }, () => instance(async () => new LocalFolderStore(dir))));
    const { created, refusals, expectedRefusals } = await createAtOnce(instances, 40);
    expect([created, refusals.length]).toEqual([maxWebhooks, 40 - maxWebhooks]);
    expect(refusals).toEqual(expectedRefusals);
    expect(await listed(instances[0]!)).toHaveLength(maxWebhooks);
  });

  it('frees the slot of a deleted subscription for the next create', async () => {
    const store = new MemoryStore();
    const served = await instance(async () => store);
    for (let n = 0; n < maxWebhooks; n++) expect((await create(served, n)).status).toBe(201);
    const [first] = await listed(served);
    expect((await fetch(`${served.url}/api/webhooks/${first!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await store.list('webhooks/subscription-slots/')).items).toHaveLength(maxWebhooks - 1);
    expect((await create(served, 100)).status).toBe(201);
    expect((await create(served, 101)).status).toBe(409);
  });

  it('counts the subscriptions stored before the slots, so concurrent creates fill only what they leave', async () => {
    const store = new MemoryStore();
    for (let n = 0; n < maxWebhooks - 1; n++) {
      const id = `wh-${String(n).padStart(12, '0')}`;
      const older = {
        id,
        url: `https://hooks.example.com/older/${n}`,
        events: ['report.published'],
        format: 'json',
        description: '',
        createdAt: '2026-11-01T00:00:00.000Z',
        createdBy: { uid: 'a' },
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      };
      await store.create(`webhooks/subscriptions/${id}.json`, JSON.stringify(older));
    }
    const served = await instance(async () => store);
    const { created, refusals, expectedRefusals } = await createAtOnce([served], 10);
    expect([created, refusals.length]).toEqual([1, 9]);
    expect(refusals).toEqual(expectedRefusals);
    expect(await listed(served)).toHaveLength(maxWebhooks);
  });

  it('takes back the slots of creates that stopped before writing, once they cannot still be running', async () => {
    const store = new MemoryStore();
    const claimed = new Date('2026-11-24T06:00:00Z');
    for (let n = 0; n < maxWebhooks; n++) {
      const metadata = { webhook: `wh-dead${String(n).padStart(8, '0')}`, claimed: claimed.toISOString() };
      await store.create(`webhooks/subscription-slots/${String(n).padStart(2, '0')}`, '', { metadata });
    }
    let now = new Date(claimed.getTime() + 5 * 60_000);
    const served = await instance(
      async () => store,
      () => now,
    );
    expect((await create(served, 1)).status).toBe(409);
    now = new Date(claimed.getTime() + 10 * 60_000);
    expect((await create(served, 2)).status).toBe(201);
    const [slots, subscriptions] = await Promise.all([
      store.list('webhooks/subscription-slots/'),
      store.list('webhooks/subscriptions/'),
    ]);
    expect([slots.items.length, subscriptions.items.length]).toEqual([maxWebhooks, 1]);
  });
});
