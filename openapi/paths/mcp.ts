/**
 * The `mcp` family: the chat's question kinds as tools over the Model Context Protocol
 * (streamable HTTP), so a team's own assistant can ask about today's report. The description
 * checks only the JSON-RPC envelope and its size; the MCP server reads the messages themselves.
 */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, ref, responseRef } from '../components.ts';
import { datePattern, mcpLimits } from '@evident/contract';

export const tag = {
  name: 'mcp',
  description:
    'The chat\u2019s question kinds as Model Context Protocol tools (streamable HTTP, stateless, JSON answers), ' +
    'answered from today\u2019s report by the chat\u2019s composer, with citations. `GET` and `DELETE` answer 405: the ' +
    'server opens no event stream and holds no session. See docs/mcp.md to connect an assistant.',
};

/** A JSON-RPC id: MCP allows a string or a number. */
const jsonRpcId = { anyOf: [{ type: 'string', maxLength: 200 }, { type: 'number' }] };

export const schemas = {
  McpMessage: {
    type: 'object',
    required: ['jsonrpc'],
    description:
      'One JSON-RPC 2.0 message of the Model Context Protocol: a request (`id` and `method`), a notification ' +
      '(`method` alone) or a response (`id` and `result` or `error`). Only the envelope is described; the MCP ' +
      'server checks each method\u2019s params.',
    properties: {
      jsonrpc: { type: 'string', const: '2.0' },
      id: jsonRpcId,
      method: { type: 'string', maxLength: 200 },
      params: { type: 'object' },
      result: { type: 'object' },
      error: { type: 'object' },
    },
  },
  McpRequestBody: {
    description: `One message, or a batch of at most ${mcpLimits.batchMessages} (protocol 2025-03-26; later versions send one).`,
    // Told apart by being an array; `if` keeps errors to the shape that was meant.
    if: { type: 'array' },
    then: { type: 'array', minItems: 1, maxItems: mcpLimits.batchMessages, items: ref('McpMessage') },
    else: ref('McpMessage'),
  },
  McpResponse: {
    type: 'object',
    required: ['jsonrpc', 'id'],
    description:
      'A JSON-RPC 2.0 response: a `result`, or an `error` (an unknown method, invalid params). A tool call answers ' +
      'a result whose `content` is the answer\u2019s Markdown and whose `structuredContent` holds `date`, `answer`, ' +
      '`citations` and `grounded`; a call whose arguments do not fit the tool\u2019s schema answers `isError: true`.',
    properties: {
      jsonrpc: { type: 'string', const: '2.0' },
      id: { anyOf: [...jsonRpcId.anyOf, { type: 'null' }] },
      result: { type: 'object' },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
      },
    },
  },
  McpResponseBody: {
    description: 'The response to a message, or the responses to a batch\u2019s requests.',
    anyOf: [ref('McpResponse'), { type: 'array', items: ref('McpResponse') }],
  },
} as const;

export const paths: PathsObject = {
  '/api/mcp': {
    description:
      'The MCP endpoint. It holds no session and opens no server-sent event stream, so `GET` (a stream the server ' +
      'could push on) and `DELETE` (ending a session) answer 405 `method_not_allowed`, as the MCP specification ' +
      'allows a server without them to.',
    post: {
      operationId: 'mcp',
      summary: 'Send MCP messages',
      description:
        'Takes the JSON-RPC messages of the Model Context Protocol (`initialize`, `tools/list`, `tools/call`, ' +
        'notifications) and answers as JSON, never as an event stream: a request gets its response, a message ' +
        'without a request (a notification) 202 without a body. The tools are the chat\u2019s question kinds; a ' +
        'call is checked against today\u2019s report (an unknown control, owner or subject is declined, never ' +
        'guessed) and answered with the chat\u2019s Markdown and citations. Stateless: every request stands alone, ' +
        'whichever instance serves it, and no `Mcp-Session-Id` is given. Malformed JSON answers 400, an over-large ' +
        'body 413, a protocol version the server does not speak 400.',
      tags: ['mcp'],
      security: access.protected,
      'x-body-limit': mcpLimits.bodyBytes,
      parameters: [
        {
          name: 'MCP-Protocol-Version',
          in: 'header',
          required: false,
          description: 'The protocol version agreed at `initialize`; clients send it on every later request.',
          schema: { type: 'string', pattern: datePattern },
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref('McpRequestBody') } } },
      responses: {
        '200': {
          description: 'The JSON-RPC response, or the responses of a batch.',
          headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
          content: { 'application/json': { schema: ref('McpResponseBody') } },
        },
        '202': {
          description: 'The messages held no request (notifications, or responses): nothing to answer.',
          headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
        },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
