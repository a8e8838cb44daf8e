/**
 * `/api/mcp` through the mcp family, over the demo history, with the MCP SDK's own client: it
 * initializes, lists the chat's 31 question kinds as tools with their schemas, and a tool call is
 * answered as the chat answers the same question (the same Markdown and citations), declined when
 * it names what the report does not hold, and refused as the tool's error when its arguments do
 * not fit. Around it, the HTTP answers: 401 without a token in protected mode, 405 to GET and
 * DELETE (no event stream, no session), 202 to a notification, and problems for what is not MCP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mcpLimits } from '@evident/contract';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { questionTools } from '../../../functions/src/chat/question.ts';
import { createChatFamily } from '../../../functions/src/families/chat.ts';
import { createMcpFamily } from '../../../functions/src/families/mcp.ts';
import { apiVersion } from '../../../functions/src/generated/api-version.ts';
import { logs } from '../../../functions/src/logs.ts';
import { answerSchema } from '../../../functions/src/mcp/question-tools.ts';
import { instructions } from '../../../functions/src/mcp/stateless-server.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { seedDemoHistory } from '../../../scripts/lib/demo/seed.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { demoSeedDependencies } from '../../support/demo-seed.ts';
import { bearer, fakeTokens, fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

const catalog = compileCatalogSources(paths.catalog);
const today = '2026-11-21';
const store = new MemoryStore();
const services = {
  store: async () => store,
  catalog: () => catalog,
  now: () => new Date(`${today}T12:00:00Z`),
  timeZone: () => 'UTC',
};
let mcp: Served;
let chat: Served;
let client: Client;

const endpoint = () => `${mcp.url}/api/mcp`;
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
/** A raw POST to the endpoint, as a client without the SDK sends it. */
const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(endpoint(), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...bearer(fakeTokens.valid),
      ...headers,
    },
    body,
  });
function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parses`);
}
const problemOf = (response: Response, detail: string, code: Parameters<typeof expectedProblem>[0], extra = {}) =>
  expectedProblem(code, detail, '/api/mcp', response.headers.get('x-request-id')!, extra);

/** What the chat answers to `message`, through its own family, over the same store. */
async function chatAnswer(message: string): Promise<{ answer: string; citations: unknown[]; grounded: boolean; date: string }> {
  const response = await fetch(`${chat.url}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...bearer(fakeTokens.valid) },
    body: JSON.stringify({ message }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { answer: string; citations: unknown[]; grounded: boolean; date: string };
}

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  setMode('protected');
  await seedDemoHistory(demoSeedDependencies(store, compileCatalog(catalog)), {
    today,
    timeZone: 'UTC',
    now: new Date(`${today}T09:00:00Z`),
  });
  mcp = await serve(createMcpFamily({ ...services, verifyToken: fakeVerifier(), loadTable: tableOf('mcp') }));
  chat = await serve(createChatFamily({ ...services, verifyToken: fakeVerifier(), loadTable: tableOf('chat') }));
  client = new Client({ name: 'evident-unit', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint()), { requestInit: { headers: bearer(fakeTokens.valid) } }),
  );
  // Seeding two weeks of demo history takes seconds, more on a loaded machine.
}, 120_000);

afterAll(async () => {
  await client?.close();
  await mcp?.close();
  await chat?.close();
  vi.restoreAllMocks();
  setMode('public');
});

describe('the MCP server at /api/mcp, through the SDK client', () => {
  it('initializes as Evident, offering tools and saying that answers are about today\u2019s report', () => {
    expect(client.getServerVersion()).toEqual({ name: 'evident', version: apiVersion });
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
    expect(client.getInstructions()).toBe(instructions);
  });

  it('lists one tool per question kind, with the question model\u2019s schema of its slots and the answer\u2019s schema', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(31);
    expect(tools).toEqual(
      questionTools().map(({ name, description, parameters }) => ({
        name,
        description,
        inputSchema: parameters,
        outputSchema: answerSchema,
      })),
    );
  });

  it('answers a status call as the chat answers the question, citing the control, from today\u2019s report', async () => {
    const result = (await client.callTool({
      name: 'status',
      arguments: { topic: { controlIds: ['END-02'], label: 'END-02', source: 'id' } },
    })) as CallToolResult;
    const chatted = await chatAnswer('What is the status of END-02?');
    expect(chatted.grounded).toBe(true);
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: chatted.answer }]);
    expect(result.structuredContent).toEqual({
      date: today,
      answer: chatted.answer,
      citations: chatted.citations,
      grounded: true,
    });
    const cited = (result.structuredContent as { citations: { controlId: string }[] }).citations.map((c) => c.controlId);
    expect(new Set(cited)).toEqual(new Set(['END-02']));
  });

  it('declines a call that names a control the report does not hold, naming it, as the chat does', async () => {
    const result = (await client.callTool({
      name: 'status',
      arguments: { topic: { controlIds: ['END-99'], label: 'END-99', source: 'id' } },
    })) as CallToolResult;
    const chatted = await chatAnswer('What is the status of END-99?');
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: chatted.answer }]);
    expect(chatted.answer).toMatch(/^The report for 2026-11-21 does not mention \u201cEND-99\u201d, so it cannot answer that\./);
    expect(result.structuredContent).toEqual({ date: today, answer: chatted.answer, citations: [], grounded: false });
  });

  it('answers a call whose arguments do not fit the tool\u2019s schema as the tool\u2019s error, listing each problem', async () => {
    const result = await client.callTool({
      name: 'trend',
      arguments: { period: { from: '2026-11-01', to: 'last week', phrase: 'lately' }, framework: 'pci' },
    });
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text:
            'The arguments do not fit the trend tool:\n' +
            '- period.to: Invalid ISO date\n' +
            '- framework: Invalid option: expected one of "soc2"|"iso27001"|"nist80053"',
        },
      ],
    });
  });

  it('refuses a call of a tool it does not have as a protocol error', async () => {
    await expect(client.callTool({ name: 'launch', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: 'MCP error -32602: There is no tool launch.',
    });
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'launch' } }));
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32602, message: 'There is no tool launch.' },
    });
  });
});

