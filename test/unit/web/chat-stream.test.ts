/**
 * Asking a chat question as a stream, against a fake fetch: the answer's events in order, a
 * POST body cut mid-event resumed at Content-Location after the last whole event, the answer as
 * JSON when the server sends that, and problems raised as ApiErrors in the server's words.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../hosting/src/lib/api.ts';
import type { ChatAnswer, ChatEvent } from '../../../hosting/src/lib/api-types.ts';
import { askStreaming } from '../../../hosting/src/lib/chat-stream.ts';

const answer: ChatAnswer = {
  id: 'msg-0000000000ab',
  date: '2026-11-21',
  answer: 'One two three.',
  citations: [{ controlId: 'IAM-01', quote: 'MFA is off.' }],
  grounded: true,
  suggestions: [],
};
const events: ChatEvent[] = [
  { id: 1, type: 'answer.delta', data: { text: 'One ' } },
  { id: 2, type: 'answer.delta', data: { text: 'two ' } },
  { id: 3, type: 'answer.delta', data: { text: 'three.' } },
  { id: 4, type: 'citations', data: { citations: answer.citations } },
  { id: 5, type: 'done', data: answer },
];
const location = `/api/chat/messages/${answer.id}/events`;
const sse = (event: ChatEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** A body that sends these chunks one read at a time, then ends (or breaks, when `error` is given). */
function body(chunks: string[], error?: Error): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const rest = [...chunks];
  return new ReadableStream({
    pull(controller) {
      const chunk = rest.shift();
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (error) controller.error(error);
      else controller.close();
    },
  });
}

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function headersOf(init: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init).forEach((value, name) => (headers[name] = value));
  return headers;
}

function fakeFetch(respond: (call: Call) => Response): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: headersOf(init?.headers),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return respond(call);
  };
  return { fetch: fetcher, calls };
}

const stream = (chunks: string[], error?: Error, headers: Record<string, string> = {}) =>
  new Response(body(chunks, error), {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', ...headers },
  });

describe('askStreaming', () => {
  const request = { message: 'Why?', date: '2026-11-21', history: [{ role: 'user' as const, content: 'What is failing?' }] };

  it('posts the question for a stream and hands over every event in order', async () => {
    const { fetch, calls } = fakeFetch(() => stream(events.map(sse), undefined, { 'Content-Location': location }));
    const received: ChatEvent[] = [];
    expect(await askStreaming({ request, fetch, onEvent: (event) => received.push(event) })).toEqual(answer);
    expect(received).toEqual(events);
    expect(calls).toEqual([
      {
        url: '/api/chat',
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
        body: request,
      },
    ]);
  });

  it('resumes after the last whole event when the POST body breaks mid-event', async () => {
    const cut = sse(events[2]!).slice(0, 12);
    const { fetch, calls } = fakeFetch((call) =>
      call.method === 'POST'
        ? stream([sse(events[0]!), sse(events[1]!), cut], new TypeError('network error'), { 'Content-Location': location })
        : stream(events.slice(2).map(sse)),
    );
    const received: ChatEvent[] = [];
    expect(await askStreaming({ request, fetch, onEvent: (event) => received.push(event) })).toEqual(answer);
    expect(received).toEqual(events);
    expect(calls.map(({ url, method, headers }) => ({ url, method, lastEventId: headers['last-event-id'] }))).toEqual([
      { url: '/api/chat', method: 'POST', lastEventId: undefined },
      { url: location, method: 'GET', lastEventId: '2' },
    ]);
  });

  it('takes a JSON answer as the whole answer at once', async () => {
    const { fetch } = fakeFetch(() => Response.json(answer));
    const received: ChatEvent[] = [];
    expect(await askStreaming({ request, fetch, onEvent: (event) => received.push(event) })).toEqual(answer);
    expect(received).toEqual([{ id: 1, type: 'done', data: answer }]);
  });

  it('raises a problem as an ApiError carrying the server detail', async () => {
    const problem = {
      type: '/docs/reference-errors#report_not_found',
      title: 'Report not found',
      status: 404,
      detail: 'There is no report for 2026-11-21. GET /api/report lists the days that have one.',
      code: 'report_not_found',
    };
    const { fetch } = fakeFetch(
      () => new Response(JSON.stringify(problem), { status: 404, headers: { 'Content-Type': 'application/problem+json' } }),
    );
    const error = await askStreaming({ request, fetch, onEvent: () => undefined }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).problem).toEqual(problem);
  });

  it('fails plainly when a broken stream names nowhere to resume', async () => {
    const { fetch } = fakeFetch(() => stream([sse(events[0]!)], new TypeError('network error')));
    await expect(askStreaming({ request, fetch, onEvent: () => undefined })).rejects.toThrow(
      'The answer stopped before it was complete, and the server said nowhere to resume it.',
    );
  });

  it('says the server is unreachable when the request cannot be sent', async () => {
    const fetch: typeof globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(askStreaming({ request, fetch, onEvent: () => undefined })).rejects.toThrow(
      'The server could not be reached. Check your connection and try again.',
    );
  });
});
