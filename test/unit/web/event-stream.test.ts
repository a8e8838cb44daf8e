/**
 * The web app's event-stream client against a fake SSE origin, directly and through proxies
 * that buffer or cut connections: it must rebuild exactly the run's events (in order, no gap,
 * no duplicate), resume after Last-Event-ID, and retry or report each failure as the protocol
 * says.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../hosting/src/lib/api.ts';
import {
  followEventStream,
  type ConnectionState,
  type FollowOptions,
  type StreamEvent,
} from '../../../hosting/src/lib/event-stream.ts';
import { startUnreliableProxy, type ProxyMode } from '../../support/unreliable-proxy.ts';

type Data = { index: number; note?: string } | { controls: number };
type Responder = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const RUN = '/api/runs/r1/events';
const CONTROLS = 60;
/** The terminal `run.completed` event follows the controls. */
const LAST = CONTROLS + 1;
/** The origin ends each connection by itself after this many events. */
const PER_CONNECTION = 7;
/** Connections the whole run takes from the start, plus the 204 that says it is over. */
const ROUND_TRIPS = Math.ceil(LAST / PER_CONNECTION) + 1;

function eventOf(id: number): StreamEvent<Data> {
  return id === LAST
    ? { id: String(id), type: 'run.completed', data: { controls: CONTROLS } }
    : { id: String(id), type: 'control.evaluated', data: { index: id } };
}

function eventsFrom(first: number): StreamEvent<Data>[] {
  return Array.from({ length: LAST - first + 1 }, (_, offset) => eventOf(first + offset));
}

function sse(event: StreamEvent<unknown>): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

function problemBody(status: number, code: string, title: string, detail: string, instance = RUN) {
  return { type: `/docs/reference-errors#${code}`, title, status, detail, instance, code, requestId: `req-${status}` };
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/problem+json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** A 200 stream that sends these events whole, then drops the connection. */
function dropAfter(...ids: number[]): Responder {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(`retry: 5\n\n${ids.map((id) => sse(eventOf(id))).join('')}`, () => res.destroy());
  };
}

/** A 200 stream with exactly this body, ended cleanly. */
function streamOf(body: string): Responder {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end(body);
  };
}

interface FakeOrigin {
  origin: string;
  /** The run's stream. */
  url: string;
  requests: {
    path: string | undefined;
    accept: string | undefined;
    lastEventId: string | undefined;
    authorization: string | undefined;
  }[];
  /** Answers for the next requests, used in order before the origin's own behaviour. */
  next: Responder[];
  /** When set, the stream needs `Authorization: Bearer <token>`. */
  token: string | undefined;
  close(): Promise<void>;
}

/**
 * Serves one run of LAST events as the API does: replays after Last-Event-ID, ends each
 * connection after PER_CONNECTION events with heartbeats between them, and answers 204 once
 * the client has everything.
 */
