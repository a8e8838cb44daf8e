/**
 * Server-sent events for every streaming endpoint: writing, replay after `Last-Event-ID`,
 * heartbeats and the per-connection time limit.
 *
 * Streams are resumable rather than long: events are persisted (by the feed) before they are
 * sent, each carries its number as `id`, and a connection ends by itself after a bounded time
 * with a `retry:` hint, so Hosting's 60 s cut or any proxy that drops the connection costs a
 * reconnect, never an event. Through a proxy that buffers whole responses (Hosting in
 * production) a connection ends soon after it has something to deliver, so buffered clients
 * still see progress every round trip instead of once per time limit.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventFeed, StreamEvent } from '../common/event-feed.js';
import * as config from '../config.js';
import { logs } from '../logs.js';
import { invalidRequest } from './problem.js';

export interface StreamLimits {
  /** A connection ends by itself after this long. */
  maxConnectionMs: number;
  /** An idle connection gets a comment line this often, so proxies do not drop it. */
  heartbeatMs: number;
  /** The reconnection delay suggested to clients (`retry:`). */
  retryMs: number;
  /** The response passes through a proxy that buffers it whole: end soon after sending events. */
  buffered: boolean;
  /** With `buffered`: how long to keep collecting events after the first before ending. */
  lingerMs: number;
}

/**
 * Where a stream reads the time, in milliseconds that only move forward. The stream never
 * waits by itself (the feed does, up to the time it is given), so reading is all it needs;
 * tests pass a clock their feed moves, and so decide exactly when each limit is reached.
 */
export interface StreamClock {
  now(): number;
}

/**
 * The comment a connection ends with when the stream goes on: the time limit was reached, or
 * (through a buffering proxy) the events so far were delivered. Clients ignore comments and
 * reconnect as they would after any drop; a person or a test reading the stream sees why it ended.
 */
export const closingComments = {
  timeLimit: ': connection time limit reached; reconnect with Last-Event-ID\n\n',
  delivered: ': events delivered through a buffering proxy; reconnect with Last-Event-ID\n\n',
} as const;

/** The process's monotonic clock, which a change of the wall clock cannot move. */
export const monotonicClock: StreamClock = { now: () => performance.now() };

/** The limits every stream gets: `STREAM_MAX_SECONDS` per connection, a heartbeat every 10 s, a 1 s retry hint. */
export function settingsLimits(buffered: boolean): StreamLimits {
  return { maxConnectionMs: config.streamMaxSeconds() * 1000, heartbeatMs: 10_000, retryMs: 1000, buffered, lingerMs: 400 };
}

/**
 * Firebase Hosting (in production) hands a function's response to the client only once it is
 * complete. Requests it forwards carry `X-Forwarded-Host` (and `X-FH-Requested-Host`); a direct
 * call to the function URL does not, and gets true streaming.
 */
export function throughBufferingProxy(context: { header(name: string): string | undefined }): boolean {
  return context.header('x-forwarded-host') !== undefined || context.header('x-fh-requested-host') !== undefined;
}

/** The body of a streaming response; the HTTP core hands it the request and response. */
export class EventStream<E extends StreamEvent> {
  readonly #feed: EventFeed<E>;
  readonly #afterId: number;
  readonly #limits: StreamLimits;
  readonly #name: string;
  readonly #clock: StreamClock;

  constructor(name: string, feed: EventFeed<E>, afterId: number, limits: StreamLimits, clock = monotonicClock) {
    this.#name = name;
    this.#feed = feed;
    this.#afterId = afterId;
    this.#limits = limits;
    this.#clock = clock;
  }

  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    // Intermediaries must neither cache nor transform (compress, and so buffer) the stream.
    res.setHeader('Cache-Control', 'no-store, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const closed = new AbortController();
    const onClose = () => closed.abort();
    res.on('close', onClose);
    const limits = this.#limits;
    const clock = this.#clock;
    const started = clock.now();
    let last = this.#afterId;
    let lastWrite = started;
    let firstSentAt: number | undefined;
    try {
      res.write(`retry: ${limits.retryMs}\n\n`);
      for (;;) {
        const now = clock.now();
        const limit = started + limits.maxConnectionMs;
        const lingered = firstSentAt === undefined ? Infinity : firstSentAt + limits.lingerMs;
        if (now >= Math.min(limit, lingered)) {
          // Says why a stream that has not ended stops here, for people and tests reading it.
          res.write(lingered < limit ? closingComments.delivered : closingComments.timeLimit);
          break;
        }
        const until = Math.min(limit, lingered);
        const wait = Math.max(0, Math.min(until - now, lastWrite + limits.heartbeatMs - now));
        const { events, ended } = await this.#feed.next(last, wait, closed.signal);
        if (closed.signal.aborted) return;
        if (events.length > 0) {
          res.write(events.map(formatEvent).join(''));
          last = events[events.length - 1]!.id;
          lastWrite = clock.now();
          if (limits.buffered) firstSentAt ??= lastWrite;
        }
        if (ended) break;
        if (clock.now() - lastWrite >= limits.heartbeatMs) {
          res.write(': heartbeat\n\n');
          lastWrite = clock.now();
        }
      }
      res.end();
    } catch (error) {
      // The status line is sent: all that is left is to log and end; the client resumes.
      logs.streamFailed(this.#name, last, error);
      res.destroy();
    } finally {
      res.off('close', onClose);
    }
  }
}

/** One event as SSE: its number, its type, and the whole event as one line of JSON. */
export function formatEvent(event: StreamEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The event to resume after: the `Last-Event-ID` header (what a reconnecting client sends),
 * else the `lastEventId` query parameter (for a first connection that cannot set headers),
 * else the start. Both are checked as event numbers by the API description; one past the last
 * event persisted is a client error, since events are persisted before anyone sees them.
 */
export function resumePoint(header: string | undefined, query: string | undefined, lastId: number, what: string): number {
  const from = header !== undefined ? 'header' : 'query';
  const afterId = Number(header ?? query ?? 0);
  if (afterId > lastId) {
    throw invalidRequest([
      {
        in: from,
        name: from === 'header' ? 'Last-Event-ID' : 'lastEventId',
        message: `is ${afterId}, but the ${what}'s last event is ${lastId}`,
      },
    ]);
  }
  return afterId;
}

/** The media types an `Accept` header lists, without parameters. */
const acceptedTypes = (accept: string | undefined) =>
  (accept ?? '').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());

/** Whether the client asked for the events as one JSON document rather than a stream. */
export function wantsJson(accept: string | undefined): boolean {
  const types = acceptedTypes(accept);
  return types.includes('application/json') && !types.includes('text/event-stream');
}

/** Whether the client asked for a stream (an operation that answers JSON by default streams only then). */
export function acceptsEventStream(accept: string | undefined): boolean {
  return acceptedTypes(accept).includes('text/event-stream');
}
