/**
 * The `exceptions` family: risk acceptance. One person requests that a failing finding of one
 * control for one subject, or a whole control, be accepted with a justification until an expiry
 * date; another approves or refuses it (four eyes: functions/src/common/four-eyes.ts). Once
 * approved, evaluation marks what it covers accepted until then
 * (functions/src/assessment/exceptions.ts). Exceptions are never edited or deleted: they are
 * reviewed once and may be revoked.
 */
import type { PathItemObject, PathsObject } from 'openapi3-ts/oas31';
import { access, cursorParameter, jsonResponse, ref, responseRef } from '../components.ts';
import {
  controlIdPattern,
  exceptionIdPattern,
  maxActiveExceptionsPerSubject,
  maxExceptionDays,
  pageLimits,
} from '@evident/contract';

export const tag = {
  name: 'exceptions',
  description:
    'Risk acceptance: a failing finding of a control for one subject, or a whole control, accepted with a ' +
    'justification until an expiry date. One person requests an exception and another approves or refuses it; ' +
    'only an approved one counts: reports count what it covers as accepted until the day it expires. In public ' +
    'mode callers need not sign in, so the server cannot tell the two people apart: an approval there is recorded ' +
    'as not independent (`review.independent` false, with the reason in `review.caveat`). Exceptions are ' +
    'append-only: reviewed once and revoked, never edited or deleted.',
};

const reviewCaveat =
  'Why the review is not independent, in a sentence; null when it is. Three cases: the server runs in public mode, ' +
  'where callers need not sign in; the request was made without signing in; or the exception was recorded before ' +
  'requests and approvals were separate (its requester approved it at once).';

const exceptionId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: exceptionIdPattern },
} as const;

