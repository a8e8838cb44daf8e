/**
 * Analysis runs on the emulators: started through Hosting, executed by the real task queue
 * (the tasks emulator dispatching `analysisWorker`), followed as server-sent events through
 * Hosting, directly on the function URL, and through a proxy that buffers or cuts connections.
 *
 * The emulators run with the worker's test-only faults (scripts/lib/emulators.ts): runs for
 * 2025-01-07 crash once after their fifth control, runs for 2025-01-08 pause after each one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followEventStream, type StreamEvent } from '../../hosting/src/lib/event-stream.ts';
import { closingComments } from '../../functions/src/http/event-stream.ts';
import { LocalFolderStore } from '../../functions/src/storage/local-folder-store.ts';
import { api } from '../support/api.ts';
import { functionUrl, hosting, mode } from '../support/emulator.ts';
import { expectedProblem } from '../support/problems.ts';
import { startUnreliableProxy, type UnreliableProxy } from '../support/unreliable-proxy.ts';
import { until } from '../support/until.ts';

const store = new LocalFolderStore(process.env.EVIDENT_STORE_DIR!);
const crashDate = '2025-01-07';
const slowDate = '2025-01-08';
let auth: Record<string, string>;

interface AnalysisEvent {
  id: number;
  type: string;
  time: string;
  data: Record<string, unknown>;
}

interface Analysis {
  id: string;
  state: string;
  progress: { evaluated: number; total: number };
  counts: Record<string, number>;
  lastEventId: number;
  published?: boolean;
  summary?: { score: number; controls: number };
}

interface ReportVersion {
  version: number;
  current: boolean;
  runId: string;
  publishedBy: string;
  summary: { controls: number };
  links: { self: string };
}

beforeAll(async () => {
  auth = await api.auth();
});

async function start(body: object, headers: Record<string, string> = {}): Promise<Analysis> {
  const response = await fetch(`${hosting}/api/analyses`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
  const analysis = (await response.json()) as Analysis;
  expect(response.headers.get('location')).toBe(`/api/analyses/${analysis.id}`);
  return analysis;
}

async function getAnalysis(id: string): Promise<Analysis> {
  const response = await fetch(`${hosting}/api/analyses/${id}`, { headers: auth });
  expect(response.status).toBe(200);
  return (await response.json()) as Analysis;
}

async function eventsAsJson(id: string): Promise<{ events: AnalysisEvent[]; ended: boolean }> {
  const response = await fetch(`${hosting}/api/analyses/${id}/events`, { headers: { ...auth, Accept: 'application/json' } });
  expect(response.status).toBe(200);
  return (await response.json()) as { events: AnalysisEvent[]; ended: boolean };
}

/** Follows a run with the app's resuming client until the stream is finished. */
async function follow(url: string, options: { lastEventId?: string } = {}): Promise<AnalysisEvent[]> {
  const events: AnalysisEvent[] = [];
  await followEventStream<AnalysisEvent>(url, {
    headers: () => auth,
    onEvent: (event: StreamEvent<AnalysisEvent>) => {
      expect(String(event.data.id)).toBe(event.id);
      expect(event.data.type).toBe(event.type);
      events.push(event.data);
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50))),
    ...options,
  });
  return events;
}

/** A run's events are 1..n without gaps, started first, one control per index, one terminal event last. */
function expectWellFormed(events: AnalysisEvent[], terminal: string): void {
  expect(events.map((event) => event.id)).toEqual(events.map((_, n) => n + 1));
  expect(events[0]!.type).toBe('run.started');
  const total = events[0]!.data['total'] as number;
  const controls = events.filter((event) => event.type === 'control.evaluated');
  expect(controls.map((event) => event.data['index'])).toEqual(controls.map((_, n) => n + 1));
  expect(controls.every((event) => event.data['total'] === total)).toBe(true);
  const terminals = events.filter((event) => ['run.completed', 'run.failed', 'run.cancelled'].includes(event.type));
  expect(terminals.map((event) => event.type)).toEqual([terminal]);
  expect(events[events.length - 1]!.type).toBe(terminal);
  if (terminal === 'run.completed') expect(controls).toHaveLength(total);
}

