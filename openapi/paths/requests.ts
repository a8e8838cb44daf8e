/**
 * The `requests` family: the auditor's request list (PBC, "provided by client";
 * docs/audit-requests.md). Each request asks for what shows one control over a period; people
 * answer it with evidence items, submissions, populations and samples Evident holds, and the
 * auditor accepts it or returns it with a comment. Every step is recorded with who took it and
 * when, and each change names the version it was based on, so concurrent changes are refused
 * rather than lost. Authorization is flat: anyone the deployment lets sign in may take any step.
 */
import type { PathItemObject, PathsObject } from 'openapi3-ts/oas31';
import { access, jsonResponse, ref, responseRef } from '../components.ts';
import {
  auditAnswerKinds,
  auditRequestActions,
  auditRequestCsvColumns,
  auditRequestIdPattern,
  auditRequestLimits,
  auditRequestStatuses,
  controlIdPattern,
  maxPeriodDays,
} from '@evident/contract';

export const tag = {
  name: 'requests',
  description:
    'The auditor\u2019s request list (PBC): for a control and a period, what the auditor wants to see. Import it ' +
    'as CSV, answer each request with evidence items, submissions, populations and samples, and let the auditor ' +
    'accept it or return it with a comment. Every step is recorded with who took it and when; a change names the ' +
    '`version` it was based on (`basedOn`) and is refused with 409 `audit_request_changed` when someone changed the ' +
    'request meanwhile. The list with its answers is exported as CSV and is in the audit package as `requests.csv`.',
};

const requestId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: auditRequestIdPattern },
} as const;

const description = {
  type: 'string',
  minLength: 1,
  maxLength: auditRequestLimits.descriptionChars,
  description: 'What the auditor asks to see, in their words; line breaks allowed.',
} as const;
const comment = { type: 'string', minLength: 1, maxLength: auditRequestLimits.commentChars } as const;
const basedOn = {
  type: 'integer',
  minimum: 1,
  description: 'The `version` of the request this change was made on; another answers 409 `audit_request_changed`.',
} as const;

const answerKey = {
  kind: { type: 'string', enum: [...auditAnswerKinds] },
  ref: {
    type: 'string',
    minLength: 1,
    maxLength: 400,
    description:
      'An evidence item\u2019s id, a submission\u2019s id, a population of the request\u2019s control as ' +
      '`<date>/<evidence kind>` (`GET /api/controls/{id}/population?date=…&kind=…`), or a sample of its days as the ' +
      'query of `GET /api/controls/{id}/sample` (`from=…&to=…&size=…&seed=…`).',
  },
} as const;

