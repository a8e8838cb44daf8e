/**
 * The `exceptions` family: risk acceptance. A person accepts a failing finding of one control for
 * one subject, or a whole control, with a justification, until an expiry date; evaluation marks
 * what it covers accepted until then (functions/src/assessment/exceptions.ts). Exceptions are
 * never edited or deleted, only revoked.
 */
import type { PathsObject } from 'openapi3-ts/oas31';
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
    'justification until an expiry date. Reports count what it covers as accepted until the day it expires. ' +
    'Exceptions are append-only: they are revoked, never edited or deleted.',
};

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
    required: ['id', 'controlId', 'subject', 'justification', 'expiresOn', 'createdAt', 'approver', 'state', 'revoked'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: exceptionIdPattern },
      controlId: { type: 'string', pattern: controlIdPattern },
      subject: { type: ['string', 'null'], description: 'Null when the whole control is accepted.' },
      justification: { type: 'string' },
      expiresOn: { type: 'string', format: 'date' },
      createdAt: { type: 'string', format: 'date-time' },
      approver: { ...ref('Actor'), description: 'Who accepted the risk.' },
      state: {
        type: 'string',
        enum: ['active', 'expired', 'revoked'],
        description: 'As of now: `expired` from its expiry day, `revoked` once revoked.',
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
  Revocation: {
    type: 'object',
    additionalProperties: false,
    properties: { reason: { type: 'string', minLength: 1, maxLength: 2000 } },
  },
} as const;

export const paths: PathsObject = {
  '/api/exceptions': {
    post: {
      operationId: 'createException',
      summary: 'Accept a risk until a date',
      description:
        'Records an exception for a control, or for one subject of it, with the caller (from the ID token) as the ' +
        'approver. The control must be in the catalog and a subject must be one its findings name in the latest ' +
        'report; `expiresOn` must be after today and at most a year ahead. Reports from the next one on (or an ' +
        'analysis that publishes today\u2019s) mark what it covers as accepted. A control may have at most ' +
        `${maxActiveExceptionsPerSubject} active exceptions for one subject, and as many for the whole control; one more ` +
        'answers 409 `too_many_exceptions` until one of them is revoked or expires.',
      tags: ['exceptions'],
      security: access.protected,
      'x-body-limit': 16 * 1024,
      requestBody: { required: true, content: { 'application/json': { schema: ref('ExceptionInput') } } },
      responses: {
        '201': jsonResponse('The exception.', ref('Exception'), {
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
        'Exceptions soonest expiry first, filtered and paged. A page of active ones reads the index of open exceptions ' +
        'of each control (of one, with `control`) and the exceptions shown; a page of ended ones, or of all, lists ' +
        'names from the cursor\u2019s place and reads the exceptions shown. Neither grows with the history.',
      tags: ['exceptions'],
      security: access.protected,
      parameters: [
        {
          name: 'state',
          in: 'query',
          required: false,
          description:
            '`active`: in force today. `ended`: expired or revoked. `all`: every exception ever recorded, whatever its state.',
          schema: { type: 'string', enum: ['active', 'ended', 'all'], default: 'active' },
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
  '/api/exceptions/{id}/revoke': {
    post: {
      operationId: 'revokeException',
      summary: 'Revoke an exception',
      description:
        'Ends an exception before its expiry, with the caller recorded; reports from the next one on count what it ' +
        'covered again. An exception is revoked once: a second revocation answers 409.',
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