async function startOrigin(): Promise<FakeOrigin> {
  const fake: Omit<FakeOrigin, 'origin' | 'url' | 'close'> = { requests: [], next: [], token: undefined };
  const server = http.createServer((req, res) => {
    const lastEventId = req.headers['last-event-id'] as string | undefined;
    fake.requests.push({ path: req.url, accept: req.headers.accept, lastEventId, authorization: req.headers.authorization });
    const scripted = fake.next.shift();
    if (scripted) return scripted(req, res);
    if (req.url !== RUN) {
      const detail = `No operation exists at ${req.url}.`;
      return answer(404, problemBody(404, 'not_found', 'Not found', detail, req.url))(req, res);
    }
    if (fake.token !== undefined && req.headers.authorization !== `Bearer ${fake.token}`) {
      const body = problemBody(401, 'token_expired', 'Token expired', 'The ID token has expired; refresh it and retry.');
      return answer(401, body, { 'WWW-Authenticate': 'Bearer realm="evident"' })(req, res);
    }
    const after = Number(lastEventId ?? 0);
    if (after >= LAST) return res.writeHead(204).end();
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' });
    res.write('retry: 5\n\n');
    for (let id = after + 1; id <= Math.min(LAST, after + PER_CONNECTION); id += 1) {
      if (id % 2 === 0) res.write(': heartbeat\n\n');
      res.write(sse(eventOf(id)));
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    origin,
    url: origin + RUN,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

let origin: FakeOrigin;
beforeEach(async () => {
  origin = await startOrigin();
});
afterEach(() => origin.close());

function follow(url: string, options: Partial<FollowOptions<Data>> = {}) {
  const events: StreamEvent<Data>[] = [];
  const sleeps: number[] = [];
  const done = followEventStream<Data>(url, {
    onEvent: (event) => events.push(event),
    // Records each delay asked for but waits only a moment, so the tests stay fast.
    sleep: (ms) => {
      sleeps.push(ms);
      return new Promise((resolve) => setTimeout(resolve, 1));
    },
    ...options,
  });
  return { done, events, sleeps };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the follow resolved'),
    (error: unknown) => error,
  );
}

describe('following a run', () => {
  it('delivers every event once and in order across the connections the server ends', async () => {
    const { done, events, sleeps } = follow(origin.url);
    expect(await done).toEqual({ lastEventId: String(LAST) });
    expect(events).toEqual(eventsFrom(1));
    expect(origin.requests.map((request) => request.lastEventId)).toEqual([
      undefined,
      ...['7', '14', '21', '28', '35', '42', '49', '56'],
      '61',
    ]);
    expect(origin.requests[0]?.accept).toBe('text/event-stream');
    // Every reconnection waits the server's `retry:` hint.
    expect(sleeps).toEqual(Array(ROUND_TRIPS - 1).fill(5));
  });

  it('resumes after the given lastEventId and delivers only later events', async () => {
    const { done, events } = follow(origin.url, { lastEventId: '55' });
    expect(await done).toEqual({ lastEventId: '61' });
    expect(events).toEqual(eventsFrom(56));
    expect(origin.requests.map((request) => request.lastEventId)).toEqual(['55', '61']);
  });

  it('resolves with no events when the first request answers 204', async () => {
    const { done, events } = follow(origin.url, { lastEventId: '61' });
    expect(await done).toEqual({ lastEventId: '61' });
    expect(events).toEqual([]);
    expect(origin.requests).toHaveLength(1);
  });

  it('stops right after a terminal event without another request', async () => {
    const { done, events } = follow(origin.url, { isTerminal: (event) => event.type === 'run.completed' });
    expect(await done).toEqual({ lastEventId: '61' });
    expect(events).toEqual(eventsFrom(1));
    expect(origin.requests).toHaveLength(ROUND_TRIPS - 1);
  });

  it('sends the extra headers on every connection', async () => {
    const { done } = follow(origin.url, { lastEventId: '50', headers: () => ({ Authorization: 'Bearer t1' }) });
    await done;
    expect(origin.requests.map((request) => request.authorization)).toEqual(['Bearer t1', 'Bearer t1', 'Bearer t1']);
  });

  it('reports connecting, open and reconnecting with the failures so far and the delay', async () => {
    origin.next.push(answer(503, problemBody(503, 'queue_unavailable', 'Unavailable', 'Try later.'), { 'Retry-After': '1' }));
    const states: [ConnectionState, { failures: number; delayMs: number }?][] = [];
    const { done } = follow(origin.url, {
      lastEventId: '56',
      onConnectionChange: (state, info) => states.push(info ? [state, info] : [state]),
    });
    await done;
    expect(states).toEqual([
      ['connecting'],
      ['reconnecting', { failures: 1, delayMs: 1000 }],
      ['open'],
      ['reconnecting', { failures: 0, delayMs: 5 }],
    ]);
  });

  it('reads events split across chunks, even in the middle of a UTF-8 character', async () => {
    const bytes = Buffer.from(`retry: 5\n\n${sse({ id: '1', type: 'control.evaluated', data: { index: 1, note: 'Zürich ✓' } })}`);
    origin.next.push((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const cuts = [3, 15, 40, bytes.indexOf('ü') + 1, bytes.indexOf('✓') + 2, bytes.length - 1, bytes.length];
      let from = 0;
      const writeNext = () => {
        const to = cuts.shift();
        if (to === undefined) return res.end();
        res.write(bytes.subarray(from, to));
        from = to;
        // A pause between writes so they reach the client as separate reads; what is asserted,
        // the events parsed, must come out the same however the bytes are grouped.
        setTimeout(writeNext, 2);
      };
      writeNext();
    });
    const { done, events } = follow(origin.url);
    await done;
    expect(events[0]).toEqual({ id: '1', type: 'control.evaluated', data: { index: 1, note: 'Zürich ✓' } });
    expect(events.slice(1)).toEqual(eventsFrom(2));
  });

  it('discards an event the connection ended in the middle of, and resumes before it', async () => {
    const partial = 'id: 2\nevent: control.evaluated\ndata: {"index":"half"}\n';
    origin.next.push(streamOf(`retry: 5\n\n${sse(eventOf(1))}${partial}`));
    const { done, events } = follow(origin.url);
    await done;
    expect(events).toEqual(eventsFrom(1));
    expect(origin.requests[1]?.lastEventId).toBe('1');
  });

  it('never dispatches an event id twice, even when a server repeats one', async () => {
    origin.next.push(streamOf([1, 2, 2, 1, 3].map((id) => sse(eventOf(id))).join('')));
    const { done, events } = follow(origin.url);
    await done;
    expect(events).toEqual(eventsFrom(1));
    expect(origin.requests[1]?.lastEventId).toBe('3');
  });
});

describe('through unreliable proxies', () => {
  async function followThrough(mode: ProxyMode, seed: number) {
    const proxy = await startUnreliableProxy({ target: origin.origin, mode, seed, minBytes: 0, maxBytes: 600 });
    try {
      const { done, events } = follow(proxy.origin + RUN);
      return { seed, result: await done, events, stats: { ...proxy.stats } };
    } finally {
      await proxy.close();
    }
  }

  function seeds(count: number) {
    return Array.from({ length: count }, (_, index) => index + 1);
  }

  it('rebuilds exactly events 1..61 through connections cut at random, for 50 seeds', async () => {
    const runs = await Promise.all(seeds(50).map((seed) => followThrough('cut', seed)));
    for (const run of runs) {
      expect(run.result, `seed ${run.seed}`).toEqual({ lastEventId: '61' });
      expect(run.events, `seed ${run.seed}`).toEqual(eventsFrom(1));
      expect(run.stats.cuts, `seed ${run.seed}`).toBeGreaterThan(0);
    }
  });

  it('rebuilds exactly events 1..61 through a proxy that buffers whole responses', async () => {
    const run = await followThrough('buffer', 1);
    expect(run.result).toEqual({ lastEventId: '61' });
    expect(run.events).toEqual(eventsFrom(1));
    expect(run.stats.connections).toBe(ROUND_TRIPS);
    expect(run.stats.cuts).toBe(0);
  });

  it('rebuilds exactly events 1..61 through a buffering proxy that cuts, for 20 seeds', async () => {
    const runs = await Promise.all(seeds(20).map((seed) => followThrough('cut-buffered', seed)));
    for (const run of runs) {
      expect(run.events, `seed ${run.seed}`).toEqual(eventsFrom(1));
      expect(run.stats.cuts, `seed ${run.seed}`).toBeGreaterThan(0);
    }
  });

  it('passes Authorization and Last-Event-ID through to the origin', async () => {
    const proxy = await startUnreliableProxy({ target: origin.origin, mode: 'pass' });
    try {
      const { done } = follow(proxy.origin + RUN, { lastEventId: '58', headers: () => ({ Authorization: 'Bearer t1' }) });
      await done;
    } finally {
      await proxy.close();
    }
    expect(origin.requests).toEqual([
      { path: RUN, accept: 'text/event-stream', lastEventId: '58', authorization: 'Bearer t1' },
      { path: RUN, accept: 'text/event-stream', lastEventId: '61', authorization: 'Bearer t1' },
    ]);
  });
});

describe('failures', () => {
  it('rejects a 404 problem with an ApiError carrying it, without retrying', async () => {
    const { done, sleeps } = follow(`${origin.origin}/api/runs/r2/events`);
    const error = await rejectionOf(done);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      message: 'Not found: No operation exists at /api/runs/r2/events.',
      problem: problemBody(404, 'not_found', 'Not found', 'No operation exists at /api/runs/r2/events.', '/api/runs/r2/events'),
    });
    expect(origin.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it.each([400, 403, 409, 413])('rejects %i at once', async (status) => {
    const body = problemBody(status, 'invalid_request', 'Refused', 'No.');
    origin.next.push(answer(status, body));
    const error = await rejectionOf(follow(origin.url).done);
    expect(error).toMatchObject({ name: 'ApiError', status, problem: body });
    expect(origin.requests).toHaveLength(1);
  });

  it('on 401 calls onUnauthorized once, retries at once with the new headers, and succeeds', async () => {
    origin.token = 'fresh';
    let token = 'old';
    let refreshes = 0;
    const { done, events, sleeps } = follow(origin.url, {
      headers: () => Promise.resolve({ Authorization: `Bearer ${token}` }),
      onUnauthorized: () => {
        refreshes += 1;
        token = 'fresh';
      },
    });
    await done;
    expect(events).toEqual(eventsFrom(1));
    expect(refreshes).toBe(1);
    expect(origin.requests.map((request) => request.authorization)).toEqual([
      'Bearer old',
      ...Array(ROUND_TRIPS).fill('Bearer fresh'),
    ]);
    expect(sleeps).toEqual(Array(ROUND_TRIPS - 1).fill(5));
  });

  it('refreshes again when the token expires later in the same follow', async () => {
    origin.token = 't1';
    let token = 't1';
    let refreshes = 0;
    const { done, events } = follow(origin.url, {
      headers: () => ({ Authorization: `Bearer ${token}` }),
      onUnauthorized: () => {
        refreshes += 1;
        token = origin.token!;
      },
      onEvent: (event) => {
        events.push(event);
        if (event.id === '7') origin.token = 't2';
        if (event.id === '14') origin.token = 't3';
      },
    });
    await done;
    expect(events).toEqual(eventsFrom(1));
    expect(refreshes).toBe(2);
  });

  it('rejects a second 401 in a row with the ApiError', async () => {
    origin.token = 'fresh';
    let refreshes = 0;
    const { done } = follow(origin.url, {
      headers: () => ({ Authorization: 'Bearer old' }),
      onUnauthorized: () => {
        refreshes += 1;
      },
    });
    const error = await rejectionOf(done);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      problem: problemBody(401, 'token_expired', 'Token expired', 'The ID token has expired; refresh it and retry.'),
    });
    expect(refreshes).toBe(1);
    expect(origin.requests).toHaveLength(2);
  });

  it('retries a 503 after the Retry-After it names', async () => {
    const unavailable = answer(503, problemBody(503, 'queue_unavailable', 'Unavailable', 'Try later.'), { 'Retry-After': '1' });
    origin.next.push(unavailable, unavailable);
    const { done, events, sleeps } = follow(origin.url);
    await done;
    expect(events).toEqual(eventsFrom(1));
    expect(sleeps).toEqual([1000, 1000, ...Array(ROUND_TRIPS - 1).fill(5)]);
  });

  it.each([408, 429, 500, 502])('retries %i with a backoff from 1 s', async (status) => {
    origin.next.push(answer(status, problemBody(status, 'internal', 'Failed', 'Again.')));
    const { done, events, sleeps } = follow(origin.url);
    await done;
    expect(events).toEqual(eventsFrom(1));
    expect(sleeps[0]).toBeGreaterThanOrEqual(500);
    expect(sleeps[0]).toBeLessThanOrEqual(1000);
  });

  it('gives up after maxFailures consecutive failures, doubling the delay each time', async () => {
    const body = problemBody(503, 'queue_unavailable', 'Unavailable', 'Try later.');
    origin.next.push(answer(503, body), answer(503, body), answer(503, body));
    const { done, sleeps } = follow(origin.url, { maxFailures: 3 });
    const error = await rejectionOf(done);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, problem: body });
    expect(origin.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(500);
    expect(sleeps[0]).toBeLessThanOrEqual(1000);
    expect(sleeps[1]).toBeGreaterThanOrEqual(1000);
    expect(sleeps[1]).toBeLessThanOrEqual(2000);
  });

  it('gives up on a server it cannot reach, keeping the network error as the cause', async () => {
    const closed = await startOrigin();
    await closed.close();
    const { done, sleeps } = follow(closed.url, { maxFailures: 2 });
    const error = await rejectionOf(done);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`Following ${closed.url} failed 2 times in a row without receiving an event.`);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(sleeps).toHaveLength(1);
  });

  it('counts dropped connections without events as failures, and any event resets the count', async () => {
    origin.next.push(dropAfter(), dropAfter(), dropAfter(1), dropAfter(), dropAfter());
    const { done, events } = follow(origin.url, { maxFailures: 3 });
    await done;
    expect(events).toEqual(eventsFrom(1));
    expect(origin.requests.map((request) => request.lastEventId).slice(0, 6)).toEqual([
      undefined,
      undefined,
      undefined,
      '1',
      '1',
      '1',
    ]);

    origin.requests.length = 0;
    origin.next.push(dropAfter(), dropAfter(), dropAfter());
    const error = await rejectionOf(follow(origin.url, { maxFailures: 3 }).done);
    expect((error as Error).message).toBe(`Following ${origin.url} failed 3 times in a row without receiving an event.`);
    expect(origin.requests).toHaveLength(3);
  });

  it('rejects a 200 that is not an event stream', async () => {
    origin.next.push((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"events":[]}');
    });
    const error = await rejectionOf(follow(origin.url).done);
    expect((error as Error).message).toBe(
      `${origin.url} answered 200 with Content-Type "application/json" instead of text/event-stream.`,
    );
    expect(origin.requests).toHaveLength(1);
  });

  it('rejects an event whose data is not JSON, naming the event', async () => {
    origin.next.push(streamOf('id: 1\nevent: control.evaluated\ndata: {oops\n\n'));
    const error = await rejectionOf(follow(origin.url).done);
    expect((error as Error).message).toMatch(new RegExp(`^Event 1 from ${origin.url} does not carry JSON data: `));
  });

  it('rejects an event without a positive integer id', async () => {
    origin.next.push(streamOf('id: x1\nevent: control.evaluated\ndata: {}\n\n'));
    const error = await rejectionOf(follow(origin.url).done);
    expect((error as Error).message).toBe(`${origin.url} sent an event whose id "x1" is not a positive integer.`);
  });
});