export const schemas = {
  AuditPeriod: {
    type: 'object',
    required: ['from', 'to'],
    additionalProperties: false,
    description: `Calendar days, \`from\` on or before \`to\`, at most ${maxPeriodDays} days.`,
    properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
  },
  AuditRequestInput: {
    type: 'object',
    required: ['controlId', 'period', 'description'],
    additionalProperties: false,
    properties: {
      id: {
        type: 'string',
        pattern: auditRequestIdPattern,
        description: 'The auditor\u2019s reference (`PBC-001`); Evident makes one when it is absent.',
      },
      controlId: { type: 'string', pattern: controlIdPattern, description: 'A control of the catalog.' },
      period: ref('AuditPeriod'),
      description,
    },
  },
  AuditRequestEdit: {
    type: 'object',
    required: ['basedOn'],
    minProperties: 2,
    additionalProperties: false,
    properties: { basedOn, period: ref('AuditPeriod'), description },
  },
  AuditAnswer: {
    type: 'object',
    required: ['kind', 'ref', 'note'],
    additionalProperties: false,
    properties: { ...answerKey, note: { type: ['string', 'null'], description: 'What the answer shows, for the auditor.' } },
  },
  AuditAnswerChange: {
    type: 'object',
    required: ['basedOn'],
    additionalProperties: false,
    properties: {
      basedOn,
      add: {
        type: 'array',
        maxItems: auditRequestLimits.answers,
        description: 'Answers to add; one already there (the same kind and ref) gets the new note. Each must exist.',
        items: {
          type: 'object',
          required: ['kind', 'ref'],
          additionalProperties: false,
          properties: { ...answerKey, note: { type: 'string', minLength: 1, maxLength: auditRequestLimits.noteChars } },
        },
      },
      remove: {
        type: 'array',
        maxItems: auditRequestLimits.answers,
        items: { type: 'object', required: ['kind', 'ref'], additionalProperties: false, properties: answerKey },
      },
      comment,
    },
  },
  AuditDecision: {
    type: 'object',
    required: ['basedOn'],
    additionalProperties: false,
    properties: { basedOn, comment },
  },
  AuditDecisionWithComment: {
    type: 'object',
    required: ['basedOn', 'comment'],
    additionalProperties: false,
    properties: { basedOn, comment: { ...comment, description: 'Why; required, and not blank.' } },
  },
  AuditRequest: {
    type: 'object',
    required: ['id', 'controlId', 'period', 'description', 'status', 'answers', 'history', 'version'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: auditRequestIdPattern },
      controlId: { type: 'string', pattern: controlIdPattern },
      period: ref('AuditPeriod'),
      description: { type: 'string' },
      status: {
        type: 'string',
        enum: [...auditRequestStatuses],
        description:
          '`open` until it has answers, `answered` until the auditor accepts or returns it, `returned` until its ' +
          'answers change, `accepted` until someone reopens it.',
      },
      answers: { type: 'array', items: ref('AuditAnswer') },
      history: {
        type: 'array',
        description: 'Every step, oldest first.',
        items: {
          type: 'object',
          required: ['action', 'by', 'at'],
          additionalProperties: false,
          properties: {
            action: { type: 'string', enum: [...auditRequestActions] },
            by: ref('Actor'),
            at: { type: 'string', format: 'date-time' },
            comment: { type: 'string' },
          },
        },
      },
      version: { type: 'integer', minimum: 1, description: 'One more at each step; send it as `basedOn` to change the request.' },
    },
  },
  AuditRequestList: {
    type: 'object',
    required: ['items', 'limit'],
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: ref('AuditRequest'), description: 'In id order.' },
      limit: { type: 'integer', description: 'The most requests the list holds.' },
    },
  },
  AuditRequestImport: {
    type: 'object',
    required: ['created', 'unchanged'],
    additionalProperties: false,
    properties: {
      created: { type: 'array', items: { type: 'string' }, description: 'The ids of the requests made, in row order.' },
      unchanged: {
        type: 'array',
        items: { type: 'string' },
        description:
          'The ids of requests already in the list that rows asked for again (the same id, or the same control, period and description).',
      },
    },
  },
} as const;

const problems = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '500': responseRef('InternalError'),
} as const;

const bodyProblems = {
  '413': responseRef('PayloadTooLarge'),
  '415': responseRef('UnsupportedMediaType'),
} as const;

function step(operationId: string, summary: string, text: string, schema: string, required = true): PathItemObject {
  return {
    post: {
      operationId,
      summary,
      description: text,
      tags: ['requests'],
      security: access.protected,
      'x-body-limit': 64 * 1024,
      parameters: [requestId],
      requestBody: { required, content: { 'application/json': { schema: ref(schema) } } },
      responses: {
        '200': jsonResponse('The request after the step.', ref('AuditRequest')),
        ...problems,
        '404': responseRef('AuditRequestNotFound'),
        '409': responseRef('AuditRequestConflict'),
        ...bodyProblems,
      },
    },
  };
}

