/** The `analyses` family: on-demand re-evaluation runs, their state and their resumable event streams. */
import type { PathsObject, SchemaObject } from 'openapi3-ts/oas31';
import {
  access,
  cursorParameter,
  eventStreamOf,
  jsonResponse,
  ref,
  responseRef,
  resumeParameters,
  streamEvent,
} from '../components.ts';
import { analysisIdPattern, controlIdPattern, pageLimits, runFailureCodes } from '@evident/contract';

export const tag = {
  name: 'analyses',
  description:
    'An analysis re-evaluates all controls, or some, against the evidence stored now, on a task queue. Its progress is ' +
    'a numbered list of events, persisted before anyone sees them and streamed as server-sent events that resume with ' +
    '`Last-Event-ID`. A run can publish its result as today\u2019s report: this is how today is assessed again once its ' +
    'report exists, since the daily job (and its development trigger) never replaces a report.',
};

export const maxScopedControls = 500;

const analysisStates = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

const eventBase = (type: string, description: string, data: SchemaObject) =>
  streamEvent(type, description, data, { timed: true });

export const schemas = {
  AnalysisRequest: {
    type: 'object',
    additionalProperties: false,
    properties: {
      controls: {
        type: 'array',
        minItems: 1,
        maxItems: maxScopedControls,
        uniqueItems: true,
        items: { type: 'string', pattern: controlIdPattern },
        description: 'The controls to evaluate; every control of the catalog when absent.',
      },
      date: {
        type: 'string',
        format: 'date',
        description: 'The day to assess, in the report time zone; today by default. A past day is assessed as of its end.',
      },
      publish: {
        type: 'boolean',
        default: false,
        description:
          'Publish the result as today\u2019s report: the run\u2019s controls take their new result, the others keep ' +
          'the one today\u2019s report gives them, and the summary, readiness and diff are made again over every ' +
          'control, so the published score is always over the whole catalog. The report replaced is kept as a ' +
          'version (`GET /api/report/{date}/versions`). Only for today: past reports never change.',
      },
    },
  },
  AnalysisState: {
    type: 'string',
    enum: [...analysisStates],
    description:
      '`queued` until the worker starts, `running` while it evaluates, then one of `succeeded`, `failed`, `cancelled`.',
  },
  Analysis: {
    type: 'object',
    required: [
      'id',
      'state',
      'date',
      'controls',
      'publish',
      'createdAt',
      'createdBy',
      'progress',
      'counts',
      'lastEventId',
      'links',
    ],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: analysisIdPattern },
      state: ref('AnalysisState'),
      date: { type: 'string', format: 'date' },
      controls: {
        type: ['array', 'null'],
        items: { type: 'string' },
        description: 'The requested scope; null for the whole catalog.',
      },
      publish: { type: 'boolean' },
      createdAt: { type: 'string', format: 'date-time' },
      createdBy: ref('Actor'),
      startedAt: { type: 'string', format: 'date-time' },
      endedAt: { type: 'string', format: 'date-time' },
      progress: {
        type: 'object',
        required: ['evaluated', 'total'],
        additionalProperties: false,
        description: '`total` is 0 until the run has started.',
        properties: { evaluated: { type: 'integer', minimum: 0 }, total: { type: 'integer', minimum: 0 } },
      },
      counts: { ...ref('StatusCounts'), description: 'Statuses of the controls evaluated so far.' },
      summary: {
        ...ref('ReportSummary'),
        description:
          'When the run succeeded: its statuses over its scope only. For a run of some controls this is not a score of ' +
          'the day (its `score` weighs only those controls); a published run\u2019s day score is in today\u2019s report.',
      },
      published: {
        type: 'boolean',
        description: 'When the run succeeded: whether its result is now today\u2019s report.',
      },
      problem: { ...ref('AnalysisProblem'), description: 'When the run failed: why.' },
      lastEventId: { type: 'integer', minimum: 0, description: 'The newest persisted event; 0 before the first.' },
      links: {
        type: 'object',
        required: ['self', 'events', 'cancel'],
        additionalProperties: false,
        properties: { self: { type: 'string' }, events: { type: 'string' }, cancel: { type: 'string' } },
      },
    },
  },
  AnalysisPage: {
    type: 'object',
    required: ['items', 'hasMore'],
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: ref('Analysis'), description: 'Newest first.' },
      hasMore: { type: 'boolean', description: 'True when more runs follow this page.' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present when `hasMore`.' },
    },
  },
  AnalysisProblem: {
    type: 'object',
    required: ['code', 'title', 'detail'],
    additionalProperties: false,
    description: 'Why a run failed, in the terms of the problem catalog: `code` and `title` are a catalog entry\u2019s.',
    properties: {
      // Only the codes a run can fail with, so a new code for a request problem elsewhere does not widen it.
      code: { type: 'string', enum: [...runFailureCodes] },
      title: { type: 'string' },
      detail: { type: 'string' },
    },
  },
  RunStartedEvent: eventBase('run.started', 'The worker took the run: what it evaluates, and as of when.', {
    type: 'object',
    required: ['date', 'asOf', 'total'],
    additionalProperties: false,
    properties: {
      date: { type: 'string', format: 'date' },
      asOf: { type: 'string', format: 'date-time', description: 'Evidence is considered as of this instant.' },
      total: { type: 'integer', minimum: 1, description: 'How many controls the run evaluates.' },
    },
  }),
  ControlEvaluatedEvent: eventBase('control.evaluated', 'One control\u2019s result, in control-id order.', {
    type: 'object',
    required: ['controlId', 'title', 'severity', 'status', 'findings', 'index', 'total'],
    additionalProperties: false,
    properties: {
      controlId: { type: 'string' },
      title: { type: 'string' },
      severity: ref('Severity'),
      status: ref('ControlStatus'),
      findings: { type: 'integer', minimum: 0, description: 'How many findings the result has.' },
      index: { type: 'integer', minimum: 1, description: 'This control\u2019s position in the run, 1 to `total`.' },
      total: { type: 'integer', minimum: 1 },
    },
  }),
  RunCompletedEvent: eventBase(
    'run.completed',
    'The run evaluated every control in its scope; `summary` is over its scope only (see `Analysis.summary`).',
    {
      type: 'object',
      required: ['summary', 'published'],
      additionalProperties: false,
      properties: {
        summary: ref('ReportSummary'),
        published: { type: 'boolean', description: 'Whether the result is now part of today\u2019s report.' },
      },
    },
  ),
  RunFailedEvent: eventBase('run.failed', 'The run stopped on an error; nothing was published.', {
    type: 'object',
    required: ['problem'],
    additionalProperties: false,
    properties: { problem: ref('AnalysisProblem') },
  }),
  RunCancelledEvent: eventBase('run.cancelled', 'Someone cancelled the run; nothing was published.', {
    type: 'object',
    required: ['evaluated'],
    additionalProperties: false,
    properties: {
      evaluated: { type: 'integer', minimum: 0, description: 'How many controls had been evaluated.' },
      by: { type: 'string', description: 'The uid of who cancelled it.' },
    },
  }),
  AnalysisEvent: {
    description:
      'One event of a run. On the stream it is sent as `id: <id>`, `event: <type>` and `data: <this object as JSON>`. ' +
      'A run has exactly one terminal event: `run.completed`, `run.failed` or `run.cancelled`.',
    oneOf: ['RunStartedEvent', 'ControlEvaluatedEvent', 'RunCompletedEvent', 'RunFailedEvent', 'RunCancelledEvent'].map(ref),
    discriminator: {
      propertyName: 'type',
      mapping: {
        'run.started': '#/components/schemas/RunStartedEvent',
        'control.evaluated': '#/components/schemas/ControlEvaluatedEvent',
        'run.completed': '#/components/schemas/RunCompletedEvent',
        'run.failed': '#/components/schemas/RunFailedEvent',
        'run.cancelled': '#/components/schemas/RunCancelledEvent',
      },
    },
  },
  AnalysisEventList: {
    type: 'object',
    required: ['events', 'ended'],
    additionalProperties: false,
    properties: {
      events: { type: 'array', items: ref('AnalysisEvent') },
      ended: { type: 'boolean', description: 'True once the run\u2019s terminal event is in the list.' },
    },
  },
} as const;

