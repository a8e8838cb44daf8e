/**
 * One function call to Gemini on Vertex AI: the transport the chat's model reader asks a question
 * through. It sends a system instruction, the conversation and the tools (each a function with a
 * JSON Schema of its parameters), makes the model call one of them (mode ANY, temperature 0) and
 * hands back the call it chose, or its text if it wrote some instead. Reading the call is the
 * reader's work, not this module's.
 *
 * The client is `@google/genai` with application default credentials (the runtime service
 * account), imported and built on the first call and reused after: the SDK and its auth library
 * are heavy, and a chat function that never calls the model must not pay for loading them at cold
 * start. Nothing here is retried: the caller gives one time-out for the whole call and falls back
 * to the offline reader when it passes, so a retry would only spend that time.
 *
 * Every failure is a `ModelCallFailure` with a reason and a message in our words, naming what to
 * fix; a message never holds a token, the instruction or the question, nor Google's error text
 * (which can quote the request).
 */
import type { FunctionCallingConfigMode, GenerateContentResponse, GoogleGenAI, GoogleGenAIOptions } from '@google/genai';

type AuthClient = NonNullable<GoogleGenAIOptions['googleAuthOptions']>['authClient'];

/** A function the model may call: its parameters are a JSON Schema object. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolCallRequest {
  /** The system instruction. */
  instruction: string;
  /** The conversation, oldest first, the question last. */
  turns: ReadonlyArray<{ role: 'user' | 'model'; text: string }>;
  tools: readonly ToolDeclaration[];
  /** Aborted when the caller's time-out passes: the call is then given up. */
  signal: AbortSignal;
}

export type ToolCallAnswer = { kind: 'call'; name: string; args: Record<string, unknown> } | { kind: 'text'; text: string };

export interface GeminiSettings {
  /** The Google Cloud project whose Vertex AI is called. */
  project: string;
  /** The Vertex AI location, e.g. `europe-west1` or `global`. */
  location: string;
  /** The publisher model, e.g. `gemini-2.5-flash`. */
  model: string;
  /** A stand-in's base URL in tests. */
  baseUrl?: string;
  /** Tests: a fixed token instead of application default credentials. */
  accessToken?: string;
}

type FailureReason = 'timeout' | 'permission_denied' | 'quota' | 'unavailable' | 'malformed';

export class ModelCallFailure extends Error {
  override readonly name = 'ModelCallFailure';
  readonly reason: FailureReason;
  /** The HTTP status Vertex AI answered, when it answered. */
  readonly status: number | undefined;
  constructor(reason: FailureReason, message: string, status?: number) {
    super(message);
    this.reason = reason;
    this.status = status;
  }
}

/**
 * The failure a thrown error stands for, in words naming what to fix: the SDK's `ApiError` carries
 * the HTTP status; anything else is the network.
 */
function failureOf(error: unknown, signal: AbortSignal, { project, location, model }: GeminiSettings): ModelCallFailure {
  if (error instanceof ModelCallFailure) return error;
  if (signal.aborted) return new ModelCallFailure('timeout', 'The model did not answer in time; the call was given up.');
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number')
    return new ModelCallFailure(
      'unavailable',
      'Vertex AI could not be reached, or no application default credentials were found.',
    );
  const failure = (reason: FailureReason, message: string) => new ModelCallFailure(reason, message, status);
  if (status === 401 || status === 403)
    return failure(
      'permission_denied',
      `Vertex AI refused the call (HTTP ${status}): enable the API aiplatform.googleapis.com on project ${project} ` +
        'and grant the runtime service account the role roles/aiplatform.user.',
    );
  if (status === 429)
    return failure('quota', `Vertex AI answered that the quota for ${model} in ${location} is used up (HTTP 429).`);
  if (status === 404)
    return failure('unavailable', `Vertex AI has no model ${model} in location ${location} for project ${project} (HTTP 404).`);
  if (status >= 500) return failure('unavailable', `Vertex AI failed to answer (HTTP ${status}).`);
  return failure('malformed', `Vertex AI rejected the request (HTTP ${status}).`);
}

/** The first candidate's function call, else its text (the SDK leaves thoughts out), else a malformed answer. */
function answerOf(response: GenerateContentResponse): ToolCallAnswer {
  const call = response.functionCalls?.[0];
  if (call?.name) return { kind: 'call', name: call.name, args: call.args ?? {} };
  if (call) throw new ModelCallFailure('malformed', 'The model called a function without a name.');
  const text = response.text;
  if (text?.trim()) return { kind: 'text', text };
  throw new ModelCallFailure('malformed', 'The model answered with neither a function call nor text.');
}

/** The SDK, imported now, with a client for `settings`. */
async function newClient({ project, location, baseUrl, accessToken }: GeminiSettings): Promise<GoogleGenAI> {
  const { GoogleGenAI } = await import('@google/genai');
  // google-auth-library uses a given `authClient` as it is: with the tests' fixed token it never
  // looks for credentials, the metadata server or Google.
  const authClient = { getRequestHeaders: async () => new Headers({ authorization: `Bearer ${accessToken}` }) };
  return new GoogleGenAI({
    vertexai: true,
    project,
    location,
    // v1, the generally available API, not the SDK's default v1beta1.
    apiVersion: 'v1',
    ...(baseUrl ? { httpOptions: { baseUrl } } : {}),
    ...(accessToken ? { googleAuthOptions: { authClient: authClient as unknown as AuthClient } } : {}),
  });
}

/** A caller of Gemini with `settings`: one request per call; the client is built on the first and kept unless it failed. */
export function geminiToolCaller(settings: GeminiSettings): (request: ToolCallRequest) => Promise<ToolCallAnswer> {
  let client: Promise<GoogleGenAI> | undefined;
  return async ({ instruction, turns, tools, signal }) => {
    try {
      if (signal.aborted) throw new ModelCallFailure('timeout', 'The time-out passed before the model was called.');
      const ai = await (client ??= newClient(settings).catch((error: unknown) => {
        client = undefined;
        throw error;
      }));
      const response = await ai.models.generateContent({
        model: settings.model,
        contents: turns.map(({ role, text }) => ({ role, parts: [{ text }] })),
        config: {
          systemInstruction: { parts: [{ text: instruction }] },
          tools: [
            { functionDeclarations: tools.map(({ parameters, ...named }) => ({ ...named, parametersJsonSchema: parameters })) },
          ],
          toolConfig: { functionCallingConfig: { mode: 'ANY' as FunctionCallingConfigMode } },
          temperature: 0,
          abortSignal: signal,
        },
      });
      return answerOf(response);
    } catch (error) {
      throw failureOf(error, signal, settings);
    }
  };
}
