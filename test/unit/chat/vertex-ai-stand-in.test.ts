/**
 * The Vertex AI stand-in holds requests and answers to Google's description: a request the API
 * would reject is answered 400 INVALID_ARGUMENT in Google's error shape and recorded, a wrong
 * token 401, another path 404, and an answer that breaks the description is never sent. Without
 * this, the transport's "no violation" would prove nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseProblems } from '../../stand-ins/vertex-ai/description.ts';
import { blockedAnswer, functionCallAnswer, textAnswer } from '../../stand-ins/vertex-ai/recordings.ts';
import { startVertexAiStandIn, type VertexAiStandIn } from '../../stand-ins/vertex-ai/vertex-ai-stand-in.ts';

const path = '/v1/projects/evident-demo/locations/global/publishers/google/models/gemini-2.5-flash:generateContent';
const valid = {
  contents: [{ role: 'user', parts: [{ text: 'Is CC6.1 passing?' }] }],
  tools: [{ functionDeclarations: [{ name: 'decline', parametersJsonSchema: { type: 'object', properties: {} } }] }],
  toolConfig: { functionCallingConfig: { mode: 'ANY' } },
};

const running: VertexAiStandIn[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((stand) => stand.close()));
});

async function post(body: unknown, { to = path, token = 'stand-in-token', response = functionCallAnswer('decline', {}) } = {}) {
  const stand = await startVertexAiStandIn({ recordings: [{ when: () => true, response }] });
  running.push(stand);
  const answer = await fetch(`${stand.baseUrl}${to}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { stand, status: answer.status, body: (await answer.json()) as unknown };
}

describe('the Vertex AI stand-in', () => {
  it('answers a valid request from its recording', async () => {
    const { stand, status, body } = await post(valid);

    expect([status, body, stand.violations]).toEqual([200, functionCallAnswer('decline', {}), []]);
  });

  it('answers 400 INVALID_ARGUMENT to unknown fields, a declaration that is no JSON Schema object, and a wrong mode, and records them', async () => {
    const { stand, status, body } = await post({
      ...valid,
      toolChoice: 'any',
      tools: [{ functionDeclarations: [{ name: 'status', parametersJsonSchema: { type: 'string' } }, { name: '9lives' }] }],
      toolConfig: { functionCallingConfig: { mode: 'ALWAYS' } },
    });

    const problems = [
      `Unknown name "toolChoice" at '/': Cannot find field.`,
      '/toolConfig/functionCallingConfig/mode must be equal to one of the allowed values',
    ];
    expect(status).toBe(400);
    expect(body).toEqual({
      error: { code: 400, status: 'INVALID_ARGUMENT', message: `Invalid request: ${problems.join('; ')}` },
    });
    expect(stand.violations).toEqual(problems.map((problem) => `request: ${problem}`));
  });

  it('checks each declaration once the body has the documented shape', async () => {
    const { stand, status } = await post({
      ...valid,
      tools: [{ functionDeclarations: [{ name: 'status', parametersJsonSchema: { type: 'string' } }, { name: '9lives' }] }],
    });

    expect(status).toBe(400);
    expect(stand.violations).toEqual([
      'request: /tools/0/functionDeclarations/0/parametersJsonSchema does not describe an object',
      'request: /tools/0/functionDeclarations/1/name "9lives" is not a valid name',
    ]);
  });

  it('accepts parameters written by zod (JSON Schema 2020-12, naming its $schema)', async () => {
    const parametersJsonSchema = z.toJSONSchema(z.object({ control: z.string(), day: z.iso.date().optional() }));

    const { stand, status } = await post({
      ...valid,
      tools: [{ functionDeclarations: [{ name: 'status', parametersJsonSchema }] }],
    });

    expect([status, stand.violations]).toEqual([200, []]);
  });

  it('answers 401 UNAUTHENTICATED to another token, and 404 to another path', async () => {
    const refused = await post(valid, { token: 'another-token' });
    const elsewhere = await post(valid, { to: path.replace('/v1/', '/v1beta1/') });

    expect([refused.status, (refused.body as { error: { status: string } }).error.status]).toEqual([401, 'UNAUTHENTICATED']);
    expect([elsewhere.status, (elsewhere.body as { error: { status: string } }).error.status]).toEqual([404, 'NOT_FOUND']);
  });

  it('never sends a recording that breaks the description', async () => {
    const broken = { candidates: [{ content: { parts: [{ functionCall: { name: 'decline', arguments: {} } }] } }] };

    const { stand, status } = await post(valid, { response: broken });

    expect(status).toBe(500);
    expect(stand.violations).toEqual([
      `answer: Unknown name "arguments" at '/candidates/0/content/parts/0/functionCall': Cannot find field.`,
    ]);
  });

  it('holds the recordings it offers to the description', () => {
    for (const answer of [functionCallAnswer('decline', { reason: 'x' }), textAnswer('text'), blockedAnswer()])
      expect(responseProblems(answer)).toEqual([]);
  });
});
