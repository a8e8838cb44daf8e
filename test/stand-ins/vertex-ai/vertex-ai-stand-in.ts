/**
 * A stand-in for Vertex AI's `generateContent` REST method, for driving the real `@google/genai`
 * SDK (with `vertexai: true`) in tests: `POST /v1/projects/{project}/locations/{location}/
 * publishers/google/models/{model}:generateContent` on a loopback port. It speaks the method as
 * Google describes it (aiplatform-v1.subset.json, through description.ts): every request body is
 * checked against the `GenerateContentRequest` schema, and every answer against the
 * `GenerateContentResponse` schema before it is sent; a violation is recorded in `violations` and
 * answered 400 INVALID_ARGUMENT (or 500 for a bad answer), so a test sees it.
 *
 * Not Google, and not a model: answers come from recordings (recordings.ts), the first whose
 * `when` holds for the request; a request no recording answers is a violation too. One bearer
 * token (401 UNAUTHENTICATED otherwise), an optional latency before each answer (given up when
 * the client goes away, so a caller's time-out leaves nothing running), and faults answered on
 * every call in Google's error shape: 403 PERMISSION_DENIED, 429 RESOURCE_EXHAUSTED, 500 INTERNAL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as wait } from 'node:timers/promises';
import { generateContentPath, requestProblems, responseProblems } from './description.ts';
import type { GenerateContentRequestBody, GenerateContentResponseBody, Recording } from './recordings.ts';

export type VertexFault = 'PERMISSION_DENIED' | 'RESOURCE_EXHAUSTED' | 'INTERNAL';

export interface VertexAiStandInOptions {
  recordings: readonly Recording[];
  /** The bearer token it accepts; `stand-in-token` unless given. */
  token?: string;
  /** How long each answer waits, in milliseconds. */
  latencyMs?: number;
  /** Every call answers this error. */
  fault?: VertexFault;
}

/** A request as the stand-in received it: where it was sent and its body (validated or not). */
export interface ReceivedRequest {
  project: string;
  location: string;
  publisher: string;
  model: string;
  body: GenerateContentRequestBody;
}

export interface VertexAiStandIn {
  /** The SDK's `httpOptions.baseUrl`, e.g. `http://127.0.0.1:1234`. */
  baseUrl: string;
  token: string;
  /** Requests received, answered or not (retries included). */
  readonly calls: number;
  /** The most requests in flight at once. */
  readonly peakInFlight: number;
  /** Each generateContent request whose path was the method's, in order. */
  readonly requests: readonly ReceivedRequest[];
  /** Requests or answers that broke the description, and requests no recording answered. */
  readonly violations: readonly string[];
  /** Resolves with the next generateContent request when it arrives (before it is answered). */
  nextRequest(): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
}

function googleError(code: number, status: string, message: string, details?: unknown[]): Answer {
  return { status: code, body: { error: { code, message, status, ...(details ? { details } : {}) } } };
}

/** The errors Vertex AI answers for each fault, worded as it words them. */
function faultAnswer(fault: VertexFault, request: ReceivedRequest): Answer {
  const resource = `projects/${request.project}/locations/${request.location}/publishers/${request.publisher}/models/${request.model}`;
  if (fault === 'PERMISSION_DENIED')
    return googleError(
      403,
      fault,
      `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`,
      [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'IAM_PERMISSION_DENIED',
          domain: 'aiplatform.googleapis.com',
          metadata: { permission: 'aiplatform.endpoints.predict', resource },
        },
      ],
    );
  if (fault === 'RESOURCE_EXHAUSTED')
    return googleError(
      429,
      fault,
      'Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.',
    );
  return googleError(500, fault, 'Internal error encountered.');
}

const unauthenticated = googleError(
  401,
  'UNAUTHENTICATED',
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
);

