/**
 * Asks one chat question as a stream: POST /api/chat with `Accept: text/event-stream`, reads the
 * answer's events from the response body, and when that connection breaks before `done`,
 * resumes at `Content-Location` after the last event received (the events are persisted before
 * the first is sent, so the rest is the same answer, never a new one).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { errorOf, unreachable } from './api.ts';
import type { ChatAnswer, ChatEvent, ChatRequest } from './api-types.ts';
import { followEventStream } from './event-stream.ts';

export interface AskOptions {
  request: ChatRequest;
  /** The app's authorised fetch (`callApi`). */
  fetch: typeof fetch;
  onEvent: (event: ChatEvent) => void;
  signal?: AbortSignal;
}

/** Resolves with the whole answer once its `done` event arrived; rejects with an `ApiError` for a problem. */
export async function askStreaming({ request, fetch: fetcher, onEvent, signal }: AskOptions): Promise<ChatAnswer> {
  let response: Response;
  try {
    response = await fetcher('/api/chat', {
      method: 'POST',
      headers: { Accept: 'text/event-stream', 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    signal?.throwIfAborted();
    throw new Error(unreachable, { cause: error });
  }
  if (!response.ok) throw await errorOf(response);

  // A server (or proxy) may answer the same question as JSON; that is the whole answer at once.
  if (!/^text\/event-stream\s*(;|$)/i.test(response.headers.get('Content-Type') ?? '')) {
    const answer = (await response.json()) as ChatAnswer;
    onEvent({ id: 1, type: 'done', data: answer });
    return answer;
  }

  let answer: ChatAnswer | undefined;
  let lastId = 0;
  const deliver = (event: ChatEvent) => {
    // Ids are 1, 2, 3… without gaps; anything at or before the last one was already delivered.
    if (event.id <= lastId) return;
    lastId = event.id;
    if (event.type === 'done') answer = event.data;
    onEvent(event);
  };

  const broken = await readBody(response, deliver, () => answer !== undefined, signal);
  if (answer) return answer;

  const location = response.headers.get('Content-Location');
  if (!location?.startsWith('/api/chat/messages/')) {
    throw new Error('The answer stopped before it was complete, and the server said nowhere to resume it.', {
      cause: broken,
    });
  }
  await followEventStream<ChatEvent>(location, {
    fetch: fetcher,
    signal,
    lastEventId: lastId > 0 ? String(lastId) : undefined,
    onEvent: (event) => deliver(event.data),
    isTerminal: (event) => event.data.type === 'done',
  });
  if (answer) return answer;
  throw new Error('The answer stream ended without its last event. Ask again.');
}

/** Delivers every whole event in the body; resolves (with the read error, if any) when it ends or breaks. */
async function readBody(
  response: Response,
  deliver: (event: ChatEvent) => void,
  finished: () => boolean,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  if (!response.body) return undefined;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  try {
    for (;;) {
      const chunk = await reader.read().catch((error: unknown) => ({ error }));
      if ('error' in chunk) {
        signal?.throwIfAborted();
        return chunk.error;
      }
      if (chunk.done) return undefined;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      for (const message of messages.splice(0)) {
        // An event that does not parse is treated like a break: the resumed stream sends it again.
        let event: ChatEvent;
        try {
          event = JSON.parse(message.data) as ChatEvent;
        } catch (error) {
          return error;
        }
        deliver(event);
        signal?.throwIfAborted();
        if (finished()) return undefined;
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
