/**
 * The `webhooks` family: subscribe an endpoint (its URL checked against the SSRF rules now, and
 * again at every attempt), list and delete subscriptions, send a test event, and read and redo
 * deliveries. Sending happens in the delivery task (webhook-sender.ts), never in the request.
 * The URL and the signing secret are credentials: the create answer shows them once, listings
 * show the URL shortened (`shownWebhookUrl`), and the store keeps both sealed.
 */
import type { DeliveryTask } from '../webhooks/webhook-dispatch.js';
import { WebhookDispatcher, deliveryFunctionName } from '../webhooks/webhook-dispatch.js';
import { keyRingFrom, type WebhookKeys } from '../webhooks/webhook-keys.js';
import { WebhookStore, newSecret, newWebhookId, type NewWebhook, type WebhookRecord } from '../webhooks/webhook-store.js';
import type { components } from '../generated/api-types.js';
import { checkTargetUrl, resolveTarget, type TargetPolicy } from '../webhooks/webhook-targets.js';
import { cloudTaskQueue, type NamedTaskQueue } from '../common/cloud-tasks.js';
import { loadOnce } from '../common/maybe-async.js';
import * as config from '../config.js';
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem } from '../http/problem.js';
import { logs } from '../logs.js';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions } from './services.js';

export type WebhooksFamilyOptions = FamilyOptions &
  ServiceOptions & {
    /** Where deliveries are queued; Cloud Tasks unless a test delivers in process. */
    queue?: () => NamedTaskQueue<DeliveryTask>;
    /** Which targets may be registered; loopback only in the emulators. */
    policy?: () => TargetPolicy;
    /** How names resolve, for a test that must not use DNS. */
    lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
    /** The key ring that seals credentials; `WEBHOOK_SECRET_KEY` unless a test brings its own. */
    keys?: () => WebhookKeys;
  };

/** Seconds a client waits before retrying when the queue refused a delivery. */
const queueRetryAfterSeconds = 5;

type WebhookInput = components['schemas']['WebhookInput'];

/** A subscription as listings show it: without its credentials. */
const shown = ({ credentials: _credentials, ...webhook }: WebhookRecord) => webhook;

/** A subscription as asked, its target checked (and resolved) against the SSRF rules, with a new secret. */
async function newSubscription(
  body: WebhookInput,
  options: { policy: TargetPolicy; lookup: WebhooksFamilyOptions['lookup']; now: Date; createdBy: WebhookRecord['createdBy'] },
): Promise<NewWebhook> {
  const checked = checkTargetUrl(body.url, options.policy);
  if ('refused' in checked) throw new ApiProblem('webhook_target_refused', `The webhook URL is refused: ${checked.refused}.`);
  // A resolver that cannot answer now (not "no such name") refuses too, saying so: the request can be sent again.
  const resolved = await resolveTarget(checked.url, options.policy, options.lookup).catch((error: unknown) => ({
    refused: `${checked.url.hostname} could not be resolved now (${(error as { code?: string }).code ?? 'DNS error'}); try again`,
  }));
  if ('refused' in resolved) {
    if ('detail' in resolved && resolved.detail) logs.webhookTargetRefused('subscribe', checked.url.hostname, resolved.detail);
    throw new ApiProblem('webhook_target_refused', `The webhook URL is refused: ${resolved.refused}.`);
  }
  return {
    id: newWebhookId(),
    url: checked.url.href,
    events: body.events,
    format: body.format ?? 'json',
    description: body.description ?? '',
    createdAt: options.now.toISOString(),
    createdBy: options.createdBy,
    secret: newSecret(),
  };
}

export function createWebhooksFamily(options: WebhooksFamilyOptions = {}) {
  const services = servicesFrom(options);
  const policy = options.policy ?? (() => ({ allowLoopback: config.inEmulator() }));
  const keys = options.keys ?? keyRingFrom(config.webhookSecretKey);
  const deps = loadOnce(async () => {
    const s = await services();
    const store = new WebhookStore(s.store, keys);
    const queue = (options.queue ?? (() => cloudTaskQueue<DeliveryTask>(deliveryFunctionName)))();
    return { s, store, dispatcher: new WebhookDispatcher(store, queue, s.now) };
  });
  const found = async (id: string) => {
    const { store } = await deps();
    const webhook = await store.get(id);
    if (!webhook) throw new ApiProblem('webhook_not_found', `No webhook subscription has the id "${id}".`);
    return webhook;
  };
  const queued = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiProblem) throw error;
      throw new ApiProblem('queue_unavailable', 'The delivery is recorded but the task queue did not take it; try again.', {
        headers: { 'Retry-After': String(queueRetryAfterSeconds) },
      });
    }
  };

  return createFamily(
    'webhooks',
    {
      createWebhook: async ({ body }, context) => {
        const { s, store } = await deps();
        const now = s.now();
        const asked = await newSubscription(body, {
          policy: policy(),
          lookup: options.lookup,
          now,
          createdBy: actorOf(context.caller),
        });
        const record = await store.create(asked, now);
        // The URL in full and the secret, this once.
        const created = { ...shown(record), url: asked.url, secret: asked.secret };
        return { status: 201, body: created, headers: { Location: `/api/webhooks/${record.id}` } };
      },
      listWebhooks: async () => ({ status: 200, body: { webhooks: (await (await deps()).store.list()).map(shown) } }),
      getWebhook: async ({ path }) => ({ status: 200, body: shown(await found(path.id)) }),
      deleteWebhook: async ({ path }) => {
        if (!(await (await deps()).store.delete(path.id)))
          throw new ApiProblem('webhook_not_found', `No webhook subscription has the id "${path.id}".`);
        return { status: 204, body: undefined };
      },
      pingWebhook: async ({ path }) => {
        const webhook = await found(path.id);
        const { s, store, dispatcher } = await deps();
        await store.takeManualSend(webhook.id, s.now());
        const delivery = await queued(() => dispatcher.ping(webhook));
        return { status: 202, body: await store.describe(delivery) };
      },
      listWebhookDeliveries: async ({ path, query }) => {
        await found(path.id);
        const after = placeOf('deliveries', query.cursor);
        const page = await (await deps()).store.page(path.id, { limit: query.limit, ...(after ? { after } : {}) });
        return { status: 200, body: pageBody('deliveries', page) };
      },
      redeliverWebhook: async ({ path }) => {
        await found(path.id);
        const { s, store, dispatcher } = await deps();
        const delivery = await store.delivery(path.deliveryId);
        if (!delivery || delivery.webhookId !== path.id) {
          throw new ApiProblem('delivery_not_found', `The webhook ${path.id} has no delivery "${path.deliveryId}".`);
        }
        await store.takeManualSend(path.id, s.now());
        await queued(() => dispatcher.redeliver(delivery));
        return { status: 202, body: await store.describe(delivery) };
      },
    },
    options,
  );
}

export const handler = createWebhooksFamily();
