/**
 * The `webhooks` family: subscriptions to what Evident announces (a report published, a control
 * whose status changed, evidence about to go stale…), each delivered signed as the Standard
 * Webhooks specification says, from a task queue with retries, every attempt recorded.
 */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, cursorParameter, jsonResponse, ref, responseRef } from '../components.ts';
import {
  maxWebhooks,
  pageLimits,
  webhookDeliveryIdPattern,
  webhookEventTypes,
  webhookFormats,
  webhookIdPattern,
  webhookManualSends,
} from '@evident/contract';

export const tag = {
  name: 'webhooks',
  description:
    'Outbound webhooks: an https endpoint subscribes to events and receives each one signed (Standard Webhooks: ' +
    '`webhook-id`, `webhook-timestamp`, `webhook-signature`, HMAC-SHA256 with the subscription\u2019s secret), ' +
    'at least once, retried with exponential back-off; a receiver deduplicates by `webhook-id`.',
};

const webhookId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: webhookIdPattern } } as const;
const deliveryId = {
  name: 'deliveryId',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: webhookDeliveryIdPattern },
} as const;

const eventType = { type: 'string', enum: [...webhookEventTypes] } as const;

export const schemas = {
  WebhookInput: {
    type: 'object',
    required: ['url', 'events'],
    additionalProperties: false,
    properties: {
      url: {
        type: 'string',
        minLength: 1,
        maxLength: 2048,
        description:
          'Where to POST: https, and neither a private, loopback, link-local nor cloud metadata address, nor a name ' +
          'that resolves to one (http to a loopback address only in the local emulators). Redirects are not followed.',
      },
      events: { type: 'array', minItems: 1, uniqueItems: true, items: eventType, description: 'The events to send.' },
      format: {
        type: 'string',
        enum: [...webhookFormats],
        default: 'json',
        description: '`json`: `{type, timestamp, data}`; `slack`: `{text}`, for a Slack incoming webhook.',
      },
      description: { type: 'string', maxLength: 200, description: 'What the endpoint is, for people.' },
    },
  },
  Webhook: {
    type: 'object',
    required: ['id', 'url', 'events', 'format', 'description', 'createdAt', 'createdBy'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: webhookIdPattern },
      url: {
        type: 'string',
        description:
          'The URL as listings show it: its origin, then `/\u2026` and the last four characters of its path and query ' +
          '(all of them hidden when they are eight or fewer), e.g. `https://hooks.slack.com/\u2026x7Qa`. A webhook URL ' +
          'may carry a credential (a Slack incoming-webhook URL is one), so it is shown in full once, when created.',
      },
      events: { type: 'array', items: eventType },
      format: { type: 'string', enum: [...webhookFormats] },
      description: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      createdBy: ref('Actor'),
    },
  },
  WebhookCreated: {
    allOf: [
      ref('Webhook'),
      {
        type: 'object',
        required: ['url', 'secret'],
        properties: {
          url: { type: 'string', description: 'The URL in full, shown this once.' },
          secret: {
            type: 'string',
            description:
              'The signing secret (`whsec_…`), shown this once: verify each delivery\u2019s `webhook-signature` with it.',
          },
        },
      },
    ],
  },
  WebhookList: {
    type: 'object',
    required: ['webhooks'],
    additionalProperties: false,
    properties: { webhooks: { type: 'array', items: ref('Webhook'), description: 'Oldest first.' } },
  },
  DeliveryAttempt: {
    type: 'object',
    required: ['at', 'durationMs', 'outcome'],
    additionalProperties: false,
    properties: {
      at: { type: 'string', format: 'date-time' },
      durationMs: { type: 'integer', minimum: 0 },
      outcome: { type: 'string', enum: ['delivered', 'failed'], description: '`delivered`: the endpoint answered 2xx.' },
      status: { type: 'integer', description: 'The endpoint\u2019s HTTP status, when it answered.' },
      error: { type: 'string', description: 'Why the attempt failed, when it did not get a 2xx answer.' },
    },
  },
  Delivery: {
    type: 'object',
    required: ['id', 'webhookId', 'event', 'createdAt', 'state', 'attempts'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: webhookDeliveryIdPattern, description: 'The `webhook-id` of every attempt.' },
      webhookId: { type: 'string', pattern: webhookIdPattern },
      event: {
        type: 'object',
        required: ['type', 'timestamp'],
        additionalProperties: false,
        properties: { type: { type: 'string' }, timestamp: { type: 'string', format: 'date-time' } },
      },
      createdAt: { type: 'string', format: 'date-time' },
      state: {
        type: 'string',
        enum: ['pending', 'delivered', 'failed'],
        description: '`pending` until an attempt succeeds or the retries are spent (`failed`).',
      },
      attempts: { type: 'array', items: ref('DeliveryAttempt'), description: 'Oldest first.' },
    },
  },
  DeliveryPage: {
    type: 'object',
    required: ['items', 'hasMore'],
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: ref('Delivery'), description: 'Newest first.' },
      hasMore: { type: 'boolean' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present when `hasMore`.' },
    },
  },
} as const;

