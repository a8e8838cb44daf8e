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

export type ModelCallFailureReason = 'timeout' | 'permission_denied' | 'quota' | 'unavailable' | 'malformed';

export class ModelCallFailure extends Error {
  override readonly name = 'ModelCallFailure';
  readonly reason: ModelCallFailureReason;
  /** The HTTP status Vertex AI answered, when it answered. */
  readonly status: number | undefined;
  constructor(reason: ModelCallFailureReason, message: string, status?: number) {
    super(message);
    this.reason = reason;
    this.status = status;
  }
}

/** The API version the transport speaks: v1, the generally available one, not the SDK's default v1beta1. */
const apiVersion = 'v1';

type AuthOptions = NonNullable<GoogleGenAIOptions['googleAuthOptions']>;

/**
 * Auth options that answer every request with one fixed bearer token: google-auth-library uses a
 * given `authClient` as it is, so it never looks for credentials, the metadata server or Google.
 */
function fixedTokenAuth(token: string): AuthOptions {
  const authClient = { getRequestHeaders: () => Promise.resolve(new Headers({ authorization: `Bearer ${token}` })) };
  return { authClient: authClient as unknown as AuthOptions['authClient'] };
}

function clientOptions(settings: GeminiSettings): GoogleGenAIOptions {
  return {
    vertexai: true,
    project: settings.project,
    location: settings.location,
    apiVersion,
    ...(settings.baseUrl ? { httpOptions: { baseUrl: settings.baseUrl } } : {}),
    ...(settings.accessToken ? { googleAuthOptions: fixedTokenAuth(settings.accessToken) } : {}),
  };
}

function statusFailure(status: number, settings: GeminiSettings): ModelCallFailure {
  if (status === 401 || status === 403)
    return new ModelCallFailure(
      'permission_denied',
      `Vertex AI refused the call (HTTP ${status}): enable the API aiplatform.googleapis.com on project ` +
        `${settings.project} and grant the runtime service account the role roles/aiplatform.user.`,
      status,
    );
  if (status === 429)
    return new ModelCallFailure(
      'quota',
      `Vertex AI answered that the quota for ${settings.model} in ${settings.location} is used up (HTTP 429).`,
      status,
    );
  if (status === 404)
    return new ModelCallFailure(
      'unavailable',
      `Vertex AI has no model ${settings.model} in location ${settings.location} for project ${settings.project} (HTTP 404).`,
      status,
    );
  if (status >= 500) return new ModelCallFailure('unavailable', `Vertex AI failed to answer (HTTP ${status}).`, status);
  return new ModelCallFailure('malformed', `Vertex AI rejected the request (HTTP ${status}).`, status);
}

/** The failure a thrown error stands for: the SDK's `ApiError` carries the HTTP status; anything else is the network. */
function failureOf(error: unknown, signal: AbortSignal, settings: GeminiSettings): ModelCallFailure {
  if (error instanceof ModelCallFailure) return error;
  if (signal.aborted) return new ModelCallFailure('timeout', 'The model did not answer in time; the call was given up.');
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return statusFailure(status, settings);
  return new ModelCallFailure('unavailable', 'Vertex AI could not be reached, or no application default credentials were found.');
}

/** The first candidate's function call, else its text (thoughts left out), else a malformed answer. */
function answerOf(response: GenerateContentResponse): ToolCallAnswer {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  const call = parts.find((part) => part.functionCall)?.functionCall;
  if (call) {
    if (typeof call.name !== 'string' || call.name === '')
      throw new ModelCallFailure('malformed', 'The model called a function without a name.');
    return { kind: 'call', name: call.name, args: call.args ?? {} };
  }
  const text = parts
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('');
  if (text.trim() !== '') return { kind: 'text', text };
  throw new ModelCallFailure('malformed', 'The model answered with neither a function call nor text.');
}

function generateContentParameters(model: string, request: ToolCallRequest) {
  return {
    model,
    contents: request.turns.map(({ role, text }) => ({ role, parts: [{ text }] })),
    config: {
      systemInstruction: { parts: [{ text: request.instruction }] },
      tools: [
        {
          functionDeclarations: request.tools.map(({ name, description, parameters }) => ({
            name,
            description,
            parametersJsonSchema: parameters,
          })),
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY' as FunctionCallingConfigMode } },
      temperature: 0,
      abortSignal: request.signal,
    },
  };
}

/**
 * A caller of Gemini with `settings`: each call sends one request and answers the function the model
 * called. The SDK is imported and its client built on the first call, then reused.
 */
export function geminiToolCaller(settings: GeminiSettings): (request: ToolCallRequest) => Promise<ToolCallAnswer> {
  let client: Promise<GoogleGenAI> | undefined;
  const clientNow = () => {
    if (!client) {
      client = import('@google/genai').then(({ GoogleGenAI }) => new GoogleGenAI(clientOptions(settings)));
      // A failed import is not kept: the next call tries again.
      client.catch(() => (client = undefined));
    }
    return client;
  };
  return async (request) => {
    try {
      if (request.signal.aborted) throw new ModelCallFailure('timeout', 'The time-out passed before the model was called.');
      const ai = await clientNow();
      return answerOf(await ai.models.generateContent(generateContentParameters(settings.model, request)));
    } catch (error) {
      throw failureOf(error, request.signal, settings);
    }
  };
}