describe('a tool call whose report cannot be read', () => {
  it('answers 500 without the cause, and logs it; listing the tools needs no report', async () => {
    const failures = vi.spyOn(logs, 'requestFailed').mockImplementation(() => undefined);
    const broken = await serve(
      createMcpFamily({
        ...services,
        store: () => Promise.reject(new Error('the bucket is gone')),
        verifyToken: fakeVerifier(),
        loadTable: tableOf('mcp'),
      }),
    );
    try {
      const send = (message: object) =>
        fetch(`${broken.url}/api/mcp`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...bearer(fakeTokens.valid) },
          body: JSON.stringify(message),
        });
      const listed = await send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(listed.status).toBe(200);
      const called = await send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'posture', arguments: {} } });
      expect(called.status).toBe(500);
      expect(await called.json()).toEqual(problemOf(called, 'The server failed to answer this request.', 'internal'));
      expect(failures).toHaveBeenCalledTimes(1);
      expect(String(failures.mock.calls[0]![1])).toBe('Error: the bucket is gone');
    } finally {
      failures.mockRestore();
      await broken.close();
    }
  });
});

describe('POST /api/mcp over HTTP', () => {
  it('answers 401 without a token in protected mode, before reading the message', async () => {
    const response = await fetch(endpoint(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="evident"');
    expect(await response.json()).toEqual(
      problemOf(
        response,
        'This operation needs "Authorization: Bearer <Firebase ID token>" in protected mode.',
        'unauthenticated',
      ),
    );
  });

  it('answers initialize as JSON with no session id, whatever the client accepts', async () => {
    const response = await post(JSON.stringify(initialize), { Accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'evident', version: apiVersion }, instructions },
    });
  });

  it('answers 202 without a body to a notification', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('answers a method it does not know with the JSON-RPC error', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/list' }), {
      'MCP-Protocol-Version': '2025-06-18',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } });
  });

  it('answers a batch with the responses of its requests', async () => {
    const list = { jsonrpc: '2.0', id: 'a', method: 'tools/list' };
    const ping = { jsonrpc: '2.0', id: 'b', method: 'ping' };
    const response = await post(JSON.stringify([list, ping]), { 'MCP-Protocol-Version': '2025-03-26' });
    expect(response.status).toBe(200);
    const answers = (await response.json()) as { id: string; result: { tools?: unknown[] } }[];
    expect(answers.map((answer) => answer.id)).toEqual(['a', 'b']);
    expect(answers[0]!.result.tools).toHaveLength(31);
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: 'b', result: {} });
  });

  it('answers 400 to a protocol version it does not speak', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
      'MCP-Protocol-Version': '2024-01-01',
    });
    const message = 'is not a protocol version this server speaks (2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)';
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      problemOf(response, `The header parameter "MCP-Protocol-Version" ${message}.`, 'invalid_request', {
        errors: [{ in: 'header', name: 'MCP-Protocol-Version', message }],
      }),
    );
  });

  it('answers 400 to malformed JSON', async () => {
    const malformed = '{"jsonrpc": "2.0", "id": 1, "method": "tools/li';
    const response = await post(malformed);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      problemOf(response, `The body is not valid JSON: ${parseError(malformed)}.`, 'malformed_json'),
    );
  });

  it('answers 400 to a message that is not JSON-RPC 2.0, and to a batch over the limit', async () => {
    const notJsonRpc = await post(JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'ping' }));
    expect(notJsonRpc.status).toBe(400);
    expect(await notJsonRpc.json()).toEqual(
      problemOf(notJsonRpc, 'The body /jsonrpc must be equal to constant.', 'invalid_request', {
        errors: [{ in: 'body', pointer: '/jsonrpc', message: 'must be equal to constant' }],
      }),
    );
    const batch = Array.from({ length: mcpLimits.batchMessages + 1 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' }));
    const tooMany = await post(JSON.stringify(batch));
    const tooManyMessage = `must NOT have more than ${mcpLimits.batchMessages} items`;
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toEqual(
      problemOf(tooMany, `The body (root) ${tooManyMessage}.`, 'invalid_request', {
        errors: [{ in: 'body', pointer: '', message: tooManyMessage }],
      }),
    );
  });

  it('answers 400 to an envelope the MCP server cannot read', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 3 }));
    const message = 'is not a message the MCP server reads (Parse error: Invalid JSON-RPC message)';
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      problemOf(response, `The body (root) ${message}.`, 'invalid_request', { errors: [{ in: 'body', pointer: '', message }] }),
    );
  });

  it('answers 413 to a body over its limit', async () => {
    const body = JSON.stringify({ ...initialize, params: { ...initialize.params, padding: 'x'.repeat(mcpLimits.bodyBytes) } });
    const response = await post(body);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(
      problemOf(
        response,
        `The body is ${Buffer.byteLength(body)} bytes; this operation accepts at most ${mcpLimits.bodyBytes}.`,
        'payload_too_large',
      ),
    );
  });

  it('answers 405 to GET and DELETE: no event stream to open, no session to end', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(endpoint(), { method, headers: bearer(fakeTokens.valid) });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect(await response.json()).toEqual(
        problemOf(response, `${method} is not allowed on /api/mcp; use POST, OPTIONS.`, 'method_not_allowed'),
      );
    }
  });
});
