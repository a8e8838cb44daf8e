/**
 * Answers for the Vertex AI stand-in, written by hand to the shape Google documents for a
 * `GenerateContentResponse` (candidates with content parts holding a `functionCall` or `text`, a
 * finish reason, usage, model version, response id): the model itself cannot be recorded without
 * the service, so these stand for what it answers, not for how well it reads a question. The
 * stand-in validates each one against the description before sending it.
 */

export interface RequestPart {
  text?: string;
  functionCall?: { name?: string; args?: Record<string, unknown> };
}

/** A generateContent request body as the stand-in hands it to recordings and tests (already validated). */
export interface GenerateContentRequestBody {
  contents: { role?: string; parts: RequestPart[] }[];
  systemInstruction?: { role?: string; parts: RequestPart[] };
  tools?: {
    functionDeclarations?: { name: string; description?: string; parametersJsonSchema?: unknown; parameters?: unknown }[];
  }[];
  toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } };
  generationConfig?: Record<string, unknown>;
}

export type GenerateContentResponseBody = Record<string, unknown>;

/** One recorded answer: the first recording whose `when` holds for a request answers it. */
export interface Recording {
  when: (request: GenerateContentRequestBody) => boolean;
  response: GenerateContentResponseBody;
}

/** The text of a request's last user turn: the question. */
export function questionOf(request: GenerateContentRequestBody): string {
  const last = request.contents.findLast((content) => content.role === 'user');
  return (last?.parts ?? []).map((part) => part.text ?? '').join('');
}

const modelVersion = 'gemini-2.5-flash';
const createTime = '2026-11-27T10:00:00.000000Z';

function usage(promptTokenCount: number, candidatesTokenCount: number) {
  return {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount,
    trafficType: 'ON_DEMAND',
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokenCount }],
    candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: candidatesTokenCount }],
  };
}

function answer(parts: RequestPart[], responseId: string, candidatesTokenCount: number): GenerateContentResponseBody {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', avgLogprobs: -0.0123 }],
    usageMetadata: usage(812, candidatesTokenCount),
    modelVersion,
    createTime,
    responseId,
  };
}

/** The model called `name` with `args`. */
export function functionCallAnswer(name: string, args: Record<string, unknown>): GenerateContentResponseBody {
  return answer([{ functionCall: { name, args } }], `call-${name}`, 14);
}

/** The model wrote text instead of calling a function. */
export function textAnswer(text: string): GenerateContentResponseBody {
  return answer([{ text }], 'text-answer', 9);
}

/** The model's answer was blocked before it wrote anything: a candidate without content. */
export function blockedAnswer(): GenerateContentResponseBody {
  return {
    candidates: [{ finishReason: 'SAFETY', finishMessage: 'The response was blocked.' }],
    usageMetadata: { promptTokenCount: 812, totalTokenCount: 812, trafficType: 'ON_DEMAND' },
    modelVersion,
    createTime,
    responseId: 'blocked-answer',
  };
}
