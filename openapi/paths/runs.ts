/** The `runs` family: collection runs, which let Evident know whether a collector sent everything it meant to. */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, cursorParameter, jsonResponse, ref, responseRef } from '../components.ts';
import {
  collectionRunIdPattern,
  collectionRunIncompleteReasons,
  collectionRunLimits,
  collectionRunStatuses,
  evidenceKindNames,
  pageLimits,
  printableTextPattern,
} from '@evident/contract';

export const tag = {
  name: 'runs',
  description:
    'Collection runs (upload sessions): a collector opens a run for one source and the kinds it will send, sends ' +
    'its batches with `POST /api/evidence?run=<id>`, and completes the run with the count it sent per kind. A run ' +
    'whose counts agree with what arrived is `complete`; one whose counts disagree, or that is cancelled or not ' +
    'completed by its `expiresAt`, is incomplete. Every item is stored either way. See docs/collectors.md.',
};

const source = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  pattern: printableTextPattern,
  description: 'The collector, as its items name it in `source`.',
} as const;

const runId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: collectionRunIdPattern } } as const;

const counts = (description: string) =>
  ({
    type: 'object',
    description,
    propertyNames: { enum: [...evidenceKindNames] },
    additionalProperties: { type: 'integer', minimum: 0, maximum: collectionRunLimits.declaredPerKind },
  }) as const;

/** A page of runs or of sources: as many as asked, up to the runs' maximum. */
const limit = {
  name: 'limit',
  in: 'query',
  required: false,
  schema: { type: 'integer', minimum: 1, maximum: pageLimits.runs.maximum, default: pageLimits.runs.default },
} as const;

/** A page of a population's history: more entries than a page of runs, each one small. */
const populationLimit = {
  name: 'limit',
  in: 'query',
  required: false,
  schema: { type: 'integer', minimum: 1, maximum: pageLimits.populations.maximum, default: pageLimits.populations.default },
} as const;

const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

