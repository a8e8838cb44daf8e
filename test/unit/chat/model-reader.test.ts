/**
 * The model reader, through the real Gemini transport and SDK against the Vertex AI stand-in (its
 * answers are recordings written to Google's documented shape: they stand for what a model calls,
 * not for how well it reads). What the model calls is checked against the report and answered by
 * the same composer as the offline reader's questions; what it cannot be trusted with is declined;
 * when it fails or is too slow, the offline reader reads the question instead.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answerQuestion, offlineReader } from '../../../functions/src/chat/answer.ts';
import type { ChatTurn } from '../../../functions/src/chat/question.ts';
import { geminiToolCaller } from '../../../functions/src/chat/model/gemini-tool-call.ts';
import { modelReader, readerInstruction } from '../../../functions/src/chat/model/model-reader.ts';
import { functionCallAnswer, questionOf, textAnswer, type Recording } from '../../stand-ins/vertex-ai/recordings.ts';
import {
  startVertexAiStandIn,
  type VertexAiStandIn,
  type VertexAiStandInOptions,
} from '../../stand-ins/vertex-ai/vertex-ai-stand-in.ts';
import { useEvaluationHistory } from '../../support/chat-evaluation.ts';

const demo = useEvaluationHistory();
let standIn: VertexAiStandIn | undefined;

afterEach(async () => {
  expect(standIn?.violations ?? []).toEqual([]);
  await standIn?.close();
  standIn = undefined;
});

const endpointStatus: Recording = {
  when: (request) => questionOf(request).includes('laptop'),
  response: functionCallAnswer('status', { topic: { controlIds: ['END-02', 'END-03'], label: 'laptops', source: 'search' } }),
};

/** Asks `message` with the model reader against a stand-in answering `recordings`; the fallbacks it took are returned too. */
async function askModel(
  message: string,
  options: Partial<VertexAiStandInOptions> = {},
  history: ChatTurn[] = [],
  timeoutMs = 5000,
) {
  standIn = await startVertexAiStandIn({ recordings: [endpointStatus], ...options });
  const fallbacks: string[] = [];
  const read = modelReader({
    callTool: geminiToolCaller({
      project: 'demo()-evident',
      location: 'us-central1',
      model: 'gemini-2.5-flash',
      baseUrl: standIn.baseUrl,
      accessToken: standIn.token,
    }),
    fallback: offlineReader(demo().days),
    timeoutMs,
    onFallback: (reason) => fallbacks.push(reason),
  });
  const answer = await answerQuestion({
    message,
    history,
    report: demo().report,
    catalog: demo().compiled.catalog,
    index: demo().index,
    days: demo().days,
    read,
  });
  return { answer, fallbacks };
}

const offline = (message: string, history: ChatTurn[] = []) =>
  answerQuestion({
    message,
    history,
    report: demo().report,
    catalog: demo().compiled.catalog,
    index: demo().index,
    days: demo().days,
  });

describe('the model reader', () => {
  it('asks the model with every question kind as a function and the report as data, then answers its call like any question', async () => {
    const { answer, fallbacks } = await askModel('how are our laptops doing?');
    expect(fallbacks).toEqual([]);
    expect(answer.grounded).toBe(true);
    expect([...new Set(answer.citations.map((citation) => citation.controlId))].sort()).toEqual(['END-02', 'END-03']);
    const [request] = standIn!.requests;
    const declarations = request!.body.tools!.flatMap((tool) => tool.functionDeclarations ?? []);
    expect(declarations).toHaveLength(31);
    expect(declarations.map((declaration) => declaration.name)).toContain('subjectHistory');
    expect(request!.body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    const instruction = request!.body.systemInstruction!.parts.map((part) => part.text).join('');
    expect(instruction).toBe(readerInstruction(demo().index));
    expect(instruction).toContain('Report date: 2026-11-21.');
    expect(instruction).toContain(
      '\nEND-02: Endpoint detection and response runs on every device; CC6.8 CC7.2 A.8.1 A.8.7 si-3 si-4\n',
    );
  });

  it('gives the model the conversation, oldest first, with the question last', async () => {
    const history: ChatTurn[] = [
      { role: 'user', content: 'what fails on endpoints?' },
      { role: 'assistant', content: 'END-02 and END-03 fail.', citations: [] },
    ];
    await askModel('and the laptops?', {}, history);
    expect(standIn!.requests[0]!.body.contents).toEqual([
      { role: 'user', parts: [{ text: 'what fails on endpoints?' }] },
      { role: 'model', parts: [{ text: 'END-02 and END-03 fail.' }] },
      { role: 'user', parts: [{ text: 'and the laptops?' }] },
    ]);
  });

  it('declines a call naming a control the report does not hold, naming it', async () => {
    const recordings = [
      {
        when: () => true,
        response: functionCallAnswer('fix', { topic: { controlIds: ['IAM-42'], label: 'IAM-42', source: 'id' } }),
      },
    ];
    const { answer } = await askModel('how do I fix IAM-42?', { recordings });
    expect(answer).toMatchObject({ grounded: false, citations: [] });
    expect(answer.answer).toMatch(/^The report for 2026-11-21 does not mention \u201cIAM-42\u201d/);
  });

  it.each([
    ['a call with slots the schema refuses', functionCallAnswer('list', { statuses: ['red'] })],
    ['a call to no kind of question', functionCallAnswer('launch', {})],
    ['text instead of a call', textAnswer('Everything is fine.')],
  ])('asks the person to name a control or topic after %s', async (_what, response) => {
    const { answer, fallbacks } = await askModel('hmm?', { recordings: [{ when: () => true, response }] });
    expect(fallbacks).toEqual([]);
    expect(answer).toMatchObject({ grounded: false, citations: [] });
    expect(answer.answer).toMatch(/name a control \(such as IAM-01\), a framework requirement \(such as CC6\.1\) or a topic/);
  });

  it('leaves the question to the offline reader when the model fails, and says why', async () => {
    const { answer, fallbacks } = await askModel('Which controls are missing evidence?', { fault: 'INTERNAL' });
    expect(fallbacks).toEqual(['unavailable']);
    expect(answer).toEqual(await offline('Which controls are missing evidence?'));
    expect(answer.grounded).toBe(true);
  });

  it('leaves the question to the offline reader when the model takes longer than the time-out', async () => {
    const { answer, fallbacks } = await askModel('how are our laptops doing?', { latencyMs: 2000 }, [], 200);
    expect(fallbacks).toEqual(['timeout']);
    expect(answer).toEqual(await offline('how are our laptops doing?'));
  });
});