async function* chunksOf(response: Response): AsyncGenerator<Uint8Array> {
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

describe('an analysis run through Hosting', () => {
  it('POST /api/analyses answers 202, the queue runs it, and the stream delivers every event in order, then the report is published', async () => {
    const queued = await start({ publish: true }, { 'Idempotency-Key': `publish-${mode}-${Date.now()}` });
    expect(queued).toMatchObject({ state: 'queued', publish: true, controls: null, lastEventId: 0 });

    const events = await follow(`${hosting}/api/analyses/${queued.id}/events`);
    expectWellFormed(events, 'run.completed');
    const completed = events[events.length - 1]!;
    expect(completed.data['published']).toBe(true);

    const analysis = await getAnalysis(queued.id);
    expect(analysis).toMatchObject({ state: 'succeeded', published: true, lastEventId: events.length });
    expect(analysis.progress.evaluated).toBe(analysis.progress.total);
    expect(Object.values(analysis.counts).reduce((sum, n) => sum + n, 0)).toBe(analysis.progress.total);
    expect(analysis.summary).toEqual(completed.data['summary']);

    const report = await until(
      `today's report to be the one run ${queued.id} published`,
      async () => (await (await fetch(`${hosting}/api/report/today`, { headers: auth })).json()) as { runId: string },
      (body) => body.runId === queued.id,
      { timeoutMs: 5000 },
    );
    expect(report.runId).toBe(queued.id);

    // The stream is finished: a reconnect with the last id is told so without a new stream.
    const after = await fetch(`${hosting}/api/analyses/${queued.id}/events`, {
      headers: { ...auth, 'Last-Event-ID': String(events.length) },
    });
    expect(after.status).toBe(204);
    expect(await after.text()).toBe('');
  });

  it('publishing today twice keeps every version: the one replaced reads as it was, each publish lists in order, and each scores every control', async () => {
    const today = (await (await fetch(`${hosting}/api/report`, { headers: auth })).json()) as { today: string };
    const versionsOf = async () => {
      const response = await fetch(`${hosting}/api/report/${today.today}/versions?limit=200`, { headers: auth });
      expect(response.status).toBe(200);
      return (await response.json()) as { items: ReportVersion[]; hasMore: boolean };
    };
    const before = await versionsOf();
    const replaced = await (await fetch(`${hosting}/api/report/${today.today}`, { headers: auth })).text();
    const runs: Analysis[] = [];
    for (const attempt of [1, 2]) {
      const run = await start(
        { controls: ['IAM-01'], publish: true },
        { 'Idempotency-Key': `versions-${mode}-${attempt}-${Date.now()}` },
      );
      expectWellFormed(await follow(`${hosting}/api/analyses/${run.id}/events`), 'run.completed');
      runs.push(run);
    }

    const after = await versionsOf();
    const last = before.items.at(-1)!;
    expect(after.hasMore).toBe(false);
    // What was there stays, the one current before now replaced; the two publishes follow in order.
    expect(after.items.slice(0, before.items.length)).toEqual([...before.items.slice(0, -1), { ...last, current: false }]);
    expect(
      after.items
        .slice(before.items.length)
        .map(({ version, runId, current, publishedBy }) => ({ version, runId, current, publishedBy })),
    ).toEqual([
      { version: last.version + 1, runId: runs[0]!.id, current: false, publishedBy: 'analysis' },
      { version: last.version + 2, runId: runs[1]!.id, current: true, publishedBy: 'analysis' },
    ]);
    // A one-control publish is merged into the report: its score is over every control.
    for (const version of after.items.slice(-2)) expect(version.summary.controls).toBe(last.summary.controls);
    const kept = await fetch(`${hosting}${after.items[before.items.length - 1]!.links.self}`, { headers: auth });
    expect(kept.status).toBe(200);
    expect(await kept.text()).toBe(replaced);
  });

  it('a retried Idempotency-Key answers the same run; the same key with another body is refused', async () => {
    const key = `retry-${mode}-${Date.now()}`;
    const first = await start({ controls: ['IAM-01', 'IAM-02'] }, { 'Idempotency-Key': key });
    const again = await start({ controls: ['IAM-01', 'IAM-02'] }, { 'Idempotency-Key': key });
    expect(again.id).toBe(first.id);

    const reused = await fetch(`${hosting}/api/analyses`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ controls: ['IAM-03'] }),
    });
    expect(reused.status).toBe(409);
    expect(await reused.json()).toEqual(
      expectedProblem(
        'idempotency_key_reused',
        'This Idempotency-Key already started an analysis with a different request; use a new key for a new run.',
        '/api/analyses',
        reused.headers.get('x-request-id')!,
      ),
    );
    const events = await follow(`${hosting}/api/analyses/${first.id}/events`);
    expectWellFormed(events, 'run.completed');
    expect(events[0]!.data['total']).toBe(2);
  });

  it('three concurrent runs each finish with their own consistent events, and the list shows them newest first', async () => {
    const runs = await Promise.all([0, 1, 2].map(() => start({ controls: ['BCK-01', 'CHG-01', 'IAM-01'] })));
    const streams = await Promise.all(runs.map((run) => follow(`${hosting}/api/analyses/${run.id}/events`)));
    for (const events of streams) expectWellFormed(events, 'run.completed');

    const list = await fetch(`${hosting}/api/analyses?limit=100`, { headers: auth });
    expect(list.status).toBe(200);
    const { items } = (await list.json()) as { items: Analysis[] };
    const ids = items.map((item) => item.id);
    expect(ids).toEqual([...ids].sort().reverse());
    for (const run of runs) expect(items.find((item) => item.id === run.id)?.state).toBe('succeeded');
  });
});

