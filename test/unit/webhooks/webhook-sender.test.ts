/**
 * One delivery attempt against receivers that misbehave slowly: whatever the receiver does, the
 * attempt ends at its total bound (injected small here), not when the receiver stops sending.
 * The receiver drips a byte at a time for far longer than the bound and says, in order, what
 * happened to its connection: cut by the sender, or finished by itself.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { reportEvents } from '../../../functions/src/webhooks/webhook-events.ts';
import { WebhookKeys } from '../../../functions/src/webhooks/webhook-keys.ts';
import { attemptDelivery } from '../../../functions/src/webhooks/webhook-sender.ts';
import { WebhookStore } from '../../../functions/src/webhooks/webhook-store.ts';
import { emptyReport } from '../../support/reports.ts';
import { startScriptedOrigin, type ScriptedOrigin } from '../../support/scripted-origin.ts';

/** Drips this many bytes, one every `dripMs`: seconds in all, far past the bound below. */
const drips = 150;
const dripMs = 20;
const boundMs = 200;
const keys = WebhookKeys.parse(WebhookKeys.generate());

let origin: ScriptedOrigin | undefined;
let webhooks: WebhookStore;
/** What the receiver saw, in order: each byte sent, then `cut` (the sender closed) or `finished`. */
let events: string[];
let ended: Promise<void>;

beforeEach(() => {
  vi.spyOn(logs, 'webhookAttempted').mockImplementation(() => undefined);
  webhooks = new WebhookStore(new MemoryStore(), () => keys);
  events = [];
});

afterEach(async () => {
  await origin?.close();
  vi.restoreAllMocks();
});

/** Sends `write` every `dripMs` until `drips` are sent (then `finish`) or the sender cuts the connection. */
function drip(res: ServerResponse, write: () => void, finish: () => void): void {
  let end!: () => void;
  ended = new Promise((resolve) => (end = resolve));
  let sent = 0;
  const timer = setInterval(() => {
    if (sent === drips) {
      clearInterval(timer);
      finish();
      events.push('finished');
      end();
      return;
    }
    write();
    sent += 1;
    events.push('byte');
  }, dripMs);
  res.socket!.on('close', () => {
    if (events.at(-1) === 'finished') return;
    clearInterval(timer);
    events.push('cut');
    end();
  });
}

/** A subscription to the scripted receiver and one delivery to it; the attempt's record. */
async function attemptTo(target: ScriptedOrigin) {
  const url = `${target.origin}/hook`;
  const webhook = {
    id: 'wh-000000000001',
    url,
    events: ['report.published' as const],
    format: 'json' as const,
    description: '',
    createdAt: '2026-11-24T06:00:00.000Z',
    createdBy: { uid: 'a' },
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  };
  await webhooks.create(webhook, new Date());
  const event = reportEvents(emptyReport('2026-11-24'), { republished: false, at: new Date() })[0]!;
  const delivery = await webhooks.recordDelivery(webhook, event, '{}', new Date());
  await attemptDelivery(
    { store: webhooks, policy: { allowLoopback: true }, now: () => new Date(), attemptTimeoutMs: boundMs },
    delivery.id,
    { number: 1, final: true },
  );
  await ended;
  return (await webhooks.attempts(delivery.id)).map(({ outcome, status, error }) => ({ outcome, status, error }));
}

describe('a delivery attempt', () => {
  it('is cut at its total bound when the receiver drips its status line and headers', async () => {
    origin = await startScriptedOrigin((request, res) => {
      if (request.path !== '/hook') return void res.writeHead(404).end();
      res.socket!.write('HTTP/1.1 200 OK\r\nX-Drip: ');
      drip(
        res,
        () => res.socket!.write('a'),
        () => res.socket!.end('\r\nContent-Length: 0\r\n\r\n'),
      );
    });
    expect(await attemptTo(origin)).toEqual([{ outcome: 'failed', status: undefined, error: 'no answer within 0.2 s' }]);
    expect(events.at(-1)).toBe('cut');
    expect(events.slice(0, -1).every((event) => event === 'byte')).toBe(true);
  });

  it('is cut at its total bound when the receiver answers 200 and drips the body, and counts as delivered', async () => {
    origin = await startScriptedOrigin((request, res) => {
      if (request.path !== '/hook') return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.flushHeaders();
      drip(
        res,
        () => res.write('a'),
        () => res.end(),
      );
    });
    expect(await attemptTo(origin)).toEqual([{ outcome: 'delivered', status: 200, error: undefined }]);
    expect(events.at(-1)).toBe('cut');
  });
});
