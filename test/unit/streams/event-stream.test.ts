/**
 * The shared SSE writer over a real loopback server, on a clock the test moves: replay after
 * the resume point, live events, heartbeats on idle connections, the per-connection time limit
 * with its retry hint, early ends through buffering proxies, and the end of a finished feed.
 * Each test asserts what was written, in order, at which moment of the test's clock.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closingComments,
  EventStream,
  formatEvent,
  resumePoint,
  wantsJson,
  type StreamClock,
  type StreamLimits,
} from '../../../functions/src/http/event-stream.ts';
import type { EventFeed } from '../../../functions/src/common/event-feed.ts';

interface Event {
  id: number;
  type: string;
  n: number;
}

/** A clock that stands still until the feed moves it. */
class TestClock implements StreamClock {
  #now = 0;

  now(): number {
    return this.#now;
  }

  moveTo(time: number): void {
    if (time < this.#now) throw new Error(`the clock cannot go back from ${this.#now} to ${time}`);
    this.#now = time;
  }
}

/** When an event of the script becomes available, and whether it is the feed's last. */
interface Scheduled {
  at: number;
  type?: string;
  end?: boolean;
}

/**
 * A feed that plays a script on the test's clock. Asked to wait, it moves the clock to the
 * next scheduled event if that comes within the wait, else to the end of the wait: the time a
 * real feed would have spent waiting passes at once, and always by the same amount.
 */
class ScriptedFeed implements EventFeed<Event> {
  /** Each time the stream asked for events: when, after which event, and how long it would wait. */
  readonly calls: { at: number; afterId: number; waitMs: number }[] = [];
  readonly #clock: TestClock;
  readonly #script: (Event & { at: number; end: boolean })[];

  constructor(clock: TestClock, script: Scheduled[]) {
    this.#clock = clock;
    this.#script = script.map(({ at, type = 'tick', end = false }, index) => ({ id: index + 1, type, n: index + 1, at, end }));
  }

  /** The scripted events, as the stream should send them. */
  events(from: number, to?: number): Event[] {
    return this.#script.slice(from, to).map(({ id, type, n }) => ({ id, type, n }));
  }