describe('a worker that fails mid-run', () => {
  it('is retried by the queue and the run ends with one consistent sequence of events', async () => {
    const queued = await start({ date: crashDate });
    const events = await follow(`${hosting}/api/analyses/${queued.id}/events`);
    expectWellFormed(events, 'run.completed');
    // The first attempt really crashed after its fifth control (the marker is its own record of it).
    await expect(store.stat(`test-faults/crashed/${queued.id}`)).resolves.toMatchObject({ size: 1 });
    expect(events.filter((event) => event.type === 'control.evaluated').length).toBeGreaterThan(5);
  });
});

describe('following a live run', () => {
  it('on the function URL, events arrive as they are persisted and each connection ends by itself with a retry hint', async () => {
    const queued = await start({ date: slowDate, controls: ['BCK-01', 'BCK-02', 'CHG-01', 'CHG-02', 'IAM-01'] });
    const response = await fetch(`${functionUrl('analyses')}/api/analyses/${queued.id}/events`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
    // For each chunk that brings events, where the run stood when it arrived.
    const arrivals: { ids: number[]; lastPersisted: number }[] = [];
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of chunksOf(response)) {
      const piece = decoder.decode(chunk, { stream: true });
      text += piece;
      const ids = [...piece.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
      if (ids.length > 0) arrivals.push({ ids, lastPersisted: (await getAnalysis(queued.id)).lastEventId });
    }
    expect(text.startsWith('retry: 1000\n\n')).toBe(true);
    const ids = arrivals.flatMap((arrival) => arrival.ids);
    expect(ids).toEqual(ids.map((_, n) => n + 1));
    // True streaming: the first events reached the client before the run had persisted its last
    // (started, five controls, completed: seven), in several chunks, not all at the end.
    expect(arrivals.length).toBeGreaterThan(2);
    expect(arrivals[0]!.lastPersisted).toBeLessThan(7);

    const rest = await follow(`${hosting}/api/analyses/${queued.id}/events`, { lastEventId: String(ids[ids.length - 1]) });
    const all = [...(await eventsAsJson(queued.id)).events];
    expect(all).toHaveLength(7);
    expect(rest.map((event) => event.id)).toEqual(all.slice(ids.length).map((event) => event.id));
    expectWellFormed(all, 'run.completed');
  });

  it('a connection to a run that outlasts the time limit ends at the limit, saying so, while the run goes on', async () => {
    const queued = await start({ date: slowDate });
    const response = await fetch(`${functionUrl('analyses')}/api/analyses/${queued.id}/events`, { headers: auth });
    const text = await response.text();
    expect(text.startsWith('retry: 1000\n\n')).toBe(true);
    expect(text.endsWith(closingComments.timeLimit)).toBe(true);
    expect(text).not.toContain('event: run.completed');
    expect((await getAnalysis(queued.id)).state).toBe('running');
    const cancel = await fetch(`${hosting}/api/analyses/${queued.id}/cancel`, { method: 'POST', headers: auth });
    expect(cancel.status).toBe(200);
  });

  it('through Hosting, which buffers in production, each connection ends once it has delivered events, not at the limit', async () => {
    const queued = await start({ date: slowDate, controls: ['BCK-01', 'BCK-02', 'CHG-01', 'CHG-02', 'IAM-01'] });
    await until(
      `run ${queued.id} to persist its first event`,
      () => getAnalysis(queued.id),
      (analysis) => analysis.lastEventId >= 1,
    );
    const response = await fetch(`${hosting}/api/analyses/${queued.id}/events`, { headers: auth });
    const text = await response.text();
    expect(text).toMatch(/^id: 1$/m);
    expect(text.endsWith(closingComments.delivered)).toBe(true);
    const events = await follow(`${hosting}/api/analyses/${queued.id}/events`);
    expectWellFormed(events, 'run.completed');
  });
});

describe('resuming through unreliable proxies', () => {
  const proxies: UnreliableProxy[] = [];
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
  });

  it('a client behind a proxy that buffers whole responses, or cuts connections at random points, rebuilds exactly the run (a dozen proxies cutting at random points)', async () => {
    const queued = await start({});
    const live = await startUnreliableProxy({ target: hosting, mode: 'cut', seed: 7, minBytes: 40, maxBytes: 900 });
    proxies.push(live);
    // Follow it live through cuts while it runs.
    const liveEvents = await follow(`${live.origin}/api/analyses/${queued.id}/events`);
    const stored = (await eventsAsJson(queued.id)).events;
    expectWellFormed(stored, 'run.completed');
    expect(liveEvents).toEqual(stored);

    const buffered = await startUnreliableProxy({ target: hosting, mode: 'buffer', seed: 1 });
    proxies.push(buffered);
    expect(await follow(`${buffered.origin}/api/analyses/${queued.id}/events`)).toEqual(stored);

    // Each proxy cuts the stream many times (every 1 to 3,000 bytes), half of them buffering too.
    for (let seed = 100; seed < 112; seed++) {
      const proxy = await startUnreliableProxy({
        target: hosting,
        mode: seed % 2 === 0 ? 'cut' : 'cut-buffered',
        seed,
        minBytes: 1,
        maxBytes: 3000,
      });
      proxies.push(proxy);
      expect(await follow(`${proxy.origin}/api/analyses/${queued.id}/events`)).toEqual(stored);
      expect(proxy.stats.cuts).toBeGreaterThan(0);
    }
  });
});