export const schemas = {
  CollectionRunInput: {
    type: 'object',
    required: ['source', 'kinds'],
    additionalProperties: false,
    properties: {
      source,
      kinds: {
        type: 'array',
        minItems: 1,
        maxItems: evidenceKindNames.length,
        uniqueItems: true,
        items: ref('EvidenceKind'),
        description: 'The kinds the run will send; an item of another kind is refused under it.',
      },
    },
  },
  CollectionRunCompletion: {
    type: 'object',
    required: ['counts'],
    additionalProperties: false,
    properties: {
      counts: counts(
        `How many items the collector sent of each kind the run opened, every one of them named (0 for none); at most ` +
          `${collectionRunLimits.declaredPerKind.toLocaleString('en')} per kind.`,
      ),
    },
  },
  CollectionRunCancellation: {
    type: 'object',
    additionalProperties: false,
    properties: {
      reason: { type: 'string', maxLength: 500, pattern: printableTextPattern, description: 'Why, for people.' },
    },
  },
  CollectionRun: {
    type: 'object',
    required: ['id', 'source', 'kinds', 'status', 'openedAt', 'openedBy', 'expiresAt'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: collectionRunIdPattern },
      source,
      kinds: { type: 'array', items: ref('EvidenceKind'), description: 'Sorted.' },
      status: {
        type: 'string',
        enum: [...collectionRunStatuses],
        description:
          '`running` until it is completed or cancelled or its `expiresAt` passes; `complete` when the declared counts ' +
          'equal those received; `incomplete` when they disagree, it expired or its collector failed (`incompleteReason`); `cancelled`.',
      },
      openedAt: { type: 'string', format: 'date-time' },
      openedBy: ref('Actor'),
      expiresAt: {
        type: 'string',
        format: 'date-time',
        description: 'When a run not yet ended stops taking batches and reads as incomplete (`abandoned`).',
      },
      endedAt: { type: 'string', format: 'date-time', description: 'When it was completed or cancelled.' },
      endedBy: ref('Actor'),
      declared: counts('The counts its collector declared, per kind; present once completed.'),
      received: counts('The distinct items received under it, per kind, when it was completed.'),
      incompleteReason: {
        type: 'string',
        enum: [...collectionRunIncompleteReasons],
        description: 'Why it is incomplete or cancelled.',
      },
      note: { type: 'string', description: 'The reason given when it was cancelled, or why its collector failed.' },
      drops: {
        type: 'array',
        items: ref('CollectionRunDrop'),
        description:
          'A complete run\u2019s populations that shrank by more than `POPULATION_DROP_PERCENT` since the previous ' +
          'complete run of the same source and kind; absent when none did.',
      },
    },
  },
  CollectionRunDrop: {
    type: 'object',
    required: ['kind', 'previousRunId', 'previousCount', 'count', 'percent'],
    additionalProperties: false,
    properties: {
      kind: ref('EvidenceKind'),
      previousRunId: { type: 'string', pattern: collectionRunIdPattern, description: 'The previous complete run of the kind.' },
      previousCount: { type: 'integer', minimum: 1, description: 'Its population\u2019s subjects.' },
      count: { type: 'integer', minimum: 0, description: 'This run\u2019s population\u2019s subjects.' },
      percent: { type: 'number', description: 'How much it shrank, in percent to one decimal.' },
      acknowledged: {
        type: 'object',
        required: ['by', 'at', 'reason'],
        additionalProperties: false,
        description: 'Present once someone acknowledged the drop.',
        properties: {
          by: ref('Actor'),
          at: { type: 'string', format: 'date-time' },
          reason: { type: 'string' },
        },
      },
    },
  },
  CollectionRunDropAcknowledgement: {
    type: 'object',
    required: ['reason'],
    additionalProperties: false,
    properties: {
      reason: {
        type: 'string',
        minLength: 3,
        maxLength: 1000,
        pattern: printableTextPattern,
        description: 'Why the population shrank, for the auditor: e.g. a reorganisation, a tenant split.',
      },
    },
  },
  CollectionRunPage: {
    type: 'object',
    required: ['items', 'hasMore'],
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: ref('CollectionRun'), description: 'Newest opened first.' },
      hasMore: { type: 'boolean' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present when `hasMore`.' },
    },
  },
  CollectionPopulation: {
    type: 'object',
    required: ['runId', 'completedAt', 'count', 'sha256'],
    additionalProperties: false,
    description: 'The population one complete run defined for its source and a kind.',
    properties: {
      runId: { type: 'string', pattern: collectionRunIdPattern },
      completedAt: { type: 'string', format: 'date-time', description: 'When the run was completed.' },
      count: { type: 'integer', minimum: 0, description: 'Its subjects.' },
      sha256: {
        ...sha256,
        description: 'SHA-256 (hex) over its subjects sorted by UTF-16 code unit and joined by a line feed.',
      },
    },
  },
  CollectionPopulationPage: {
    type: 'object',
    required: ['items', 'hasMore'],
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: ref('CollectionPopulation'), description: 'Newest completed first.' },
      hasMore: { type: 'boolean' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present when `hasMore`.' },
    },
  },
  CollectionSource: {
    type: 'object',
    required: ['source', 'newestRun'],
    additionalProperties: false,
    properties: {
      source,
      newestRun: { ...ref('CollectionRun'), description: 'Its run opened last, as it stands now.' },
    },
  },
  CollectionSourcePage: {
    type: 'object',
    required: ['items', 'hasMore'],
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: ref('CollectionSource'), description: 'In the order of their names, encoded.' },
      hasMore: { type: 'boolean' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present when `hasMore`.' },
    },
  },
} as const;

const runResponses = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '404': responseRef('RunNotFound'),
  '409': responseRef('RunEnded'),
  '500': responseRef('InternalError'),
} as const;