const analysisId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: analysisIdPattern },
} as const;

export const paths: PathsObject = {
  '/api/analyses': {
    post: {
      operationId: 'startAnalysis',
      summary: 'Start an analysis',
      description:
        'Records the run and hands it to the task queue; it never runs inside this request. With an `Idempotency-Key`, ' +
        'a retry answers the same run. Unknown control ids answer 400; `publish` for a past day 409.',
      tags: ['analyses'],
      security: access.protected,
      'x-body-limit': 64 * 1024,
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes a retried request answer the run the first one started.',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
      ],
      requestBody: { required: false, content: { 'application/json': { schema: ref('AnalysisRequest') } } },
      responses: {
        '202': jsonResponse('The run, queued (or as it is now, for a retried key).', ref('Analysis'), {
          Location: { description: 'The run.', schema: { type: 'string' } },
        }),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '409': responseRef('AnalysisConflict'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
        '503': responseRef('QueueUnavailable'),
      },
    },
    get: {
      operationId: 'listAnalyses',
      summary: 'List recent analyses',
      tags: ['analyses'],
      security: access.protected,
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: pageLimits.analyses.maximum, default: pageLimits.analyses.default },
        },
        cursorParameter,
      ],
      responses: {
        '200': jsonResponse('A page of runs, newest first.', ref('AnalysisPage')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/analyses/{id}': {
    get: {
      operationId: 'getAnalysis',
      summary: 'Get an analysis',
      description: 'Its state and counts, derived from its persisted events.',
      tags: ['analyses'],
      security: access.protected,
      parameters: [analysisId],
      responses: {
        '200': jsonResponse('The run.', ref('Analysis')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('AnalysisNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/analyses/{id}/cancel': {
    post: {
      operationId: 'cancelAnalysis',
      summary: 'Cancel an analysis',
      description:
        'Ends a queued or running run with `run.cancelled` at once; the worker stops at its next control and publishes ' +
        'nothing. Cancelling a cancelled run answers it again; a run that already ended otherwise (or has evaluated its ' +
        'last control) answers 409.',
      tags: ['analyses'],
      security: access.protected,
      parameters: [analysisId],
      responses: {
        '200': jsonResponse('The cancelled run.', ref('Analysis')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('AnalysisNotFound'),
        '409': responseRef('AnalysisConflict'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/analyses/{id}/events': {
    get: {
      operationId: 'streamAnalysisEvents',
      summary: 'Follow an analysis',
      description:
        'Server-sent events (`Accept: text/event-stream`, the default): first every event after `Last-Event-ID` (the ' +
        'header, else the `lastEventId` query parameter, else from the start), then new ones as they are persisted. ' +
        'Comment lines (`: heartbeat`) keep an idle connection open. Each connection ends by itself after ' +
        '`STREAM_MAX_SECONDS` (and, through a proxy that buffers, soon after delivering something) with a `retry:` ' +
        'hint: reconnect with the last id you received. Once the run has ended and you have every event the stream ' +
        'ends, and a reconnect answers 204. With `Accept: application/json` the events persisted so far come as one ' +
        'list.',
      tags: ['analyses'],
      security: access.protected,
      parameters: [analysisId, ...resumeParameters],
      responses: {
        '200': {
          description: 'The event stream, or the events as JSON.',
          headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
          content: {
            'text/event-stream': { schema: eventStreamOf('AnalysisEvent') },
            'application/json': { schema: ref('AnalysisEventList') },
          },
        },
        '204': { description: 'The run has ended and the client already has every event; do not reconnect.' },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('AnalysisNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
