/**
 * One attempt at a delivery, as the delivery task makes it: the message signed as the Standard
 * Webhooks specification says (the `standardwebhooks` library: `webhook-id` the delivery's id,
 * `webhook-timestamp` this attempt's time, `webhook-signature` HMAC-SHA256 with the
 * subscription's secret), POSTed to a target checked again now and connected to only at a
 * public address (webhook-targets.ts), redirects not followed, 10 seconds at most in all. Every
 * attempt is recorded; one that did not get a 2xx answer throws, so the queue tries again, until
 * its last attempt, which marks the delivery failed.
 */
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { logs } from '../logs.js';
import { checkTargetUrl, guardedLookup, TargetRefused, type AddressLookup, type TargetPolicy } from './webhook-targets.js';
import type { WebhookStore } from './webhook-store.js';

/** The most one attempt takes, from resolving the name to the end of the answer. */
const attemptTimeoutMs = 10_000;
/** Most of an answer read before it is dropped: only its status matters. */
const maxAnswerBytes = 64 * 1024;

export interface SenderDeps {
  store: WebhookStore;
  policy: TargetPolicy;
  now: () => Date;
  /** How names resolve at connect time; DNS unless a test scripts it. */
  lookup?: AddressLookup;
  /** The bound on one attempt, 10 s unless a test needs a shorter one. */
  attemptTimeoutMs?: number;
}

export interface AttemptOf {
  /** 1 for the first attempt. */
  number: number;
  /** The queue will not try again after this one. */
  final: boolean;
}

export class DeliveryFailed extends Error {}

type Outcome = { status: number } | { error: string };

export async function attemptDelivery(deps: SenderDeps, deliveryId: string, attempt: AttemptOf): Promise<void> {
  const delivery = await deps.store.delivery(deliveryId);
  const webhook = delivery && (await deps.store.get(delivery.webhookId));
  if (!delivery || !webhook) {
    // A deleted subscription gets nothing more; retrying would not change that.
    logs.webhookSkipped(deliveryId, delivery ? 'subscription deleted' : 'unknown delivery');
    return;
  }
  const { url, secret } = await deps.store.credentials(webhook);
  const at = deps.now();
  const started = performance.now();
  const outcome = await post(
    { raw: url, headers: signedHeaders(secret, delivery.id, at, delivery.body), body: delivery.body },
    deps,
  );
  const delivered = 'status' in outcome && outcome.status >= 200 && outcome.status < 300;
  const record = {
    at: at.toISOString(),
    durationMs: Math.round(performance.now() - started),
    outcome: delivered ? ('delivered' as const) : ('failed' as const),
    ...('status' in outcome ? { status: outcome.status } : {}),
    ...('error' in outcome ? { error: outcome.error } : delivered ? {} : { error: `the endpoint answered ${outcome.status}` }),
    final: delivered || attempt.final,
  };
  await deps.store.recordAttempt(delivery.id, record);
  logs.webhookAttempted(delivery.id, webhook.id, attempt.number, record.outcome, record.status ?? null, record.durationMs);
  if (!delivered && !attempt.final)
    throw new DeliveryFailed(`delivery ${delivery.id} attempt ${attempt.number}: ${record.error}`);
}

export function signedHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Evident-Webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

/**
 * POSTs once: the answer's status, or why there was none. Never follows a redirect (node:http
 * does not). One deadline bounds the whole attempt, not only the time between two bytes: a
 * receiver that sends a byte every few seconds never lets an idle timeout fire, and would hold
 * a dispatch slot until the task's own timeout. At the deadline the connection is cut; an
 * answer whose status had come keeps it (a 2xx is a delivery), one still without is a failure.
 */
function post(message: { raw: string; headers: Record<string, string>; body: string }, deps: SenderDeps): Promise<Outcome> {
  // The text now; the addresses as the socket connects (guardedLookup), so a name is resolved once per attempt.
  const checked = checkTargetUrl(message.raw, deps.policy);
  if ('refused' in checked) return Promise.resolve({ error: `refused: ${checked.refused}` });
  const client = checked.url.protocol === 'https:' ? https : http;
  const timeoutMs = deps.attemptTimeoutMs ?? attemptTimeoutMs;
  return new Promise<Outcome>((resolve) => {
    let status: number | undefined;
    const finish = (outcome: Outcome) => {
      clearTimeout(deadline);
      resolve(outcome);
    };
    const request = client.request(
      checked.url,
      {
        method: 'POST',
        headers: { ...message.headers, 'content-length': String(Buffer.byteLength(message.body)) },
        lookup: guardedLookup(deps.policy, deps.lookup),
        // A fresh connection per attempt: no pooled socket the endpoint may have closed, and every connect is checked.
        agent: false,
      },
      (answer) => {
        status = answer.statusCode ?? 0;
        let read = 0;
        answer.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > maxAnswerBytes) answer.destroy();
        });
        answer.on('close', () => finish({ status: status! }));
        answer.on('error', () => finish({ status: status! }));
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    request.on('error', (error) => {
      if (status !== undefined) return finish({ status });
      if (error instanceof TargetRefused) logs.webhookTargetRefused('attempt', checked.url.hostname, error.detail);
      finish({ error: error instanceof TargetRefused ? `refused: ${error.message}` : error.message });
    });
    request.end(message.body);
  });
}