  async next(afterId: number, waitMs: number) {
    this.calls.push({ at: this.#clock.now(), afterId, waitMs });
    // A stream that asks without ever letting time pass would otherwise spin here for good.
    if (this.calls.length > 100)
      throw new Error(`the stream asked for events ${this.calls.length} times by ${this.#clock.now()} ms`);
    const upcoming = this.#script.find((event) => event.id > afterId);
    if (upcoming === undefined || upcoming.at > this.#clock.now())
      this.#clock.moveTo(Math.min(upcoming?.at ?? Infinity, this.#clock.now() + waitMs));
    const due = this.#script.filter((event) => event.id > afterId && event.at <= this.#clock.now());
    const last = this.#script.at(-1);
    const ended = last !== undefined && last.end && last.at <= this.#clock.now();
    return { events: due.map(({ id, type, n }) => ({ id, type, n })), ended };
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

const retry = 'retry: 1000\n\n';
const heartbeat = ': heartbeat\n\n';
const sse = (events: Event[]) => events.map(formatEvent).join('');

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/**
 * Serves one connection of `stream` and reads it to the end. `writes` is every piece the
 * stream wrote, with the time on the test's clock when it did.
 */
async function streamOf(
  stream: EventStream<Event>,
  clock: TestClock,
): Promise<{ text: string; writes: { at: number; text: string }[] }> {
  const writes: { at: number; text: string }[] = [];
  server = http.createServer((req, res) => {
    const write = res.write.bind(res) as (chunk: string) => boolean;
    res.write = ((chunk: string) => {
      writes.push({ at: clock.now(), text: chunk });
      return write(chunk);
    }) as typeof res.write;
    void stream.serve(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  return { text: await response.text(), writes };
}

describe('EventStream', () => {
  it('writes an event as its id, its type and the whole event as JSON data, then a blank line', () => {
    expect(formatEvent({ id: 7, type: 'tick', n: 1 } as Event)).toBe(
      'id: 7\nevent: tick\ndata: {"id":7,"type":"tick","n":1}\n\n',
    );
  });

  it('replays what follows the resume point at once, then ends without waiting once the feed has ended', async () => {
    const clock = new TestClock();
    const feed = new ScriptedFeed(clock, [{ at: 0 }, { at: 0 }, { at: 0 }, { at: 0 }, { at: 0, type: 'done', end: true }]);
    const { text, writes } = await streamOf(new EventStream('test', feed, 2, limits(), clock), clock);
    expect(writes).toEqual([
      { at: 0, text: retry },
      { at: 0, text: sse(feed.events(2)) },
    ]);
    expect(text).toBe(retry + sse(feed.events(2)));
    expect(feed.calls).toEqual([{ at: 0, afterId: 2, waitMs: 2000 }]);
    expect(clock.now()).toBe(0);
  });

  it('sends each event when it comes, and ends at the time limit with the retry hint first', async () => {
    const clock = new TestClock();
    const feed = new ScriptedFeed(clock, [{ at: 100 }, { at: 300 }, { at: 500 }, { at: 900 }]);
    const { text, writes } = await streamOf(new EventStream('test', feed, 0, limits({ maxConnectionMs: 800 }), clock), clock);
    expect(writes).toEqual([
      { at: 0, text: retry },
      { at: 100, text: sse(feed.events(0, 1)) },
      { at: 300, text: sse(feed.events(1, 2)) },
      { at: 500, text: sse(feed.events(2, 3)) },
      { at: 800, text: closingComments.timeLimit },
    ]);
    expect(text).toBe(retry + sse(feed.events(0, 3)) + closingComments.timeLimit);
    // Each wait reaches at most to the time limit; the event after it is left for the next connection.
    expect(feed.calls).toEqual([
      { at: 0, afterId: 0, waitMs: 800 },
      { at: 100, afterId: 1, waitMs: 700 },
      { at: 300, afterId: 2, waitMs: 500 },
      { at: 500, afterId: 3, waitMs: 300 },
    ]);
    expect(clock.now()).toBe(800);
  });

  it('writes a heartbeat comment each time the connection has been idle for the heartbeat interval', async () => {
    const clock = new TestClock();
    const feed = new ScriptedFeed(clock, []);
    const { text, writes } = await streamOf(
      new EventStream('test', feed, 0, limits({ maxConnectionMs: 700, heartbeatMs: 200 }), clock),
      clock,
    );
    expect(writes).toEqual([
      { at: 0, text: retry },
      { at: 200, text: heartbeat },
      { at: 400, text: heartbeat },
      { at: 600, text: heartbeat },
      { at: 700, text: closingComments.timeLimit },
    ]);
    expect(text).toBe(retry + heartbeat.repeat(3) + closingComments.timeLimit);
    expect(feed.calls.map((call) => call.waitMs)).toEqual([200, 200, 200, 100]);
    expect(clock.now()).toBe(700);
  });

  it('counts the heartbeat interval from the last event written, not from the start', async () => {
    const clock = new TestClock();
    const feed = new ScriptedFeed(clock, [{ at: 150 }]);
    const { writes } = await streamOf(
      new EventStream('test', feed, 0, limits({ maxConnectionMs: 500, heartbeatMs: 200 }), clock),
      clock,
    );
    expect(writes).toEqual([
      { at: 0, text: retry },
      { at: 150, text: sse(feed.events(0, 1)) },
      { at: 350, text: heartbeat },
      { at: 500, text: closingComments.timeLimit },
    ]);
    expect(clock.now()).toBe(500);
  });

  it('through a buffering proxy, keeps collecting for the linger time after the first events, then ends', async () => {
    const clock = new TestClock();
    const feed = new ScriptedFeed(clock, [{ at: 150 }, { at: 150 }, { at: 200 }, { at: 400 }]);
    const { text, writes } = await streamOf(
      new EventStream('test', feed, 0, limits({ maxConnectionMs: 5000, buffered: true, lingerMs: 100 }), clock),
      clock,
    );
    expect(writes).toEqual([
      { at: 0, text: retry },
      { at: 150, text: sse(feed.events(0, 2)) },
      { at: 200, text: sse(feed.events(2, 3)) },
      { at: 250, text: closingComments.delivered },
    ]);
    expect(text).toBe(retry + sse(feed.events(0, 3)) + closingComments.delivered);
    expect(feed.calls).toEqual([
      { at: 0, afterId: 0, waitMs: 5000 },
      { at: 150, afterId: 2, waitMs: 100 },
      { at: 200, afterId: 3, waitMs: 50 },
    ]);
    expect(clock.now()).toBe(250);
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
