/**
 * Webhook credentials at rest: sealed with AES-256-GCM under the key ring, so the bucket's bytes
 * hold neither a signing secret nor a URL, while deliveries still verify with the
 * `standardwebhooks` library. Subscriptions stored in clear before sealing, and credentials
 * sealed under a key that is no longer the first, are sealed again by the delivery that opens
 * them.
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { reportEvents } from '../../../functions/src/webhooks/webhook-events.ts';
import { WebhookKeyError, WebhookKeys, type Sealed } from '../../../functions/src/webhooks/webhook-keys.ts';
import { attemptDelivery } from '../../../functions/src/webhooks/webhook-sender.ts';
import { WebhookStore, type WebhookRecord } from '../../../functions/src/webhooks/webhook-store.ts';
import { emptyReport } from '../../support/reports.ts';
import { startScriptedOrigin, type ScriptedOrigin, type SeenRequest } from '../../support/scripted-origin.ts';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const older = WebhookKeys.generate();
const newer = WebhookKeys.generate();

let origin: ScriptedOrigin;
let store: MemoryStore;
/** The headers of each request the receiver got, beside its body. */
const headers: Record<string, string>[] = [];

beforeEach(async () => {
  vi.spyOn(logs, 'webhookAttempted').mockImplementation(() => undefined);
  store = new MemoryStore();
  headers.length = 0;
  origin = await startScriptedOrigin((_request, res) => {
    headers.push(Object.fromEntries(Object.entries(res.req.headers).map(([name, value]) => [name, String(value)])));
    res.writeHead(204).end();
  });
});

afterEach(async () => {
  await origin.close();
  vi.restoreAllMocks();
});

const subscription = () => ({
  id: 'wh-00000000000a',
  url: `${origin.origin}/hooks/team-a-7Qx`,
  events: ['report.published' as const],
  format: 'json' as const,
  description: '',
  createdAt: '2026-11-24T06:00:00.000Z',
  createdBy: { uid: 'a' },
});

/** Every byte the bucket holds, all objects together. */
async function bucketBytes(): Promise<Buffer> {
  const names = (await store.list('')).items.map((item) => item.name);
  return Buffer.concat(await Promise.all(names.map(async (name) => (await store.read(name)).data)));
}

/** Delivers one event to the subscription with the key ring given; the message the receiver verified. */
async function deliverWith(ring: string): Promise<unknown> {
  const webhooks = new WebhookStore(store, () => WebhookKeys.parse(ring));
  const event = reportEvents(emptyReport('2026-11-24'), { republished: false, at: new Date() })[0]!;
  const delivery = await webhooks.recordDelivery(
    { id: 'wh-00000000000a' },
    event,
    JSON.stringify({ type: event.type }),
    new Date(),
  );
  await attemptDelivery({ store: webhooks, policy: { allowLoopback: true }, now: () => new Date() }, delivery.id, {
    number: 1,
    final: true,
  });
  const request: SeenRequest = origin.requests.at(-1)!;
  return new Webhook(secret).verify(request.body, headers.at(-1)!);
}

const stored = async () =>
  JSON.parse((await store.read('webhooks/subscriptions/wh-00000000000a.json')).data.toString()) as WebhookRecord;

describe('webhook credentials', () => {
  it('are sealed in the bucket, and deliveries signed with the secret still verify', async () => {
    await new WebhookStore(store, () => WebhookKeys.parse(older)).create({ ...subscription(), secret }, new Date());
    const bytes = await bucketBytes();
    for (const credential of [secret, secret.slice('whsec_'.length), subscription().url, 'team-a-7Qx'])
      expect(bytes.includes(credential)).toBe(false);
    expect(await deliverWith(older)).toEqual({ type: 'report.published' });
    expect(origin.requests.map((request) => request.path)).toEqual(['/hooks/team-a-7Qx']);
  });

  it('stored in clear before sealing are read, delivered, and sealed by that delivery', async () => {
    await store.create('webhooks/subscriptions/wh-00000000000a.json', JSON.stringify({ ...subscription(), secret }));
    expect((await new WebhookStore(store).get('wh-00000000000a'))?.url).toBe(`${origin.origin}/…-7Qx`);
    expect(await deliverWith(older)).toEqual({ type: 'report.published' });
    const after = await stored();
    expect([after.url, (after.credentials.secret as Sealed).kid]).toEqual([
      `${origin.origin}/…-7Qx`,
      WebhookKeys.parse(older).currentKid,
    ]);
    expect((await bucketBytes()).includes(secret)).toBe(false);
    // Sealed now: the next delivery opens it as any other.
    expect(await deliverWith(older)).toEqual({ type: 'report.published' });
  });

  it('sealed under an older key open while it stays in the ring, and are sealed again with the first', async () => {
    await new WebhookStore(store, () => WebhookKeys.parse(older)).create({ ...subscription(), secret }, new Date());
    await expect(deliverWith(newer)).rejects.toThrow(WebhookKeyError);
    expect(await deliverWith(`${newer},${older}`)).toEqual({ type: 'report.published' });
    expect(((await stored()).credentials.url as Sealed).kid).toBe(WebhookKeys.parse(newer).currentKid);
    expect(await deliverWith(newer)).toEqual({ type: 'report.published' });
  });
});

describe('the key ring', () => {
  it('refuses a missing or malformed key, without quoting it', () => {
    expect(() => WebhookKeys.parse(' ')).toThrow(
      new WebhookKeyError('WEBHOOK_SECRET_KEY is not set: webhook credentials cannot be sealed or opened.'),
    );
    for (const bad of ['c2hvcnQ=', `${newer.slice(0, -2)}B=`, `${newer}x`])
      expect(() => WebhookKeys.parse(`${older},${bad}`)).toThrow(
        new WebhookKeyError('WEBHOOK_SECRET_KEY: key 2 is not 32 bytes in base64.'),
      );
  });

  it('opens a value only for the subscription and field it was sealed for, and not once altered', () => {
    const ring = WebhookKeys.parse(older);
    const sealed = ring.seal(secret, 'wh-00000000000a', 'secret');
    expect(ring.open(sealed, 'wh-00000000000a', 'secret')).toBe(secret);
    expect(() => ring.open(sealed, 'wh-00000000000b', 'secret')).toThrow(WebhookKeyError);
    expect(() => ring.open(sealed, 'wh-00000000000a', 'url')).toThrow(WebhookKeyError);
    const flipped = Buffer.from(sealed.data, 'base64url');
    flipped[0]! ^= 1;
    expect(() => ring.open({ ...sealed, data: flipped.toString('base64url') }, 'wh-00000000000a', 'secret')).toThrow(
      WebhookKeyError,
    );
    // GCM checks a shorter tag as far as it goes; only the whole 16 bytes open a value.
    const cut = Buffer.from(sealed.tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => ring.open({ ...sealed, tag: cut }, 'wh-00000000000a', 'secret')).toThrow(WebhookKeyError);
  });
});
