/**
 * The Gemini transport through the real `@google/genai` SDK against the Vertex AI stand-in: what
 * it sends (checked against Google's description of generateContent, and asserted whole), the
 * call or text it hands back, and the failures a caller can act on. Credentials are a fixed token,
 * and application default credentials are made to fail if anything asked for them (no key file,
 * no metadata server), so nothing here reaches Google.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  geminiToolCaller,
  ModelCallFailure,
  type GeminiSettings,
  type ToolCallRequest,
  type ToolDeclaration,
} from '../../../functions/src/chat/model/gemini-tool-call.ts';
import {
  blockedAnswer,
  functionCallAnswer,
  questionOf,
  textAnswer,
  type Recording,
} from '../../stand-ins/vertex-ai/recordings.ts';
import {
  startVertexAiStandIn,
  type VertexAiStandIn,
  type VertexAiStandInOptions,
} from '../../stand-ins/vertex-ai/vertex-ai-stand-in.ts';

const token = 'stand-in-access-token';
const instruction = 'You read questions about the compliance report of 2026-11-27. Controls: CC6.1 Logical access.';
const question = 'Is CC6.1 passing today?';

const tools: ToolDeclaration[] = [
  {
    name: 'control_status',
    description: 'The status of one control on a report day.',
    parameters: {
      type: 'object',
      properties: {
        control: { type: 'string', enum: ['CC6.1', 'CC7.2'] },
        day: { type: 'string', format: 'date' },
      },
      required: ['control'],
      additionalProperties: false,
    },
  },
  {
    name: 'decline',
    description: 'The question is not about the report.',
    parameters: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] },
  },
];

const askedAboutControl: Recording = {
  when: (request) => questionOf(request).includes('CC6.1'),
  response: functionCallAnswer('control_status', { control: 'CC6.1', day: '2026-11-27' }),
};

const running: VertexAiStandIn[] = [];
beforeEach(() => {
  // Application default credentials would fail here: no key file, no metadata server.
  vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', '/nonexistent/credentials.json');
  vi.stubEnv('METADATA_SERVER_DETECTION', 'none');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(running.splice(0).map((stand) => stand.close()));
});

async function vertex(options: Partial<VertexAiStandInOptions> = {}) {
  const stand = await startVertexAiStandIn({ recordings: [askedAboutControl], token, ...options });
  running.push(stand);
  const settings: GeminiSettings = {
    project: 'evident-demo',
    location: 'europe-west1',
    model: 'gemini-2.5-flash',
    baseUrl: stand.baseUrl,
    accessToken: token,
  };
  return { stand, call: geminiToolCaller(settings) };
}

function asking(text: string, signal = new AbortController().signal): ToolCallRequest {
  return {
    instruction,
    turns: [
      { role: 'user', text: 'Which controls fail?' },
      { role: 'model', text: 'CC7.2 fails today.' },
      { role: 'user', text },
    ],
    tools,
    signal,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ModelCallFailure> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ModelCallFailure);
  const { message } = failure as ModelCallFailure;
  for (const secret of [token, instruction, question]) expect(message).not.toContain(secret);
  return failure as ModelCallFailure;
}

describe('one function call to Gemini on Vertex AI', () => {
  it('sends the instruction, the turns in order, every tool with its JSON Schema, mode ANY and temperature 0, and hands back the call', async () => {
    const { stand, call } = await vertex();

    const answer = await call(asking(question));

    expect(answer).toEqual({ kind: 'call', name: 'control_status', args: { control: 'CC6.1', day: '2026-11-27' } });
    expect(stand.violations).toEqual([]);
    expect(stand.requests).toEqual([
      {
        project: 'evident-demo',
        location: 'europe-west1',
        publisher: 'google',
        model: 'gemini-2.5-flash',
        body: {
          contents: [
            { role: 'user', parts: [{ text: 'Which controls fail?' }] },
            { role: 'model', parts: [{ text: 'CC7.2 fails today.' }] },
            { role: 'user', parts: [{ text: question }] },
          ],
          systemInstruction: { parts: [{ text: instruction }] },
          tools: [
            {
              functionDeclarations: tools.map(({ name, description, parameters }) => ({
                name,
                description,
                parametersJsonSchema: parameters,
              })),
            },
          ],
          toolConfig: { functionCallingConfig: { mode: 'ANY' } },
          generationConfig: { temperature: 0 },
        },
      },
    ]);
  });

  it('hands back text when the model writes instead of calling', async () => {
    const { stand, call } = await vertex({
      recordings: [{ when: () => true, response: textAnswer('I can only read the report.') }],
    });

    expect(await call(asking('Tell me a joke'))).toEqual({ kind: 'text', text: 'I can only read the report.' });
    expect(stand.violations).toEqual([]);
  });

  it('builds the client once and reuses it for later calls', async () => {
    const { stand, call } = await vertex();

    await call(asking(question));
    await call(asking(`${question} And yesterday?`));

    expect(stand.requests.map(({ body }) => questionOf(body))).toEqual([question, `${question} And yesterday?`]);
    expect(stand.violations).toEqual([]);
  });

  it('fails as malformed when the answer holds neither a function call nor text', async () => {
    const { stand, call } = await vertex({ recordings: [{ when: () => true, response: blockedAnswer() }] });

    const failure = await failureOf(call(asking(question)));

    expect([failure.reason, failure.message]).toEqual(['malformed', 'The model answered with neither a function call nor text.']);
    expect(stand.violations).toEqual([]);
  });

  it('fails as permission_denied on 403, naming the role and the API to grant', async () => {
    const { stand, call } = await vertex({ fault: 'PERMISSION_DENIED' });

    const failure = await failureOf(call(asking(question)));

    expect([failure.reason, failure.status, failure.message]).toEqual([
      'permission_denied',
      403,
      'Vertex AI refused the call (HTTP 403): enable the API aiplatform.googleapis.com on project evident-demo ' +
        'and grant the runtime service account the role roles/aiplatform.user.',
    ]);
    expect(stand.calls).toBe(1);
  });

  it('fails as quota on 429, without retrying inside the caller’s time-out', async () => {
    const { stand, call } = await vertex({ fault: 'RESOURCE_EXHAUSTED' });

    const failure = await failureOf(call(asking(question)));

    expect([failure.reason, failure.status]).toEqual(['quota', 429]);
    expect(stand.calls).toBe(1);
  });

  it('fails as unavailable on 500, after one call: the SDK retries only when told to, and the transport does not tell it', async () => {
    const { stand, call } = await vertex({ fault: 'INTERNAL' });

    const failure = await failureOf(call(asking(question)));

    expect([failure.reason, failure.status, failure.message]).toEqual([
      'unavailable',
      500,
      'Vertex AI failed to answer (HTTP 500).',
    ]);
    expect(stand.calls).toBe(1);
  });

  it('fails as unavailable when nothing listens', async () => {
    const { stand } = await vertex();
    const { baseUrl } = stand;
    await stand.close();
    running.splice(0);
    const call = geminiToolCaller({ project: 'p', location: 'global', model: 'gemini-2.5-flash', baseUrl, accessToken: token });

    const failure = await failureOf(call(asking(question)));

    expect([failure.reason, failure.message]).toEqual([
      'unavailable',
      'Vertex AI could not be reached, or no application default credentials were found.',
    ]);
  });

  it('gives the call up as a timeout when the signal is aborted while the model is still answering', async () => {
    const { stand, call } = await vertex({ latencyMs: 600_000 });
    const timeout = new AbortController();

    const pending = call(asking(question, timeout.signal));
    await stand.nextRequest();
    timeout.abort();
    const failure = await failureOf(pending);

    expect([failure.reason, failure.message]).toEqual(['timeout', 'The model did not answer in time; the call was given up.']);
  });

  it('does not call at all when the time-out has already passed', async () => {
    const { stand, call } = await vertex();

    const failure = await failureOf(call(asking(question, AbortSignal.abort())));

    expect(failure.reason).toBe('timeout');
    expect(stand.calls).toBe(0);
  });

  it('fails without the token in its message when the token is refused', async () => {
    const { stand } = await vertex({ token: 'the-token-vertex-accepts' });
    const call = geminiToolCaller({
      project: 'evident-demo',
      location: 'europe-west1',
      model: 'gemini-2.5-flash',
      baseUrl: stand.baseUrl,
      accessToken: token,
    });

    const failure = await failureOf(call(asking(question)));

    expect([failure.reason, failure.status]).toEqual(['permission_denied', 401]);
    expect(failure.message).not.toContain('the-token-vertex-accepts');
  });

  it('loads @google/genai on the first call, not when the module is imported', async () => {
    const { stand } = await vertex();
    const script = `
      import { registerHooks } from 'node:module';
      const resolved = new Set();
      registerHooks({ resolve: (specifier, context, next) => (resolved.add(specifier), next(specifier, context)) });
      const { geminiToolCaller } = await import(process.argv[1]);
      const atImport = resolved.has('@google/genai');
      const call = geminiToolCaller({ project: 'p', location: 'global', model: 'gemini-2.5-flash', baseUrl: process.argv[2], accessToken: process.argv[3] });
      const answer = await call({ instruction: 'i', turns: [{ role: 'user', text: 'Is CC6.1 passing?' }], tools: [], signal: new AbortController().signal });
      process.stdout.write(JSON.stringify({ atImport, afterCall: resolved.has('@google/genai'), answer }));
    `;
    const module = new URL('../../../functions/src/chat/model/gemini-tool-call.ts', import.meta.url).href;

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script, module, stand.baseUrl, token],
      { env: { PATH: process.env.PATH, METADATA_SERVER_DETECTION: 'none' } },
    );

    expect(JSON.parse(stdout)).toEqual({
      atImport: false,
      afterCall: true,
      answer: { kind: 'call', name: 'control_status', args: { control: 'CC6.1', day: '2026-11-27' } },
    });
    expect(stand.violations).toEqual([]);
  });
});
