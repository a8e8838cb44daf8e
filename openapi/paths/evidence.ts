/** The `evidence` family: what collectors and submissions tell Evident about the controls. */
import type { PathsObject, SchemaObject } from 'openapi3-ts/oas31';
import { access, cursorParameter, jsonResponse, ref, responseRef } from '../components.ts';
import { evidenceKinds } from '@evident/contract/evidence-kinds';

import {
  collectionRunIdPattern,
  controlIdPattern,
  evidenceIdPattern,
  evidenceKindNames,
  maxBatchBytes,
  maxBatchItems,
  maxDataBytes,
  maxDataDepth,
  maxFindingRequirements,
  maxFindingResources,
  maxOcsfImportBytes,
  maxOcsfImportFindings,
  maxOcsfImportItems,
  maxOcsfImportStoredBytes,
  pageLimits,
  printableTextPattern,
} from '@evident/contract';

export const tag = {
  name: 'evidence',
  description:
    'Evidence items: one observation of one subject at one time. Items are append-only; a correction is a new item. ' +
    'Ingest is idempotent by item id or `Idempotency-Key`.',
};

/** `?run=`: the collection run a batch is sent under (openapi/paths/runs.ts). */
const runParameter = {
  name: 'run',
  in: 'query',
  required: false,
  description:
    'The collection run the items are sent under (`POST /api/runs`). Every item must be of a kind the run opened ' +
    'and of its source (400 `invalid_request`, naming each item); the run must still be `running` (404 ' +
    '`run_not_found`, 409 `run_ended`), and have room for the batch (409 `run_full`). A refused batch stores ' +
    'nothing. An item already stored (a retry, or the same item sent in an earlier run) is answered `existing` ' +
    'and counts for this run too.',
  schema: { type: 'string', pattern: collectionRunIdPattern },
} as const;

const evidenceId = {
  type: 'string',
  pattern: evidenceIdPattern,
  description: 'Letters, digits, `_`, `:` and `-`; at most 128.',
} as const;

const evidenceFields = {
  id: {
    ...evidenceId,
    description:
      'Chosen by the collector to make a retry safe: the same id with the same content is accepted again and stored ' +
      'once; the same id with other content is a conflict. Generated when absent.',
  },
  kind: { type: 'string', enum: [...evidenceKindNames], description: 'What the item is; decides the shape of `data`.' },
  source: {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    pattern: printableTextPattern,
    description: 'The collector or person that produced it. Printable text: no control character or line break.',
  },
  subject: {
    type: 'string',
    minLength: 1,
    maxLength: 300,
    pattern: printableTextPattern,
    description:
      'What the item is about: an account, repository, device\u2026 Printable text: no control character or line break.',
  },
  collectedAt: { type: 'string', format: 'date-time', description: 'When the observation was made.' },
  effectiveDate: {
    type: 'string',
    format: 'date',
    description:
      'The day the evidence speaks for, when it differs from `collectedAt` (a review completed earlier); freshness is ' +
      'measured from it.',
  },
  expiresAt: { type: 'string', format: 'date-time', description: 'After this instant the item no longer counts (it is stale).' },
  controls: {
    type: 'array',
    maxItems: 50,
    uniqueItems: true,
    items: { type: 'string', pattern: controlIdPattern },
    description: 'For attestations: the controls the item supports. Ignored by checks of other kinds.',
  },
} as const;

/** Ties each kind to its data schema, so the spec alone validates an item. */
const dataByKind: SchemaObject[] = evidenceKindNames.map((name) => ({
  if: { properties: { kind: { const: name } }, required: ['kind'] },
  then: { properties: { data: ref(evidenceKinds[name].schemaName) } },
}));