async function bodyOf(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

interface State {
  options: VertexAiStandInOptions;
  token: string;
  requests: ReceivedRequest[];
  violations: string[];
  waiting: ((request: ReceivedRequest) => void)[];
}

/** Where the request was sent, or the problem with its method, path or query. */
function routeOf(request: http.IncomingMessage): { to: Omit<ReceivedRequest, 'body'> } | { problem: Answer } {
  const url = new URL(request.url ?? '/', 'http://stand-in');
  const match = generateContentPath.pattern.exec(url.pathname);
  if (request.method !== 'POST' || !match)
    return { problem: googleError(404, 'NOT_FOUND', `${request.method} ${url.pathname} is not ${generateContentPath.template}`) };
  if (url.search !== '') return { problem: googleError(400, 'INVALID_ARGUMENT', `undeclared query ${url.search}`) };
  const [, project, location, publisher, model] = match.map((part) => decodeURIComponent(part));
  return { to: { project: project!, location: location!, publisher: publisher!, model: model! } };
}

/** The recorded answer to a valid request, validated, or the violation that stops it. */
function recordedAnswer(state: State, received: ReceivedRequest): Answer {
  if (state.options.fault) return faultAnswer(state.options.fault, received);
  const recording = state.options.recordings.find(({ when }) => when(received.body));
  if (!recording) {
    state.violations.push('no recording answers the request');
    return googleError(500, 'INTERNAL', 'stand-in: no recording answers this request');
  }
  const problems = responseProblems(recording.response);
  if (problems.length > 0) {
    state.violations.push(...problems.map((problem) => `answer: ${problem}`));
    return googleError(500, 'INTERNAL', 'stand-in: the recorded answer breaks the description');
  }
  return { status: 200, body: recording.response satisfies GenerateContentResponseBody };
}

async function answerOf(state: State, request: http.IncomingMessage, text: string): Promise<Answer> {
  const route = routeOf(request);
  if ('problem' in route) {
    state.violations.push(`request: ${(route.problem.body as { error: { message: string } }).error.message}`);
    return route.problem;
  }
  if (request.headers.authorization !== `Bearer ${state.token}`) return unauthenticated;
  const body = parsed(text);
  const problems = request.headers['content-type']?.startsWith('application/json')
    ? requestProblems(body)
    : [`content-type ${request.headers['content-type']} is not application/json`];
  const received = { ...route.to, body: body as GenerateContentRequestBody };
  state.requests.push(received);
  state.waiting.splice(0).forEach((resolve) => resolve(received));
  if (problems.length > 0) {
    state.violations.push(...problems.map((problem) => `request: ${problem}`));
    return googleError(400, 'INVALID_ARGUMENT', `Invalid request: ${problems.join('; ')}`);
  }
  return recordedAnswer(state, received);
}

/** Waits `latencyMs`, or less if the client goes away first; true when the client is still there. */
async function waited(latencyMs: number, response: http.ServerResponse): Promise<boolean> {
  if (latencyMs <= 0) return true;
  const gone = new AbortController();
  response.once('close', () => gone.abort());
  try {
    await wait(latencyMs, undefined, { signal: gone.signal });
    return true;
  } catch {
    return false;
  }
}

export async function startVertexAiStandIn(options: VertexAiStandInOptions): Promise<VertexAiStandIn> {
  const state: State = { options, token: options.token ?? 'stand-in-token', requests: [], violations: [], waiting: [] };
  const counts = { calls: 0, inFlight: 0, peakInFlight: 0 };
  const server = http.createServer((request, response) => {
    counts.calls += 1;
    counts.inFlight += 1;
    counts.peakInFlight = Math.max(counts.peakInFlight, counts.inFlight);
    void bodyOf(request)
      .then(async (text) => {
        const answer = await answerOf(state, request, text);
        if (!(await waited(options.latencyMs ?? 0, response))) return;
        response.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8' });
        response.end(JSON.stringify(answer.body));
      })
      .finally(() => (counts.inFlight -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    token: state.token,
    get calls() {
      return counts.calls;
    },
    get peakInFlight() {
      return counts.peakInFlight;
    },
    requests: state.requests,
    violations: state.violations,
    nextRequest: () => new Promise((resolve) => state.waiting.push(resolve)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
