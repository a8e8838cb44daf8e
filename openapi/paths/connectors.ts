/** The `connectors` family: the built-in connectors, what each needs, and their runs on demand with live progress. */
import type { PathsObject, SchemaObject } from 'openapi3-ts/oas31';
import { access, eventStreamOf, jsonResponse, ref, responseRef, resumeParameters, streamEvent } from '../components.ts';
import {
  collectionRunIdPattern,
  connectorFailureReasons,
  connectorIdPattern,
  connectorRunStates,
  evidenceKindNames,
  printableTextPattern,
} from '@evident/contract';

export const tag = {
  name: 'connectors',
  description:
    'Built-in connectors read GitHub, Google Cloud, Google Workspace and Okta through each vendor\u2019s SDK and send ' +
    'what they find as evidence, each run a collection run of its own source (complete with counts, or incomplete, ' +
    'so a connector that fails halfway never shrinks a population). They run on a schedule ahead of the daily ' +
    'report and on demand: a run is executed on the task queue, and its progress is a numbered list of events ' +
    'streamed as server-sent events that resume with `Last-Event-ID`. Secrets stay in Secret Manager and are never ' +
    'returned. See docs/connectors.md.',
};

const connectorId = {
  name: 'connector',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: connectorIdPattern },
} as const;
const runId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: collectionRunIdPattern } } as const;

const eventOf = (type: string, description: string, data: SchemaObject) => streamEvent(type, description, data, { timed: true });
const count = { type: 'integer', minimum: 0 } as const;
const countsByKind = (description: string): SchemaObject => ({
  type: 'object',
  description,
  propertyNames: { enum: [...evidenceKindNames] },
  additionalProperties: count,
});
const text = { type: 'string', pattern: printableTextPattern } as const;

const progress: SchemaObject = {
  type: 'object',
  required: ['calls', 'items', 'sent', 'rateLimitWaits', 'waitedSeconds'],
  additionalProperties: false,
  properties: {
    calls: { ...count, description: 'Calls to the vendor\u2019s API answered so far (a page of a listing, or one resource).' },
    items: { ...count, description: 'Evidence items collected so far.' },
    sent: { ...count, description: 'Of those, the items stored under the run.' },
    rateLimitWaits: { ...count, description: 'How often the vendor asked the connector to slow down.' },
    waitedSeconds: { type: 'number', minimum: 0, description: 'How long those waits took, in all.' },
  },
};