const notFound = { '404': responseRef('WebhookNotFound') };

const manualSendLimit =
  `A subscription may have ${webhookManualSends.limit} pings and redeliveries (counted together) in any ` +
  `${webhookManualSends.windowSeconds / 60} minutes; past that, 429 with \`Retry-After\`.`;

export const paths: PathsObject = {
  '/api/webhooks': {
    post: {
      operationId: 'createWebhook',
      summary: 'Subscribe an endpoint to events',
      description:
        `At most ${maxWebhooks} subscriptions. The URL is checked now (its name resolved) and again at every ` +
        'delivery. The answer carries the URL in full and the signing secret, once: both are stored encrypted, and ' +
        'listings show the URL shortened.',
      tags: ['webhooks'],
      security: access.protected,
      'x-body-limit': 8 * 1024,
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookInput') } } },
      responses: {
        '201': jsonResponse('The subscription, with its URL in full and its secret.', ref('WebhookCreated'), {
          Location: { description: 'The new subscription.', schema: { type: 'string' } },
        }),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '409': responseRef('TooManyWebhooks'),
        '422': responseRef('WebhookRefused'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
    get: {
      operationId: 'listWebhooks',
      summary: 'List webhook subscriptions',
      tags: ['webhooks'],
      security: access.protected,
      responses: {
        '200': jsonResponse('The subscriptions, without their secrets, their URLs shortened.', ref('WebhookList')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/webhooks/{id}': {
    get: {
      operationId: 'getWebhook',
      summary: 'Get one webhook subscription',
      tags: ['webhooks'],
      security: access.protected,
      parameters: [webhookId],
      responses: {
        '200': jsonResponse('The subscription, without its secret, its URL shortened.', ref('Webhook')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        ...notFound,
        '500': responseRef('InternalError'),
      },
    },
    delete: {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook subscription',
      description: 'Nothing more is sent to it, retries of earlier deliveries included.',
      tags: ['webhooks'],
      security: access.protected,
      parameters: [webhookId],
      responses: {
        '204': { description: 'Deleted.' },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        ...notFound,
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/webhooks/{id}/ping': {
    post: {
      operationId: 'pingWebhook',
      summary: 'Send a test event',
      description:
        'Queues a `webhook.ping` delivery to the endpoint, signed like every other; see its attempts in the deliveries. ' +
        manualSendLimit,
      tags: ['webhooks'],
      security: access.protected,
      parameters: [webhookId],
      responses: {
        '202': jsonResponse('The delivery, queued.', ref('Delivery')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        ...notFound,
        '429': responseRef('WebhookRateLimited'),
        '500': responseRef('InternalError'),
        '503': responseRef('QueueUnavailable'),
      },
    },
  },
  '/api/webhooks/{id}/deliveries': {
    get: {
      operationId: 'listWebhookDeliveries',
      summary: 'List a webhook\u2019s deliveries',
      tags: ['webhooks'],
      security: access.protected,
      parameters: [
        webhookId,
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: {
            type: 'integer',
            minimum: 1,
            maximum: pageLimits.webhookDeliveries.maximum,
            default: pageLimits.webhookDeliveries.default,
          },
        },
        cursorParameter,
      ],
      responses: {
        '200': jsonResponse('A page of deliveries, with every attempt.', ref('DeliveryPage')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        ...notFound,
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    post: {
      operationId: 'redeliverWebhook',
      summary: 'Send a delivery again',
      description: `Queues the same message again, under the same \`webhook-id\`, whatever became of it. ${manualSendLimit}`,
      tags: ['webhooks'],
      security: access.protected,
      parameters: [webhookId, deliveryId],
      responses: {
        '202': jsonResponse('The delivery, queued again.', ref('Delivery')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('WebhookOrDeliveryNotFound'),
        '429': responseRef('WebhookRateLimited'),
        '500': responseRef('InternalError'),
        '503': responseRef('QueueUnavailable'),
      },
    },
  },
};