describe('cancelling', () => {
  it('cancels a running run: run.cancelled ends it, the worker stops and nothing is published', async () => {
    const queued = await start({ date: slowDate });
    await until(
      `run ${queued.id} to evaluate 3 controls`,
      () => getAnalysis(queued.id),
      (analysis) => analysis.progress.evaluated >= 3,
    );
    const response = await fetch(`${hosting}/api/analyses/${queued.id}/cancel`, { method: 'POST', headers: auth });
    expect(response.status).toBe(200);
    const cancelled = (await response.json()) as Analysis;
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.progress.evaluated).toBeLessThan(cancelled.progress.total);

    // The worker learns of the cancel only when its next event conflicts with it; once its
    // attempt has returned (its test-only marker), nothing may have followed the cancel.
    await until(
      `the worker's attempt at ${queued.id} to return`,
      () =>
        store.stat(`test-faults/attempts-ended/${queued.id}/1`).then(
          () => true,
          () => false,
        ),
      (ended) => ended,
    );
    const { events, ended } = await eventsAsJson(queued.id);
    expect(ended).toBe(true);
    expectWellFormed(events, 'run.cancelled');
    expect(events).toHaveLength(cancelled.lastEventId);

    const again = await fetch(`${hosting}/api/analyses/${queued.id}/cancel`, { method: 'POST', headers: auth });
    expect(again.status).toBe(200);
  });

  it('a run that already completed cannot be cancelled: 409 analysis_ended', async () => {
    const queued = await start({ controls: ['IAM-01'] });
    await follow(`${hosting}/api/analyses/${queued.id}/events`);
    const response = await fetch(`${hosting}/api/analyses/${queued.id}/cancel`, { method: 'POST', headers: auth });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual(
      expectedProblem(
        'analysis_ended',
        `The analysis ${queued.id} already ended (run.completed); it can no longer be cancelled.`,
        `/api/analyses/${queued.id}/cancel`,
        response.headers.get('x-request-id')!,
      ),
    );
  });
});