const csvColumnsText =
  `Columns, named in a header row in any order: ${auditRequestCsvColumns.map((c) => `\`${c}\``).join(', ')} ` +
  '(`id` optional; the export adds `status`, `answers` and `history`, which an import reads past).';

export const paths: PathsObject = {
  '/api/requests': {
    post: {
      operationId: 'createAuditRequest',
      summary: 'Add a request to the auditor\u2019s list',
      description:
        'Records a request, open, with the caller as its creator. The control must be in the catalog; an `id` ' +
        'already in the list answers 409 `audit_request_changed`, and a list already holding ' +
        `${auditRequestLimits.requests} requests 409 \`audit_request_limit\`.`,
      tags: ['requests'],
      security: access.protected,
      'x-body-limit': 16 * 1024,
      requestBody: { required: true, content: { 'application/json': { schema: ref('AuditRequestInput') } } },
      responses: {
        '201': jsonResponse('The request, open.', ref('AuditRequest'), {
          Location: { description: 'The new request.', schema: { type: 'string' } },
        }),
        ...problems,
        '409': responseRef('AuditRequestListFull'),
        ...bodyProblems,
      },
    },
    get: {
      operationId: 'listAuditRequests',
      summary: 'List the auditor\u2019s requests',
      description:
        `The whole list (at most ${auditRequestLimits.requests} requests) in id order, filtered by status or control: ` +
        'one listing, and a read of each request shown.',
      tags: ['requests'],
      security: access.protected,
      parameters: [
        { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: [...auditRequestStatuses] } },
        { name: 'control', in: 'query', required: false, schema: { type: 'string', pattern: controlIdPattern } },
      ],
      responses: { '200': jsonResponse('The requests.', ref('AuditRequestList')), ...problems },
    },
  },
  '/api/requests/import': {
    post: {
      operationId: 'importAuditRequests',
      summary: 'Import a request list from CSV',
      description:
        'A request list as CSV (RFC 4180, UTF-8, a byte-order mark allowed), one request a row. ' +
        `${csvColumnsText} At most ${auditRequestLimits.importRows} rows and ${auditRequestLimits.importBytes / 1024} KiB. ` +
        'All or nothing: every row is checked first, and any fault answers 400 with an error per fault naming its ' +
        '`line`, its column (`pointer`: `/<column>`) and its row in `message`: an unknown control, a bad period, an ' +
        'empty description, a row that repeats another (the same control, period and description, or the same id), a ' +
        'cell starting with = + - or @ (a spreadsheet formula), text that is not UTF-8 (save it as "CSV UTF-8"), or ' +
        'CSV that breaks the RFC. A row whose id, or whose control, period and description, is already in the list ' +
        'is left as it is (`unchanged`), so importing a list again makes nothing twice; an id already in the list ' +
        'with another control, period or description is a fault of its row.',
      tags: ['requests'],
      security: access.protected,
      'x-body-limit': auditRequestLimits.importBytes,
      'x-raw-body': true,
      requestBody: { required: true, content: { 'text/csv': { schema: { type: 'string' } } } },
      responses: {
        '200': jsonResponse('Every row was in the list already.', ref('AuditRequestImport')),
        '201': jsonResponse('At least one request was made.', ref('AuditRequestImport')),
        ...problems,
        '409': responseRef('AuditRequestListFull'),
        ...bodyProblems,
      },
    },
  },
  '/api/requests/export.csv': {
    get: {
      operationId: 'exportAuditRequests',
      summary: 'Export the request list with its answers as CSV',
      description:
        'The list in id order as CSV (RFC 4180, CRLF line ends, every field quoted, a cell a spreadsheet would take ' +
        `for a formula prefixed with an apostrophe): ${[...auditRequestCsvColumns, 'status', 'answers', 'history'].map((c) => `\`${c}\``).join(', ')}. ` +
        '`answers` has one answer a line (`<kind> <ref> (<note>)`), `history` one step a line ' +
        '(`<at> <action> by <who>: <comment>`). It imports again as it is.',
      tags: ['requests'],
      security: access.protected,
      responses: {
        '200': {
          description: 'The CSV, named `requests.csv` for saving.',
          headers: { 'Content-Disposition': { schema: { type: 'string' } } },
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        ...problems,
      },
    },
  },
  '/api/requests/{id}': {
    get: {
      operationId: 'getAuditRequest',
      summary: 'Get one request with its answers and history',
      tags: ['requests'],
      security: access.protected,
      parameters: [requestId],
      responses: {
        '200': jsonResponse('The request.', ref('AuditRequest')),
        ...problems,
        '404': responseRef('AuditRequestNotFound'),
      },
    },
  },
  '/api/requests/{id}/edit': step(
    'editAuditRequest',
    'Change a request\u2019s period or description',
    'Records the edit in its history; its status stays. An accepted request is reopened first (409 ' + '`audit_request_status`).',
    'AuditRequestEdit',
  ),
  '/api/requests/{id}/answers': step(
    'answerAuditRequest',
    'Add answers to a request, or take them back',
    'Adds answers (each must name something that exists; a fault answers 400 at `/add/<index>/ref`) and removes ' +
      `others; at most ${auditRequestLimits.answers} in all. A request with answers is \`answered\` (a returned one ` +
      'awaits the auditor again); one without is `open`. An accepted request is reopened first.',
    'AuditAnswerChange',
  ),
  '/api/requests/{id}/accept': step(
    'acceptAuditRequest',
    'Accept an answered request',
    'The auditor accepts the answers, with an optional comment. Only an answered request is accepted.',
    'AuditDecision',
  ),
  '/api/requests/{id}/return': step(
    'returnAuditRequest',
    'Return an answered request with a comment',
    'The auditor returns the answers as not enough, saying why. Only an answered request is returned; it is ' +
      'answered again by changing its answers.',
    'AuditDecisionWithComment',
  ),
  '/api/requests/{id}/reopen': step(
    'reopenAuditRequest',
    'Reopen an accepted request',
    'Opens an accepted request again, saying why: it is answered (or open, without answers) and may be edited, ' +
      'answered and decided again.',
    'AuditDecisionWithComment',
  ),
};
