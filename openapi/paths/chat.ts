/** The `chat` family: questions about a report, answered only from it, with citations, as JSON or a resumable stream. */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, eventStreamOf, ref, responseRef, resumeParameters, streamEvent } from '../components.ts';
import { chatLimits, chatMessageIdPattern, datePattern } from '@evident/contract';

export const tag = {
  name: 'chat',
  description:
    'Questions about a day\u2019s report, answered only from that report (controls, findings, evidence, the diff) with ' +
    'citations. A question the report cannot answer is declined, never guessed. Answers come as JSON, or as server-sent ' +
    'events when the client asks for `text/event-stream`; a stream resumes with `Last-Event-ID`.',
};

export const schemas = {
  Citation: {
    type: 'object',
    required: ['controlId', 'quote'],
    additionalProperties: false,
    properties: {
      controlId: { type: 'string', maxLength: 20 },
      evidenceId: {
        type: 'string',
        maxLength: 200,
        description: 'The evidence item the quoted finding rests on, when there is one.',
      },
      quote: { type: 'string', maxLength: 2000, description: 'The finding or result, as the report states it.' },
    },
  },
  ChatTurn: {
    type: 'object',
    required: ['role', 'content'],
    additionalProperties: false,
    properties: {
      role: { type: 'string', enum: ['user', 'assistant'] },
      content: { type: 'string', maxLength: chatLimits.turnChars },
      citations: {
        type: 'array',
        maxItems: chatLimits.citations,
        items: ref('Citation'),
        description: 'For assistant turns: the citations it answered with, so a follow-up ("why?") knows what it refers to.',
      },
    },
  },
  ChatRequest: {
    type: 'object',
    required: ['message'],
    additionalProperties: false,
    properties: {
      message: { type: 'string', minLength: 1, maxLength: chatLimits.messageChars },
      date: {
        type: 'string',
        pattern: datePattern,
        description: 'The day of the report to ask about, `YYYY-MM-DD` in the report time zone; today\u2019s by default.',
      },
      history: {
        type: 'array',
        maxItems: chatLimits.turns,
        items: ref('ChatTurn'),
        description: `The previous turns, oldest first (at most ${chatLimits.turns}).`,
      },
    },
  },
  ChatAnswer: {
    type: 'object',
    required: ['id', 'date', 'answer', 'citations', 'grounded', 'suggestions'],
    additionalProperties: false,
    properties: {
      id: {
        type: 'string',
        pattern: chatMessageIdPattern,
        description: 'Identifies the answer; a streamed answer\u2019s events are kept under it (see `Content-Location`).',
      },
      date: { type: 'string', format: 'date', description: 'The report the answer is drawn from.' },
      answer: {
        type: 'string',
        description: 'Markdown. Text taken from evidence is escaped, so it cannot inject HTML or links.',
      },
      citations: { type: 'array', items: ref('Citation') },
      grounded: {
        type: 'boolean',
        description: 'True when the answer rests on the report; false when the question is outside what it covers.',
      },
      suggestions: { type: 'array', items: { type: 'string' }, description: 'Questions the report can answer.' },
    },
  },
  ChatDeltaEvent: streamEvent('answer.delta', 'A piece of the answer\u2019s Markdown; the pieces in order make the answer.', {
    type: 'object',
    required: ['text'],
    additionalProperties: false,
    properties: { text: { type: 'string' } },
  }),
  ChatCitationsEvent: streamEvent('citations', 'The answer\u2019s citations, after its last piece.', {
    type: 'object',
    required: ['citations'],
    additionalProperties: false,
    properties: { citations: { type: 'array', items: ref('Citation') } },
  }),
  ChatDoneEvent: streamEvent('done', 'The last event: the whole answer as JSON would have carried it.', ref('ChatAnswer')),
  ChatEvent: {
    description: 'One event of an answer stream, sent as `id:`, `event:` (its type) and `data:` (this object as JSON).',
    oneOf: [ref('ChatDeltaEvent'), ref('ChatCitationsEvent'), ref('ChatDoneEvent')],
    discriminator: {
      propertyName: 'type',
      mapping: {
        'answer.delta': '#/components/schemas/ChatDeltaEvent',
        citations: '#/components/schemas/ChatCitationsEvent',
        done: '#/components/schemas/ChatDoneEvent',
      },
    },
  },
} as const;

export const paths: PathsObject = {
  '/api/chat': {
    post: {
      operationId: 'chat',
      summary: 'Ask about a report',
      description:
        'Answers from the report of `date` (today by default) only, citing the controls and evidence each statement rests ' +
        'on. With `Accept: text/event-stream` the answer comes as events (`answer.delta` pieces, `citations`, `done`); ' +
        'they are persisted first, and `Content-Location` names where to resume them with `Last-Event-ID`. Over-long ' +
        'messages or histories answer 400, an over-large body 413. The report of `date` is found as ' +
        '`GET /api/report/{date}` finds it: a day that is not a calendar day answers 400, a day in the future or a past ' +
        'day without a report 404 `report_not_found`.',
      tags: ['chat'],
      security: access.protected,
      'x-body-limit': chatLimits.bodyBytes,
      requestBody: { required: true, content: { 'application/json': { schema: ref('ChatRequest') } } },
      responses: {
        '200': {
          description: 'The answer, as JSON or as a stream of `ChatEvent`s.',
          headers: {
            'X-Request-Id': { $ref: '#/components/headers/RequestId' },
            'Content-Location': { description: 'For streams: where to resume them.', schema: { type: 'string' } },
          },
          content: {
            'application/json': { schema: ref('ChatAnswer') },
            'text/event-stream': { schema: eventStreamOf('ChatEvent') },
          },
        },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ReportNotFound'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/chat/messages/{id}/events': {
    get: {
      operationId: 'streamChatAnswer',
      summary: 'Resume an answer stream',
      description:
        'The persisted events of an answer after `Last-Event-ID`, as server-sent events; 204 once the client has them all.',
      tags: ['chat'],
      security: access.protected,
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: chatMessageIdPattern } },
        ...resumeParameters,
      ],
      responses: {
        '200': {
          description: 'The rest of the answer\u2019s events.',
          headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
          content: { 'text/event-stream': { schema: eventStreamOf('ChatEvent') } },
        },
        '204': { description: 'The client already has every event of this answer.' },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('ChatMessageNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