export const schemas = {
  ExceptionInput: {
    type: 'object',
    required: ['controlId', 'justification', 'expiresOn'],
    additionalProperties: false,
    properties: {
      controlId: { type: 'string', pattern: controlIdPattern },
      subject: {
        type: ['string', 'null'],
        minLength: 1,
        maxLength: 300,
        description:
          'The subject whose failing finding is accepted, as the control\u2019s findings name it; absent or null ' +
          'accepts the whole control.',
      },
      justification: { type: 'string', minLength: 10, maxLength: 4000, description: 'Why the risk is accepted.' },
      expiresOn: {
        type: 'string',
        format: 'date',
        description:
          `The first day (report time zone) the finding counts again: after today and at most ${maxExceptionDays} ` +
          'days ahead.',
      },
    },
  },
  Exception: {
    type: 'object',
    required: [
      'id',
      'controlId',
      'subject',
      'justification',
      'expiresOn',
      'createdAt',
      'requestedBy',
      'approver',
      'state',
      'review',
      'revoked',
    ],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: exceptionIdPattern },
      controlId: { type: 'string', pattern: controlIdPattern },
      subject: { type: ['string', 'null'], description: 'Null when the whole control is accepted.' },
      justification: { type: 'string' },
      expiresOn: { type: 'string', format: 'date' },
      createdAt: { type: 'string', format: 'date-time', description: 'When it was requested.' },
      requestedBy: {
        ...ref('Actor'),
        description: 'Who requested it. Of an exception recorded before requests were reviewed, its approver.',
      },
      approver: {
        ...ref('Actor'),
        deprecated: true,
        description:
          'Deprecated: read `review` (who approved or refused it, and whether independently) and `requestedBy`. The ' +
          'approver once approved; until then, and after a refusal, the requester, who is who this field named before ' +
          'requests were reviewed.',
      },
      state: {
        type: 'string',
        enum: ['requested', 'active', 'refused', 'expired', 'revoked'],
        description:
          'As of now: `requested` until it is approved or refused, `active` once approved, `refused` once refused, ' +
          '`expired` from its expiry day (approved or never reviewed), `revoked` once revoked (a request revoked before ' +
          'its review is withdrawn).',
      },
      review: {
        oneOf: [
          {
            type: 'object',
            required: ['decision', 'at', 'by', 'comment', 'independent', 'caveat'],
            additionalProperties: false,
            properties: {
              decision: { type: 'string', enum: ['approved', 'refused'] },
              at: { type: 'string', format: 'date-time' },
              by: ref('Actor'),
              comment: { type: ['string', 'null'], description: 'The approver\u2019s comment, or why it was refused.' },
              independent: {
                type: 'boolean',
                description: 'Whether the reviewer is known to be another person than the requester.',
              },
              caveat: { type: ['string', 'null'], description: reviewCaveat },
            },
          },
          { type: 'null' },
        ],
        description: 'The approval or refusal; null while it awaits one.',
      },
      revoked: {
        oneOf: [
          {
            type: 'object',
            required: ['at', 'by', 'reason'],
            additionalProperties: false,
            properties: {
              at: { type: 'string', format: 'date-time' },
              by: ref('Actor'),
              reason: { type: ['string', 'null'] },
            },
          },
          { type: 'null' },
        ],
      },
    },
  },
  ExceptionList: {
    type: 'object',
    required: ['today', 'items', 'hasMore'],
    additionalProperties: false,
    properties: {
      today: { type: 'string', format: 'date', description: 'Today in the report time zone, which states are judged by.' },
      items: { type: 'array', items: ref('Exception'), description: 'Soonest expiry first; the same day, by id.' },
      hasMore: { type: 'boolean', description: 'True when at least one more exception matching the filters follows this page.' },
      nextCursor: {
        type: 'string',
        description:
          'Pass as `cursor` to continue. Present when `hasMore` is true; also present, with `hasMore` false and a page ' +
          'that may be short, when a listing of ended or all exceptions of one control reached the bound of names one ' +
          'request examines before the page was full. Absent when the listing is complete.',
      },
    },
  },
  Approval: {
    type: 'object',
    additionalProperties: false,
    properties: { comment: { type: 'string', minLength: 1, maxLength: 2000 } },
  },
  Refusal: {
    type: 'object',
    required: ['reason'],
    additionalProperties: false,
    properties: { reason: { type: 'string', minLength: 1, maxLength: 2000, description: 'Why the risk is not accepted.' } },
  },
  Revocation: {
    type: 'object',
    additionalProperties: false,
    properties: { reason: { type: 'string', minLength: 1, maxLength: 2000 } },
  },
} as const;