export const schemas = {
  ...Object.fromEntries(evidenceKindNames.map((name) => [evidenceKinds[name].schemaName, evidenceKinds[name].data])),
  EvidenceKind: { type: 'string', enum: [...evidenceKindNames] },
  EvidenceInput: {
    type: 'object',
    required: ['kind', 'source', 'subject', 'collectedAt', 'data'],
    additionalProperties: false,
    properties: {
      ...evidenceFields,
      data: {
        type: 'object',
        additionalProperties: true,
        description:
          `The observation; its schema depends on \`kind\`. At most ${maxDataBytes / 1024} KiB as JSON (413 ` +
          `\`evidence_too_large\` beyond) and ${maxDataDepth} levels of nesting (400 beyond).`,
      },
    },
    allOf: dataByKind,
  },
  EvidenceBatch: {
    type: 'object',
    required: ['items'],
    additionalProperties: false,
    properties: { items: { type: 'array', minItems: 1, maxItems: maxBatchItems, items: ref('EvidenceInput') } },
  },
  Attachment: {
    type: 'object',
    required: ['name', 'mediaType', 'size', 'sha256', 'href'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', description: 'The file name as uploaded.' },
      mediaType: { type: 'string' },
      size: { type: 'integer', minimum: 0 },
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Checked again on every download.' },
      href: { type: 'string', description: 'Where to download it.' },
    },
  },
  EvidenceItem: {
    type: 'object',
    required: ['id', 'kind', 'source', 'subject', 'collectedAt', 'receivedAt', 'data', 'attachments'],
    additionalProperties: false,
    properties: {
      ...evidenceFields,
      id: evidenceId,
      kind: ref('EvidenceKind'),
      receivedAt: { type: 'string', format: 'date-time', description: 'When Evident stored it.' },
      submissionId: { type: 'string', description: 'The submission the item came from, for manual evidence.' },
      runId: {
        type: 'string',
        pattern: collectionRunIdPattern,
        description: 'The collection run the item was first sent under, when it was sent under one.',
      },
      data: { type: 'object', additionalProperties: true },
      attachments: { type: 'array', items: ref('Attachment') },
    },
  },
  IngestResult: {
    type: 'object',
    required: ['items'],
    additionalProperties: false,
    properties: {
      items: {
        type: 'array',
        description: 'One entry per item sent, in order.',
        items: {
          type: 'object',
          required: ['id', 'status'],
          additionalProperties: false,
          properties: {
            id: { type: 'string' },
            status: {
              type: 'string',
              enum: ['created', 'existing'],
              description: '`existing`: a retry; nothing new was stored.',
            },
          },
        },
      },
    },
  },
  OcsfImportResult: {
    type: 'object',
    required: ['findings', 'items', 'created', 'existing'],
    additionalProperties: false,
    properties: {
      findings: { type: 'integer', minimum: 0, description: 'Findings read from the file.' },
      items: { type: 'integer', minimum: 0, description: 'Evidence items they became: one per finding and resource.' },
      created: { type: 'integer', minimum: 0, description: 'Items stored by this request.' },
      existing: {
        type: 'integer',
        minimum: 0,
        description: 'Items already stored under the same id: the same scan imported before.',
      },
    },
  },
  EvidencePage: {
    type: 'object',
    required: ['items', 'hasMore'],
    additionalProperties: false,
    properties: {
      items: {
        type: 'array',
        items: ref('EvidenceItem'),
        description: 'Newest `collectedAt` first; items collected at the same instant by id.',
      },
      hasMore: {
        type: 'boolean',
        description: 'True when at least one more item matching the filters follows this page.',
      },
      nextCursor: {
        type: 'string',
        description:
          'Pass as `cursor` to continue. Present when `hasMore` is true; also present, with `hasMore` false and a page ' +
          'that may be short, when a combination of filters that is checked item by item (a subject with a source or ' +
          'a control) reached the bound of index entries one request examines before the page was full. Absent when ' +
          'the listing is complete. Cursors stay valid while new evidence arrives.',
      },
    },
  },
} as const;

