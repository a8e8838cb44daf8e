/**
 * The shared SSE writer over a real loopback server: replay after the resume point, live
 * events, heartbeats on idle connections, the per-connection time limit with its retry hint,
 * early ends through buffering proxies, and the end of a finished feed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EventStream,
  formatEvent,
  resumePoint,
  wantsJson,
  type EventFeed,
  type StreamLimits,
} from '../../../functions/src/http/event-stream.ts';

interface Event {
  id: number;
  type: string;
  n: number;
}

/** A feed whose events a test appends; `next` waits for them like the store-backed log does. */
class MemoryFeed implements EventFeed<Event> {
  readonly events: Event[] = [];
  ended = false;
  #waiters: (() => void)[] = [];

  push(type = 'tick', end = false): void {
    this.events.push({ id: this.events.length + 1, type, n: this.events.length + 1 });
    this.ended = end;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  async next(afterId: number, waitMs: number, signal: AbortSignal) {
    if (this.events.length <= afterId && !this.ended) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return { events: this.events.slice(afterId), ended: this.ended };
  }
}

const limits = (overrides: Partial<StreamLimits> = {}): StreamLimits => ({
  maxConnectionMs: 2000,
  heartbeatMs: 10_000,
  retryMs: 1000,
  buffered: false,
  lingerMs: 100,
  ...overrides,
});

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function streamOf(
  stream: EventStream<Event>,
): Promise<{ text: string; ms: number; chunks: { at: number; text: string }[] }> {
  server = http.createServer((req, res) => void stream.serve(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const chunks: { at: number; text: string }[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push({ at: performance.now() - started, text: decoder.decode(value, { stream: true }) });
  }
  return { text: chunks.map((chunk) => chunk.text).join(''), ms: performance.now() - started, chunks };
}

describe('EventStream', () => {
  it('replays what follows the resume point, then ends once the feed has ended', async () => {
    const feed = new MemoryFeed();
    for (let n = 0; n < 4; n++) feed.push();
    feed.push('done', true);
    const { text, ms } = await streamOf(new EventStream('test', feed, 2, limits()));
    expect(text).toBe(`retry: 1000\n\n${feed.events.slice(2).map(formatEvent).join('')}`);
    expect(ms).toBeLessThan(1000);
  });

  it('sends events live as they come and ends after the time limit with the retry hint first', async () => {
    const feed = new MemoryFeed();
    const timers = [100, 300, 500].map((delay) => setTimeout(() => feed.push(), delay));
    const { text, ms, chunks } = await streamOf(new EventStream('test', feed, 0, limits({ maxConnectionMs: 800 })));
    timers.forEach(clearTimeout);
    expect(text).toBe(`retry: 1000\n\n${feed.events.map(formatEvent).join('')}`);
    expect(ms).toBeGreaterThanOrEqual(790);
    expect(ms).toBeLessThan(1500);
    // Each event arrived in its own chunk, when it was pushed: not all at the end.
    const eventChunks = chunks.filter((chunk) => chunk.text.startsWith('id: '));
    expect(eventChunks).toHaveLength(3);
    expect(eventChunks[0]!.at).toBeLessThan(400);
  });

  it('writes a heartbeat comment on an idle connection', async () => {
    const feed = new MemoryFeed();
    const { text } = await streamOf(new EventStream('test', feed, 0, limits({ maxConnectionMs: 700, heartbeatMs: 200 })));
    expect(text.startsWith('retry: 1000\n\n: heartbeat\n\n')).toBe(true);
    expect(text.split(': heartbeat\n\n').length - 1).toBeGreaterThanOrEqual(2);
    expect(text.replaceAll(': heartbeat\n\n', '')).toBe('retry: 1000\n\n');
  });

  it('through a buffering proxy, ends soon after delivering events instead of at the time limit', async () => {
    const feed = new MemoryFeed();
    const timer = setTimeout(() => {
      feed.push();
      feed.push();
    }, 150);
    const { text, ms } = await streamOf(
      new EventStream('test', feed, 0, limits({ maxConnectionMs: 5000, buffered: true, lingerMs: 100 })),
    );
    clearTimeout(timer);
    expect(text).toBe(`retry: 1000\n\n${feed.events.map(formatEvent).join('')}`);
    expect(ms).toBeLessThan(1000);
  });
});

describe('resume point and negotiation', () => {
  it('takes the Last-Event-ID header over the query parameter, and starts at 0 without either', () => {
    expect(resumePoint('7', '3', 10, 'run')).toBe(7);
    expect(resumePoint(undefined, '3', 10, 'run')).toBe(3);
    expect(resumePoint(undefined, undefined, 10, 'run')).toBe(0);
    expect(resumePoint('10', undefined, 10, 'run')).toBe(10);
  });

  it('refuses a resume point past the last persisted event, naming where it came from', () => {
    expect(() => resumePoint('11', '1', 10, 'run')).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        errors: [{ in: 'header', name: 'Last-Event-ID', message: "is 11, but the run's last event is 10" }],
      }),
    );
    expect(() => resumePoint(undefined, '4', 3, 'answer')).toThrow(
      expect.objectContaining({
        errors: [{ in: 'query', name: 'lastEventId', message: "is 4, but the answer's last event is 3" }],
      }),
    );
  });

  it('answers JSON only when JSON is asked for without event streams', () => {
    expect(wantsJson('application/json')).toBe(true);
    expect(wantsJson('application/json, text/event-stream')).toBe(false);
    expect(wantsJson('text/event-stream')).toBe(false);
    expect(wantsJson('*/*')).toBe(false);
    expect(wantsJson(undefined)).toBe(false);
  });
});