function reviewOperation(decision: 'approve' | 'refuse'): PathItemObject {
  const approve = decision === 'approve';
  return {
    post: {
      operationId: approve ? 'approveException' : 'refuseException',
      summary: approve ? 'Approve a requested exception' : 'Refuse a requested exception',
      description:
        (approve
          ? 'Approves a requested exception, with the caller recorded as its approver and an optional comment; ' +
            'reports from the next one on (or an analysis that publishes today\u2019s) mark what it covers as accepted. '
          : 'Refuses a requested exception, with the caller and the reason recorded; it never counts, and is kept. ') +
        'An exception is reviewed once, by someone other than its requester: the requester answers 403 ' +
        '`self_review`, and an exception already approved or refused, revoked or past its expiry day answers 409 ' +
        '`exception_not_pending` (of two people reviewing it at once, one wins). In public mode callers need not ' +
        'sign in, so the server cannot tell the requester and the reviewer apart: the review is recorded with ' +
        '`independent` false and says why in `caveat`; only a caller signed in as the requester is refused there.',
      tags: ['exceptions'],
      security: access.protected,
      'x-body-limit': 8 * 1024,
      parameters: [exceptionId],
      requestBody: approve
        ? { required: false, content: { 'application/json': { schema: ref('Approval') } } }
        : { required: true, content: { 'application/json': { schema: ref('Refusal') } } },
      responses: {
        '200': jsonResponse(approve ? 'The exception, approved.' : 'The exception, refused.', ref('Exception')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '403': responseRef('SelfReview'),
        '404': responseRef('ExceptionNotFound'),
        '409': responseRef('ExceptionNotPending'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
  };
}

export const paths: PathsObject = {
  '/api/exceptions': {
    post: {
      operationId: 'createException',
      summary: 'Request that a risk be accepted until a date',
      description:
        'Records a request for an exception for a control, or for one subject of it, with the caller (from the ID ' +
        'token) as the requester; it counts once another person approves it (`approveException`). The control must be in the catalog and a subject must be one its findings name in the latest ' +
        'report; `expiresOn` must be after today and at most a year ahead. A control may have at most ' +
        `${maxActiveExceptionsPerSubject} exceptions requested or active for one subject, and as many for the whole ` +
        'control; one more answers 409 `too_many_exceptions` until one of them is refused, revoked or expires.',
      tags: ['exceptions'],
      security: access.protected,
      'x-body-limit': 16 * 1024,
      requestBody: { required: true, content: { 'application/json': { schema: ref('ExceptionInput') } } },
      responses: {
        '201': jsonResponse('The exception, requested.', ref('Exception'), {
          Location: { description: 'The new exception.', schema: { type: 'string' } },
        }),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '409': responseRef('TooManyExceptions'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
    get: {
      operationId: 'listExceptions',
      summary: 'List exceptions',
      description:
        'Exceptions soonest expiry first, filtered and paged. A page of active or requested ones reads the index of ' +
        'open exceptions of each control (of one, with `control`) and the exceptions shown; a page of refused or ended ' +
        'ones, or of all, lists names from the cursor\u2019s place and reads the exceptions shown. Neither grows with ' +
        'the history.',
      tags: ['exceptions'],
      security: access.protected,
      parameters: [
        {
          name: 'state',
          in: 'query',
          required: false,
          description:
            '`active`: approved and in force today. `requested`: awaiting approval or refusal. `refused`: refused. ' +
            '`ended`: expired (approved or not) or revoked. `all`: every exception ever recorded, whatever its state.',
          schema: { type: 'string', enum: ['active', 'requested', 'refused', 'ended', 'all'], default: 'active' },
        },
        { name: 'control', in: 'query', required: false, schema: { type: 'string', pattern: controlIdPattern } },
        {
          name: 'expiringWithin',
          in: 'query',
          required: false,
          description: 'Days from today; only exceptions whose expiry day is at most this far ahead.',
          schema: { type: 'integer', minimum: 1, maximum: maxExceptionDays },
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: {
            type: 'integer',
            minimum: 1,
            maximum: pageLimits.exceptions.maximum,
            default: pageLimits.exceptions.default,
          },
        },
        cursorParameter,
      ],
      responses: {
        '200': jsonResponse('A page of exceptions.', ref('ExceptionList')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/exceptions/{id}': {
    get: {
      operationId: 'getException',
      summary: 'Get one exception',
      tags: ['exceptions'],
      security: access.protected,
      parameters: [exceptionId],
      responses: {
        '200': jsonResponse('The exception.', ref('Exception')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ExceptionNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/exceptions/{id}/approve': reviewOperation('approve'),
  '/api/exceptions/{id}/refuse': reviewOperation('refuse'),
  '/api/exceptions/{id}/revoke': {
    post: {
      operationId: 'revokeException',
      summary: 'Revoke an exception',
      description:
        'Ends an exception before its expiry, with the caller recorded; reports from the next one on count what it ' +
        'covered again. Revoking a request before its review withdraws it. An exception is revoked once: a second ' +
        'revocation answers 409.',
      tags: ['exceptions'],
      security: access.protected,
      'x-body-limit': 8 * 1024,
      parameters: [exceptionId],
      requestBody: { required: false, content: { 'application/json': { schema: ref('Revocation') } } },
      responses: {
        '200': jsonResponse('The exception, revoked.', ref('Exception')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ExceptionNotFound'),
        '409': responseRef('ExceptionRevoked'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
