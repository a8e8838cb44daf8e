/**
 * Asks one chat question as a stream: POST /api/chat with `Accept: text/event-stream`, reads the
 * answer's events from the response body, and when that connection breaks before `done`,
 * resumes at `Content-Location` after the last event received (the events are persisted before
 * the first is sent, so the rest is the same answer, never a new one).
 */
import { errorOf, UnreachableError } from './api.ts';
import { apiPath } from './api-client.ts';
import type { ChatAnswer, ChatEvent, ChatRequest } from './api-types.ts';
import { followEventStream } from './event-stream.ts';

export interface AskOptions {
  request: ChatRequest;
  /** The app's authorised fetch. */
  fetch: typeof fetch;
  onEvent: (event: ChatEvent) => void;
  signal?: AbortSignal;
}

/** Resolves with the whole answer once its `done` event arrived; rejects with an `ApiError` for a problem. */
export async function askStreaming({ request, fetch: fetcher, onEvent, signal }: AskOptions): Promise<ChatAnswer> {
  const path = apiPath('/api/chat');
  let response: Response;
  try {
    response = await fetcher(path, {
      method: 'POST',
      headers: { Accept: 'text/event-stream', 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    signal?.throwIfAborted();
    throw new UnreachableError({ cause: error });
  }
  if (!response.ok) throw await errorOf(response);

  // A server (or proxy) may answer the same question as JSON; that is the whole answer at once.
  if (!/^text\/event-stream\s*(;|$)/i.test(response.headers.get('Content-Type') ?? '')) {
    const answer = (await response.json()) as ChatAnswer;
    onEvent({ id: 1, type: 'done', data: answer });
    return answer;
  }

  let answer: ChatAnswer | undefined;
  const location = response.headers.get('Content-Location');
  const resumable = location?.startsWith('/api/chat/messages/') ?? false;
  // The POST's own body is the first connection; a break resumes at Content-Location.
  await followEventStream<ChatEvent>(resumable ? location! : path, {
    opened: response,
    fetch: fetcher,
    signal,
    onEvent: ({ data: event }) => {
      if (event.type === 'done') answer = event.data;
      onEvent(event);
    },
    isTerminal: (event) => event.data.type === 'done',
    // Called as the client is about to reconnect: without Content-Location there is nowhere to.
    onConnectionChange: (state) => {
      if (state === 'reconnecting' && !resumable) {
        throw new Error('The answer stopped before it was complete, and the server said nowhere to resume it.');
      }
    },
  });
  if (answer) return answer;
  throw new Error('The answer stream ended without its last event. Ask again.');
}