export const schemas = {
  ConnectorSettingSpec: {
    type: 'object',
    required: ['name', 'description', 'required', 'example'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', description: 'Its name under `settings.connectors.<connector>` (`PUT /api/settings`).' },
      description: { type: 'string' },
      required: { type: 'boolean', description: 'A run cannot start without it.' },
      example: { type: 'string' },
      value: {
        oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
        description: 'Its value in the newest settings version, when set.',
      },
    },
  },
  ConnectorSecretSpec: {
    type: 'object',
    required: ['name', 'description'],
    additionalProperties: false,
    description:
      'A secret the connector reads from Secret Manager (locally `functions/.secret.local`). Its value is never shown.',
    properties: { name: { type: 'string' }, description: { type: 'string' } },
  },
  Connector: {
    type: 'object',
    required: [
      'id',
      'title',
      'source',
      'kinds',
      'feeds',
      'settings',
      'secrets',
      'credentials',
      'permissions',
      'enabled',
      'ready',
      'needs',
      'cadenceHours',
      'links',
    ],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: connectorIdPattern },
      title: { type: 'string' },
      source: { type: 'string', description: 'The `source` its evidence items and collection runs carry.' },
      kinds: { type: 'array', items: ref('EvidenceKind'), description: 'Every kind a run collects.' },
      feeds: {
        type: 'array',
        description: 'The catalog\u2019s controls that read one of its kinds, in id order.',
        items: {
          type: 'object',
          required: ['id', 'title'],
          additionalProperties: false,
          properties: { id: { type: 'string' }, title: { type: 'string' } },
        },
      },
      settings: { type: 'array', items: ref('ConnectorSettingSpec') },
      secrets: { type: 'array', items: ref('ConnectorSecretSpec') },
      credentials: { type: 'string', description: 'How it authenticates to the vendor.' },
      permissions: {
        type: 'array',
        items: { type: 'string' },
        description: 'The least-privilege permissions or scopes to grant it on the vendor\u2019s side.',
      },
      enabled: {
        type: 'boolean',
        description: 'The deployment runs it (`CONNECTORS`), so its secrets are bound to the worker.',
      },
      ready: { type: 'boolean', description: 'Enabled, with every setting a run needs saved: a run can start.' },
      needs: {
        type: 'array',
        items: { type: 'string' },
        description: 'What is missing before a run can start, in words; empty when ready. Secrets are checked when a run starts.',
      },
      cadenceHours: {
        type: 'integer',
        minimum: 1,
        description: 'How often the schedule runs it (`settings.connectors.<connector>.cadenceHours`, 24 by default).',
      },
      newestRun: { ...ref('CollectionRun'), description: 'Its newest collection run, when it has one.' },
      links: {
        type: 'object',
        required: ['self', 'runs', 'start'],
        additionalProperties: false,
        properties: {
          self: { type: 'string' },
          runs: { type: 'string', description: 'Its collection runs, newest first (`GET /api/runs?source=`).' },
          start: { type: 'string', description: 'Where to `POST` to start a run.' },
        },
      },
    },
  },
  ConnectorList: {
    type: 'object',
    required: ['items'],
    additionalProperties: false,
    properties: { items: { type: 'array', items: ref('Connector'), description: 'Every built-in connector, by id.' } },
  },
  ConnectorRunProblem: {
    type: 'object',
    required: ['reason', 'detail'],
    additionalProperties: false,
    description: 'Why a run failed, in words a person can act on. It never carries a secret.',
    properties: {
      reason: { type: 'string', enum: [...connectorFailureReasons] },
      detail: text,
      permission: { type: 'string', description: 'The permission, scope or role the vendor said is missing.' },
    },
  },
  ConnectorRun: {
    type: 'object',
    required: ['id', 'connector', 'state', 'run', 'progress', 'lastEventId', 'links'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: collectionRunIdPattern, description: 'The collection run\u2019s id.' },
      connector: { type: 'string', pattern: connectorIdPattern },
      state: {
        type: 'string',
        enum: [...connectorRunStates],
        description:
          '`queued` until the worker starts, `running` while it collects, then `succeeded` (every subject sent and ' +
          'the run completed), `failed` (the run ended incomplete: `problem` says why) or `cancelled`.',
      },
      run: { ...ref('CollectionRun'), description: 'The collection run as it stands: its counts once ended.' },
      progress,
      problem: ref('ConnectorRunProblem'),
      lastEventId: { ...count, description: 'The newest persisted event; 0 before the first.' },
      links: {
        type: 'object',
        required: ['self', 'events', 'cancel'],
        additionalProperties: false,
        properties: { self: { type: 'string' }, events: { type: 'string' }, cancel: { type: 'string' } },
      },
    },
  },
  ConnectorRunStartedEvent: eventOf('run.started', 'The worker took the run and started reading the vendor\u2019s API.', {
    type: 'object',
    required: ['kinds'],
    additionalProperties: false,
    properties: { kinds: { type: 'array', items: ref('EvidenceKind') } },
  }),
  ConnectorRunProgressEvent: eventOf('run.progress', 'A batch of items was stored under the run: the totals so far.', {
    ...progress,
  }),
  ConnectorRateLimitedEvent: eventOf('rate_limit.waited', 'The vendor asked the connector to slow down; it waits.', {
    type: 'object',
    required: ['seconds', 'reason'],
    additionalProperties: false,
    properties: { seconds: { type: 'number', minimum: 0 }, reason: { type: 'string' } },
  }),
  ConnectorRunCompletedEvent: eventOf('run.completed', 'Every subject was sent and the collection run completed.', {
    type: 'object',
    required: ['status', 'counts'],
    additionalProperties: false,
    properties: {
      status: {
        type: 'string',
        enum: ['complete', 'incomplete'],
        description: 'The collection run\u2019s status: complete when every item it counted arrived.',
      },
      counts: countsByKind('The distinct items sent, per kind.'),
    },
  }),
  ConnectorRunFailedEvent: eventOf(
    'run.failed',
    'The connector could not finish: the collection run ended incomplete, what was sent stays stored.',
    { type: 'object', required: ['problem'], additionalProperties: false, properties: { problem: ref('ConnectorRunProblem') } },
  ),
  ConnectorRunCancelledEvent: eventOf('run.cancelled', 'Someone cancelled the run; the collection run ended cancelled.', {
    type: 'object',
    required: [],
    additionalProperties: false,
    properties: { by: { type: 'string', description: 'The uid of who cancelled it.' } },
  }),
  ConnectorRunEvent: {
    description:
      'One event of a connector run, sent on the stream as `id`, `event: <type>` and `data: <this object as JSON>`. ' +
      'A run has exactly one terminal event: `run.completed`, `run.failed` or `run.cancelled`.',
    oneOf: [
      'ConnectorRunStartedEvent',
      'ConnectorRunProgressEvent',
      'ConnectorRateLimitedEvent',
      'ConnectorRunCompletedEvent',
      'ConnectorRunFailedEvent',
      'ConnectorRunCancelledEvent',
    ].map(ref),
    discriminator: {
      propertyName: 'type',
      mapping: {
        'run.started': '#/components/schemas/ConnectorRunStartedEvent',
        'run.progress': '#/components/schemas/ConnectorRunProgressEvent',
        'rate_limit.waited': '#/components/schemas/ConnectorRateLimitedEvent',
        'run.completed': '#/components/schemas/ConnectorRunCompletedEvent',
        'run.failed': '#/components/schemas/ConnectorRunFailedEvent',
        'run.cancelled': '#/components/schemas/ConnectorRunCancelledEvent',
      },
    },
  },
  ConnectorRunEventList: {
    type: 'object',
    required: ['events', 'ended'],
    additionalProperties: false,
    properties: {
      events: { type: 'array', items: ref('ConnectorRunEvent') },
      ended: { type: 'boolean', description: 'True once the run\u2019s terminal event is in the list.' },
    },
  },
} as const;

