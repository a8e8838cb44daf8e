/**
 * A webhook receiver on loopback for the integration tests, started before the file's tests and
 * closed after: it records every message (headers and body) and answers each with the next
 * status the test scripted, 204 when none is left; `verify` checks a message's signature as a
 * receiver would, with the `standardwebhooks` library.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll } from 'vitest';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

export interface WebhookReceiver {
  /** Every message received, in order; a test may empty it. */
  received: Received[];
  /** The statuses to answer with, one per message, in order. */
  answers: number[];
  /** Where the receiver listens, at `path`; known once the file's tests start. */
  url(): string;
}

export function useWebhookReceiver(path: string): WebhookReceiver {
  const server = createServer();
  const receiver: WebhookReceiver = {
    received: [],
    answers: [],
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
  };
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.answers.shift() ?? 204).end();
    });
  });
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return receiver;
}

/** The event a message carries, once its signature checks out with `secret` (throws when it does not). */
export const verify = (secret: string, message: Received) =>
  new Webhook(secret).verify(message.body, {
    'webhook-id': String(message.headers['webhook-id']),
    'webhook-timestamp': String(message.headers['webhook-timestamp']),
    'webhook-signature': String(message.headers['webhook-signature']),
  }) as { type: string; data: Record<string, unknown> };
