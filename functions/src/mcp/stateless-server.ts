/**
 * One MCP request answered: the question tools served by the SDK's low-level `Server` (which
 * takes the tools' JSON Schemas as they are, with no second definition of them) through its
 * streamable HTTP transport, stateless and answering JSON.
 *
 * Stateless because a Cloud Function cannot hold a session: the next request may reach another
 * instance, or this one after it was stopped. So each request gets its own server and transport,
 * no `Mcp-Session-Id` is given out, and no event stream is opened (a stream would need the
 * instance that holds it to stay). Every request carries its bearer token, checked by the HTTP
 * core before this runs; `initialize` and `tools/list` need nothing of the report, so only a
 * tool call reads it.
 *
 * The transport is the SDK's web-standard one (`StreamableHTTPServerTransport` is it, wrapped
 * for Node's request and response): it takes a `Request` and gives back a `Response`, so the
 * HTTP core writes the answer as it writes every other, with its headers and problems, and the
 * body is the one the core already read, checked and parsed.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { apiVersion } from '../generated/api-version.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import type { AskedReport } from '../chat/answer.js';
import { config as zodConfig } from 'zod/v4';

/**
 * The SDK checks every message against its zod schemas. Zod compiles a schema into a function on
 * its first parse, which pays off over many parses of one schema; an instance that answers a
 * handful of messages before it is stopped pays the compiling (≈ 10 ms of a cold start) and
 * gains nothing, so schemas are interpreted.
 */
zodConfig({ jitless: true });

/**
 * The question tools, loaded by the first request that lists or calls them: they bring the chat's
 * question model and readers (chrono-node among them), which `initialize`, an assistant's first
 * request, does not need.
 */
const questionTools = () => import('./question-tools.js');

/**
 * The SDK checks only what a client answers to an elicitation against a JSON Schema, and this
 * server elicits nothing; its default validator compiles Ajv's formats for every server it
 * makes, so one is made when first asked for, once per instance.
 */
let ajv: AjvJsonSchemaValidator | undefined;
const schemaValidator: jsonSchemaValidator = {
  getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema),
};

/** What the server tells a client's assistant about itself, once, at `initialize`. */
export const instructions =
  "Evident answers questions about today's compliance report: its controls, their status, findings, evidence, " +
  'owners, due dates, exceptions and framework readiness, and how they changed over earlier days. Each tool is ' +
  'one kind of question; fill its arguments with what the report names (control ids such as IAM-01, owners, ' +
  'subjects, ISO dates). Every answer is about today\u2019s report, and reaches earlier days only through the ' +
  'arguments that name them. Answers are Markdown that cite the controls they rest on; a control, owner or ' +
  'subject the report does not hold is declined, never guessed.';

/** The answer to one HTTP request's messages, for the HTTP core to send. */
export type McpAnswer =
  /** The JSON-RPC response (or a batch's responses), serialised. */
  | { status: 200; body: string }
  /** The messages held no request: nothing to answer. */
  | { status: 202 }
  /** The request cannot be read as MCP: where, and why. */
  | { refused: { in: 'header' | 'body'; message: string } };

export interface McpRequest {
  /** The parsed body: one JSON-RPC message or a batch, as the API description checked it. */
  body: unknown;
  /** The `MCP-Protocol-Version` header, when sent. */
  protocolVersion: string | undefined;
  /** Today's report, read when a tool is called. */
  today: () => Promise<AskedReport>;
}

/**
 * Answers one request's messages. A tool call that fails for any reason but its arguments
 * (the store cannot be read) fails the whole request, so the HTTP core logs it and answers 500
 * without the cause, rather than the SDK sending the error's message to the client.
 */
export async function answerMcpRequest(request: McpRequest): Promise<McpAnswer> {
  if (request.protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(request.protocolVersion)) {
    const message = `is not a protocol version this server speaks (${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
    return { refused: { in: 'header', message } };
  }
  const failures: unknown[] = [];
  const server = questionServer(request.today, failures);
  // The parsed body is given below, so the transport reads no body; Accept and Content-Type are
  // the ones it requires: the core has checked the type, and answers JSON whatever a client accepts.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const headers = new Headers({ Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' });
    if (request.protocolVersion !== undefined) headers.set('MCP-Protocol-Version', request.protocolVersion);
    // The URL is only reported to handlers, which do not read it.
    const response = await transport.handleRequest(new Request('http://localhost/api/mcp', { method: 'POST', headers }), {
      parsedBody: request.body,
    });
    if (failures.length > 0) throw failures[0];
    if (response.status === 202) return { status: 202 };
    const text = await response.text();
    if (response.status === 200) return { status: 200, body: text };
    // What the envelope check lets through and the SDK refuses (a message without a method, two initializes).
    const { error } = JSON.parse(text) as { error: { message: string } };
    return { refused: { in: 'body', message: `is not a message the MCP server reads (${error.message})` } };
  } finally {
    await server.close();
  }
}

/** A server of the question tools for one request; a tool call's unexpected failure is kept in `failures`. */
function questionServer(today: () => Promise<AskedReport>, failures: unknown[]): Server {
  const server = new Server(
    { name: 'evident', version: apiVersion },
    { capabilities: { tools: {} }, instructions, jsonSchemaValidator: schemaValidator },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await questionTools()).questionToolList() }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const { answerToolCall, isQuestionTool } = await questionTools();
    if (!isQuestionTool(params.name)) throw protocolError(ErrorCode.InvalidParams, `There is no tool ${params.name}.`);
    try {
      return await answerToolCall(params.name, params.arguments ?? {}, today);
    } catch (error) {
      failures.push(error);
      throw protocolError(ErrorCode.InternalError, 'Internal error');
    }
  });
  return server;
}

/**
 * A JSON-RPC error the SDK sends as it is: its code and message (an `McpError` would send its
 * message with an "MCP error <code>:" prefix, which the client then adds again).
 */
const protocolError = (code: ErrorCode, message: string) => Object.assign(new Error(message), { code });