describe('bad requests', () => {
  let finished: Analysis;
  beforeAll(async () => {
    finished = await start({ controls: ['IAM-01'] });
    await follow(`${hosting}/api/analyses/${finished.id}/events`);
  });

  it('an unknown run is a 404 problem, not a stream', async () => {
    const id = 'an-20200101000000000-00000000';
    for (const path of [`/api/analyses/${id}`, `/api/analyses/${id}/events`]) {
      const response = await fetch(`${hosting}${path}`, { headers: { ...auth, Accept: 'text/event-stream' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toEqual(
        expectedProblem(
          'analysis_not_found',
          `There is no analysis ${id}. GET /api/analyses lists recent runs.`,
          path,
          response.headers.get('x-request-id')!,
        ),
      );
    }
  });

  it('a malformed run id is a 400 problem', async () => {
    const response = await fetch(`${hosting}/api/analyses/nope/events`, { headers: auth });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([
      { in: 'path', name: 'id', message: 'must match pattern "^an-[0-9]{17}-[0-9a-f]{8}$"' },
    ]);
  });

  it.each([
    ['abc', 'must match pattern "^(0|[1-9][0-9]{0,8})$"'],
    ['-1', 'must match pattern "^(0|[1-9][0-9]{0,8})$"'],
    ['01', 'must match pattern "^(0|[1-9][0-9]{0,8})$"'],
  ])('Last-Event-ID %s is a 400 problem', async (value, message) => {
    const response = await fetch(`${hosting}/api/analyses/${finished.id}/events`, {
      headers: { ...auth, 'Last-Event-ID': value },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([{ in: 'header', name: 'Last-Event-ID', message }]);
  });

  it('a Last-Event-ID beyond the run is a 400 problem; the header wins over the query parameter', async () => {
    const { lastEventId } = await getAnalysis(finished.id);
    const beyond = await fetch(`${hosting}/api/analyses/${finished.id}/events?lastEventId=1`, {
      headers: { ...auth, 'Last-Event-ID': String(lastEventId + 1) },
    });
    expect(beyond.status).toBe(400);
    expect(((await beyond.json()) as { errors: unknown[] }).errors).toEqual([
      { in: 'header', name: 'Last-Event-ID', message: `is ${lastEventId + 1}, but the run's last event is ${lastEventId}` },
    ]);
    const byQuery = await fetch(`${hosting}/api/analyses/${finished.id}/events?lastEventId=${lastEventId - 1}`, {
      headers: auth,
    });
    expect(byQuery.status).toBe(200);
    const text = await byQuery.text();
    expect([...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]))).toEqual([lastEventId]);
  });

  it('POST /api/analyses refuses unknown controls, a future date and publishing a past day', async () => {
    const cases: [object, number, string, string | undefined][] = [
      [{ controls: ['IAM-01', 'ZZZ-99'] }, 400, 'invalid_request', undefined],
      [{ date: '2999-01-01' }, 400, 'invalid_request', undefined],
      [{ date: '2020-01-01', publish: true }, 409, 'report_immutable', undefined],
      [{ controls: [] }, 400, 'invalid_request', undefined],
      [{ scope: 'all' }, 400, 'invalid_request', undefined],
    ];
    for (const [body, status, code] of cases) {
      const response = await fetch(`${hosting}/api/analyses`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(((await response.json()) as { code: string }).code).toBe(code);
    }
    const unknown = await fetch(`${hosting}/api/analyses`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ controls: ['IAM-01', 'ZZZ-99'] }),
    });
    expect(((await unknown.json()) as { errors: unknown[] }).errors).toEqual([
      { in: 'body', pointer: '/controls/1', message: '"ZZZ-99" is not a control in the catalog' },
    ]);
  });
});