const notFound = responseRef('ConnectorNotFound');

export const paths: PathsObject = {
  '/api/connectors': {
    get: {
      operationId: 'listConnectors',
      summary: 'List the built-in connectors',
      description: 'Each with what it collects, what it needs, whether it can run, and its newest run.',
      tags: ['connectors'],
      security: access.protected,
      responses: {
        '200': jsonResponse('Every connector.', ref('ConnectorList')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/connectors/{connector}': {
    get: {
      operationId: 'getConnector',
      summary: 'Get a connector',
      tags: ['connectors'],
      security: access.protected,
      parameters: [connectorId],
      responses: {
        '200': jsonResponse('The connector.', ref('Connector')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': notFound,
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/connectors/{connector}/runs': {
    post: {
      operationId: 'startConnectorRun',
      summary: 'Run a connector now',
      description:
        'Opens a collection run for the connector\u2019s source and hands it to the task queue; it never collects ' +
        'inside this request. A connector that is not ready answers 409 `connector_not_ready` naming what it needs; ' +
        'one with a run still going answers 409 `connector_busy` naming it.',
      tags: ['connectors'],
      security: access.protected,
      parameters: [connectorId],
      responses: {
        '202': jsonResponse('The run, queued.', ref('ConnectorRun'), {
          Location: { description: 'The run.', schema: { type: 'string' } },
        }),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': notFound,
        '409': responseRef('ConnectorConflict'),
        '500': responseRef('InternalError'),
        '503': responseRef('QueueUnavailable'),
      },
    },
  },
  '/api/connectors/{connector}/runs/{id}': {
    get: {
      operationId: 'getConnectorRun',
      summary: 'Get a connector run',
      description: 'Its state and progress, from its persisted events, and its collection run.',
      tags: ['connectors'],
      security: access.protected,
      parameters: [connectorId, runId],
      responses: {
        '200': jsonResponse('The run.', ref('ConnectorRun')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ConnectorRunNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/connectors/{connector}/runs/{id}/cancel': {
    post: {
      operationId: 'cancelConnectorRun',
      summary: 'Cancel a connector run',
      description:
        'Ends a queued or running run with `run.cancelled` and its collection run as cancelled; the worker stops at ' +
        'its next call. What it sent stays stored. A run that already ended answers 409 `run_ended`.',
      tags: ['connectors'],
      security: access.protected,
      parameters: [connectorId, runId],
      responses: {
        '200': jsonResponse('The cancelled run.', ref('ConnectorRun')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ConnectorRunNotFound'),
        '409': responseRef('RunEnded'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/connectors/{connector}/runs/{id}/events': {
    get: {
      operationId: 'streamConnectorRunEvents',
      summary: 'Follow a connector run',
      description:
        'Server-sent events, as for analyses: every event after `Last-Event-ID`, then new ones as they are persisted, ' +
        'each connection ending by itself with a `retry:` hint; 204 once the run has ended and every event was ' +
        'received. With `Accept: application/json` the events persisted so far come as one list.',
      tags: ['connectors'],
      security: access.protected,
      parameters: [connectorId, runId, ...resumeParameters],
      responses: {
        '200': {
          description: 'The event stream, or the events as JSON.',
          headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
          content: {
            'text/event-stream': { schema: eventStreamOf('ConnectorRunEvent') },
            'application/json': { schema: ref('ConnectorRunEventList') },
          },
        },
        '204': { description: 'The run has ended and the client already has every event; do not reconnect.' },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ConnectorRunNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