describe('aborting', () => {
  it('rejects with the reason and dispatches nothing more when aborted from onEvent', async () => {
    const controller = new AbortController();
    const reason = new Error('left the page');
    const events: StreamEvent<Data>[] = [];
    const { done } = follow(origin.url, {
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        if (event.id === '10') controller.abort(reason);
      },
    });
    expect(await rejectionOf(done)).toBe(reason);
    expect(events).toEqual(eventsFrom(1).slice(0, 10));
    expect(origin.requests).toHaveLength(2);
  });

  it('closes the open connection when aborted', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    origin.next.push((_req, res) => {
      res.on('close', closed);
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(sse(eventOf(1)));
    });
    const controller = new AbortController();
    const { done } = follow(origin.url, { signal: controller.signal, onEvent: () => controller.abort() });
    expect(await rejectionOf(done)).toMatchObject({ name: 'AbortError' });
    await connectionClosed;
  });

  it('rejects with an AbortError when aborted while waiting to reconnect', async () => {
    origin.next.push(answer(503, problemBody(503, 'queue_unavailable', 'Unavailable', 'Try later.'), { 'Retry-After': '60' }));
    const controller = new AbortController();
    // The follower starts its 60 s wait right after announcing it, so a microtask aborts during
    // that wait. An abort that ends the wait settles `done` in microtasks too; an immediate
    // queued with the abort runs only after them, so if it comes first the wait was not cut.
    let markStillWaiting!: (outcome: string) => void;
    const stillWaiting = new Promise<string>((resolve) => (markStillWaiting = resolve));
    const { done } = follow(origin.url, {
      signal: controller.signal,
      sleep: undefined,
      onConnectionChange: (state) => {
        if (state !== 'reconnecting') return;
        queueMicrotask(() => {
          controller.abort();
          setImmediate(() => markStillWaiting('still waiting to reconnect after the abort'));
        });
      },
    });
    expect(await Promise.race([rejectionOf(done), stillWaiting])).toMatchObject({ name: 'AbortError' });
    expect(origin.requests).toHaveLength(1);
  });

  it('rejects without a request when the signal is already aborted', async () => {
    const { done } = follow(origin.url, { signal: AbortSignal.abort() });
    expect(await rejectionOf(done)).toMatchObject({ name: 'AbortError' });
    expect(origin.requests).toHaveLength(0);
  });
});