export const paths: PathsObject = {
  '/api/evidence': {
    post: {
      operationId: 'ingestEvidence',
      summary: 'Ingest evidence',
      description:
        `One item, or \`{"items": [...]}\` with up to ${maxBatchItems}. Each item\u2019s \`data\` must match its kind. ` +
        'The batch is all or nothing when it is invalid; valid items are stored create-only, so a retry stores nothing ' +
        'twice. Without item ids, send an `Idempotency-Key` to make the retry safe.',
      tags: ['evidence'],
      security: access.protected,
      'x-body-limit': maxBatchBytes,
      parameters: [
        runParameter,
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes a retried request return the first one\u2019s result; item ids are derived from it.',
          schema: { type: 'string', minLength: 8, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            // One item or a batch, told apart by `items`; `if` keeps errors to the shape that was meant.
            schema: {
              if: { type: 'object', properties: { items: true }, required: ['items'] },
              then: ref('EvidenceBatch'),
              else: ref('EvidenceInput'),
            } as SchemaObject,
          },
        },
      },
      responses: {
        '200': jsonResponse('Every item was already stored under its id; nothing new was written.', ref('IngestResult')),
        '201': jsonResponse(
          'At least one item was stored. A repeated `Idempotency-Key` gets the first request\u2019s answer again, unchanged.',
          ref('IngestResult'),
        ),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('RunNotFound'),
        '409': responseRef('RunConflict'),
        '413': responseRef('EvidenceTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
        '503': responseRef('EvidenceInFlight'),
      },
    },
    get: {
      operationId: 'listEvidence',
      summary: 'List evidence',
      description:
        'Evidence items, newest `collectedAt` first, filtered and paged. A page costs one read per item shown, however ' +
        'long the history: every filter is answered from an index.',
      tags: ['evidence'],
      security: access.protected,
      parameters: [
        { name: 'kind', in: 'query', required: false, schema: ref('EvidenceKind') },
        { name: 'subject', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 300 } },
        {
          name: 'source',
          in: 'query',
          required: false,
          description: 'The collector or person that produced the items (`submission` for manual submissions).',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
        {
          name: 'control',
          in: 'query',
          required: false,
          description: 'Items a control reads: its evidence kinds, and attestations that name it.',
          schema: { type: 'string', pattern: controlIdPattern },
        },
        {
          name: 'from',
          in: 'query',
          required: false,
          description: '`collectedAt` at or after.',
          schema: { type: 'string', format: 'date-time' },
        },
        {
          name: 'to',
          in: 'query',
          required: false,
          description: '`collectedAt` before.',
          schema: { type: 'string', format: 'date-time' },
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: pageLimits.evidence.maximum, default: pageLimits.evidence.default },
        },
        cursorParameter,
      ],
      responses: {
        '200': jsonResponse('A page of evidence.', ref('EvidencePage')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/evidence/imports/ocsf': {
    post: {
      operationId: 'importOcsfFindings',
      summary: 'Import scanner findings (OCSF)',
      description:
        'A cloud security scanner\u2019s output as OCSF Detection Findings (class 2004): Prowler\u2019s `json-ocsf` ' +
        'file as it is (a JSON array), or one finding per line (`application/x-ndjson`). Each finding becomes a ' +
        '`scanner.finding` evidence item per resource: subject the resource\u2019s `uid`, source the product and ' +
        'account, `collectedAt` the finding\u2019s `time`, and in `data` the check (`metadata.event_code`), status ' +
        '(`status_code` PASS, FAIL or MANUAL), whether it is muted, severity, region, account, title, message and ' +
        'remediation. A finding that names several resources stores its title, message and remediation once, on the ' +
        'first resource\u2019s item (with `resourceCount`); the other items name that item in `textsIn`. Ids come ' +
        'from the finding\u2019s `finding_info.uid`, time, check and resource, so importing the same scan again ' +
        'stores nothing twice.\n\nThe file is read whole before anything is stored, and stored all at once or not ' +
        'at all: a finding that cannot be read refuses the request with 400, each error naming its `line` and, in an ' +
        `array, its index as \`pointer\`; so does a finding that names more than ${maxFindingResources.toLocaleString('en')} ` +
        `resources, or more than ${maxFindingRequirements} requirements of one framework. One import reads at most ` +
        `${maxOcsfImportBytes / 1024 / 1024} MiB, ${maxOcsfImportFindings.toLocaleString('en')} findings and ` +
        `${maxOcsfImportItems.toLocaleString('en')} items (one per finding and resource) of at most ` +
        `${maxOcsfImportStoredBytes / 1024 / 1024} MiB as JSON: beyond any of them, 413 \`scan_too_large\` (or ` +
        '`payload_too_large` for the body), and nothing is stored. Import larger scans with ' +
        '`npm run collect -- --format ocsf`, which streams them in batches.',
      tags: ['evidence'],
      security: access.protected,
      'x-body-limit': maxOcsfImportBytes,
      'x-raw-body': true,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'array', items: { type: 'object', description: 'An OCSF Detection Finding.' } },
          },
          'application/x-ndjson': {
            schema: { type: 'string', description: 'One OCSF Detection Finding per line.' },
          },
        },
      },
      responses: {
        '200': jsonResponse('Every item was already stored under its id (or the file held no finding).', ref('OcsfImportResult')),
        '201': jsonResponse('At least one item was stored.', ref('OcsfImportResult')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '409': responseRef('Conflict'),
        '413': responseRef('ScanTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
        '503': responseRef('EvidenceInFlight'),
      },
    },
  },
  '/api/evidence/{id}': {
    get: {
      operationId: 'getEvidence',
      summary: 'Get one evidence item',
      tags: ['evidence'],
      security: access.protected,
      parameters: [{ name: 'id', in: 'path', required: true, schema: evidenceId }],
      responses: {
        '200': jsonResponse('The item.', ref('EvidenceItem')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('EvidenceNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