export const paths: PathsObject = {
  '/api/runs': {
    post: {
      operationId: 'openCollectionRun',
      summary: 'Open a collection run',
      description:
        'Opens a run for one source and the kinds it will send. Runs of one source may overlap. The run takes ' +
        `batches until it is completed or cancelled, or its \`expiresAt\` (\`RUN_ABANDON_HOURS\` after opening) ` +
        `passes; at most ${collectionRunLimits.items.toLocaleString('en')} items in ` +
        `${collectionRunLimits.batches.toLocaleString('en')} batches.`,
      tags: ['runs'],
      security: access.protected,
      'x-body-limit': 8 * 1024,
      requestBody: { required: true, content: { 'application/json': { schema: ref('CollectionRunInput') } } },
      responses: {
        '201': jsonResponse('The run, `running`.', ref('CollectionRun'), {
          Location: { description: 'The new run.', schema: { type: 'string' } },
        }),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
    get: {
      operationId: 'listCollectionRuns',
      summary: 'List a source\u2019s collection runs',
      description: 'The runs of one source, newest opened first, each as it stands now.',
      tags: ['runs'],
      security: access.protected,
      parameters: [{ name: 'source', in: 'query', required: true, schema: source }, limit, cursorParameter],
      responses: {
        '200': jsonResponse('A page of runs.', ref('CollectionRunPage')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/runs/sources': {
    get: {
      operationId: 'listCollectionSources',
      summary: 'List the sources that have opened collection runs',
      description:
        'Every source that has opened a run, each with its newest run as it stands now, in the order of their names ' +
        '(URL-encoded; a name longer than 120 characters encoded sorts by a hash of it, before the others).',
      tags: ['runs'],
      security: access.protected,
      parameters: [limit, cursorParameter],
      responses: {
        '200': jsonResponse('A page of sources.', ref('CollectionSourcePage')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/runs/populations': {
    get: {
      operationId: 'listCollectionPopulations',
      summary: 'List a source\u2019s complete populations of a kind',
      description:
        'The populations the complete runs of one source defined for one kind, newest completed first: each run\u2019s ' +
        'subject count and the SHA-256 of its subjects. A run that ended incomplete defines none, so it is not listed. ' +
        '`since` keeps those completed on or after a day (UTC), as a chart of the last 90 days asks.',
      tags: ['runs'],
      security: access.protected,
      parameters: [
        { name: 'source', in: 'query', required: true, schema: source },
        { name: 'kind', in: 'query', required: true, schema: ref('EvidenceKind') },
        {
          name: 'since',
          in: 'query',
          required: false,
          description: 'Only populations completed on or after this day, `YYYY-MM-DD` (from 00:00 UTC).',
          schema: { type: 'string', format: 'date' },
        },
        populationLimit,
        cursorParameter,
      ],
      responses: {
        '200': jsonResponse('A page of populations.', ref('CollectionPopulationPage')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/runs/{id}': {
    get: {
      operationId: 'getCollectionRun',
      summary: 'Get one collection run',
      tags: ['runs'],
      security: access.protected,
      parameters: [runId],
      responses: {
        '200': jsonResponse('The run as it stands now.', ref('CollectionRun')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('RunNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/runs/{id}/complete': {
    post: {
      operationId: 'completeCollectionRun',
      summary: 'Complete a collection run',
      description:
        'Ends the run with the count of items its collector sent per kind, and compares them with the distinct items ' +
        'received under it (a retried batch counts once). Both outcomes answer 200: `complete` when every count ' +
        'agrees, `incomplete` (`counts_disagree`) with both counts when one does not, which also announces ' +
        '`source.run_incomplete` to webhooks. A complete run whose population of a kind shrank by more than ' +
        '`POPULATION_DROP_PERCENT` since the previous complete run of its source and kind carries it in `drops`, ' +
        'announced as `population.dropped`. Of two requests that end a run at once, one wins; the other gets 409. ' +
        'A batch still being answered while the run completes may not be counted: complete a run once its batches ' +
        'have been answered.',
      tags: ['runs'],
      security: access.protected,
      'x-body-limit': 8 * 1024,
      parameters: [runId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('CollectionRunCompletion') } } },
      responses: {
        '200': jsonResponse('The run, `complete` or `incomplete`.', ref('CollectionRun')),
        ...runResponses,
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
      },
    },
  },
  '/api/runs/{id}/drops/{kind}/acknowledge': {
    post: {
      operationId: 'acknowledgeCollectionRunDrop',
      summary: 'Acknowledge a population drop',
      description:
        'Records, once, who acknowledged the run\u2019s population drop of one kind and why; the run then shows it as ' +
        '`acknowledged` on that drop. Of two acknowledgements at once, one wins; the other gets 409. Evaluation ' +
        'does not yet read drops: controls failing until a drop is acknowledged comes with the evaluation of ' +
        'populations.',
      tags: ['runs'],
      security: access.protected,
      'x-body-limit': 8 * 1024,
      parameters: [runId, { name: 'kind', in: 'path', required: true, schema: { type: 'string', enum: [...evidenceKindNames] } }],
      requestBody: { required: true, content: { 'application/json': { schema: ref('CollectionRunDropAcknowledgement') } } },
      responses: {
        '200': jsonResponse('The run, with the drop acknowledged.', ref('CollectionRun')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('DropNotFound'),
        '409': responseRef('DropAcknowledged'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/runs/{id}/cancel': {
    post: {
      operationId: 'cancelCollectionRun',
      summary: 'Cancel a collection run',
      description:
        'Ends the run as `cancelled`: it takes no more batches and never defines a population; its items stay ' +
        'stored. Announces `source.run_incomplete` to webhooks.',
      tags: ['runs'],
      security: access.protected,
      'x-body-limit': 8 * 1024,
      parameters: [runId],
      requestBody: { required: false, content: { 'application/json': { schema: ref('CollectionRunCancellation') } } },
      responses: {
        '200': jsonResponse('The run, `cancelled`.', ref('CollectionRun')),
        ...runResponses,
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
      },
    },
  },
};
