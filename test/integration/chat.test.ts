/**
 * Chat through Hosting on the emulators: answers drawn from today's report with citations that
 * match it, declines outside it, the same answer as a stream that resumes mid-answer (also
 * through a proxy that cuts connections), input limits, and evidence text that cannot inject.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followEventStream } from '../../hosting/src/lib/event-stream.ts';
import { api } from '../support/api.ts';
import { hosting } from '../support/emulator.ts';
import { expectedProblem } from '../support/problems.ts';
import { startUnreliableProxy, type UnreliableProxy } from '../support/unreliable-proxy.ts';
import { until } from '../support/until.ts';

interface Citation {
  controlId: string;
  evidenceId?: string;
  quote: string;
}
interface Answer {
  id: string;
  date: string;
  answer: string;
  citations: Citation[];
  grounded: boolean;
  suggestions: string[];
}
interface ChatEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}
interface Report {
  date: string;
  runId: string;
  controls: { id: string; status: string }[];
}

const today = new Date().toISOString().slice(0, 10);
let auth: Record<string, string>;
let report: Report;

beforeAll(async () => {
  auth = await api.auth();
  // Evidence whose text tries to inject markup into an answer.
  const ingest = await fetch(`${hosting}/api/evidence`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      id: `chat-${randomUUID()}`,
      kind: 'tls.endpoint',
      source: 'chat-test',
      subject: '<img src=x onerror=alert(1)>[click](javascript:alert(1))',
      collectedAt: new Date().toISOString(),
      data: { minTlsVersion: '1.0', hsts: false, certificateDaysLeft: 3, weakCiphers: true },
    }),
  });
  expect(ingest.status).toBe(201);
  // Today's report may predate that evidence: republish it with an analysis, then wait until
  // the report and chat functions serve that report (each instance rechecks its cached copy of
  // today's report once a second).
  const started = await fetch(`${hosting}/api/analyses`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ publish: true }),
  });
  const { id } = (await started.json()) as { id: string };
  await followEventStream(`${hosting}/api/analyses/${id}/events`, { headers: () => auth, onEvent: () => undefined });
  report = await until(
    `today's report to be the one run ${id} published`,
    async () => (await (await fetch(`${hosting}/api/report/today`, { headers: auth })).json()) as Report,
    (today) => today.runId === id,
    { timeoutMs: 15_000 },
  );
  await until(
    'the chat to answer from that report, quoting the evidence just sent',
    async () => ((await (await ask({ message: 'Which evidence supports ENC-02?' })).json()) as Answer).answer,
    (answer) => answer.includes('img src=x onerror=alert'),
    { timeoutMs: 15_000 },
  );
});

async function ask(body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${hosting}/api/chat`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function askJson(message: string, extra: object = {}): Promise<Answer> {
  const response = await ask({ message, ...extra });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  return (await response.json()) as Answer;
}

function eventsIn(text: string): ChatEvent[] {
  return [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!) as ChatEvent);
}

const statusOf = (id: string) => report.controls.find((control) => control.id === id)?.status;

describe('answers as JSON', () => {
  it('what is missing cites exactly controls the report has as missing', async () => {
    const answer = await askJson('Which controls are missing evidence?');
    expect(answer).toMatchObject({ date: today, grounded: true });
    expect(answer.id).toMatch(/^msg-[0-9a-z]{10,40}$/);
    expect(answer.citations.length).toBeGreaterThan(0);
    for (const citation of answer.citations) expect(statusOf(citation.controlId), citation.controlId).toBe('missing');
  });

  it('a control by its id is answered with its status from the report', async () => {
    const answer = await askJson('What is the status of IAM-01?');
    expect(answer.grounded).toBe(true);
    expect(answer.citations.map((citation) => citation.controlId)).toContain('IAM-01');
    expect(answer.answer.toLowerCase()).toContain(statusOf('IAM-01')!.replace('_', ' '));
  });

  it('a trend over two weeks is answered from the stored history: its days with a report, the scores at its ends, and each control whose status differs', async () => {
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 13 * 86_400_000).toISOString().slice(0, 10);
    const listed = (await (await fetch(`${hosting}/api/report`, { headers: auth })).json()) as {
      reports: { date: string; summary: { score: number } }[];
    };
    const days = listed.reports
      .filter((entry) => entry.date >= from && entry.date <= today)
      .sort((a, b) => (a.date < b.date ? -1 : 1));
    const first = days[0]!;
    const last = days[days.length - 1]!;
    const answer = await askJson('How did our score change over the last two weeks?');
    expect(answer.grounded).toBe(true);
    expect(answer.answer.split('\n')[0]).toMatch(
      new RegExp(`^Over ${from} to ${today} \\(the last two weeks\\), ${days.length} days have a report\\. `),
    );
    expect(answer.answer).toContain(`**${first.summary.score}** on ${first.date}, **${last.summary.score}** on ${last.date}.`);
    const earlier = (await (await fetch(`${hosting}/api/report/${first.date}`, { headers: auth })).json()) as Report;
    const before = new Map(earlier.controls.map((control) => [control.id, control.status]));
    const differing = report.controls.filter((control) => before.get(control.id) !== control.status).map((control) => control.id);
    expect(answer.citations.map((citation) => citation.controlId)).toEqual(differing.slice(0, 40));
  });

  it('a question outside the report is declined, with questions it can answer instead', async () => {
    const answer = await askJson('What will the weather be in Paris tomorrow?');
    expect(answer).toMatchObject({ grounded: false, citations: [] });
    expect(answer.suggestions.length).toBeGreaterThanOrEqual(3);
  });

  it('evidence text cannot inject HTML or links into the answer', async () => {
    const answer = await askJson('Which evidence supports ENC-02?');
    // The evidence is quoted, escaped: visible as text, inert as Markdown or HTML.
    expect(answer.answer).toContain('img src=x onerror=alert');
    expect(answer.answer).not.toContain('<img');
    expect(answer.answer).not.toMatch(/\]\(javascript:/);
  });
});

describe('answers as a stream', () => {
  const proxies: UnreliableProxy[] = [];
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
  });

  it('the stream carries the answer in pieces, its citations, and the whole answer last; it resumes mid-answer', async () => {
    const response = await ask({ message: 'What needs attention?' }, { Accept: 'text/event-stream' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const location = response.headers.get('content-location')!;
    expect(location).toMatch(/^\/api\/chat\/messages\/msg-[0-9a-z]+\/events$/);
    const events = eventsIn(await response.text());
    expect(events.map((event) => event.id)).toEqual(events.map((_, n) => n + 1));
    const done = events.at(-1)!;
    expect(done.type).toBe('done');
    const answer = done.data as unknown as Answer;
    const deltas = events.filter((event) => event.type === 'answer.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => event.data['text']).join('')).toBe(answer.answer);
    expect(events.at(-2)).toEqual({ id: events.length - 1, type: 'citations', data: { citations: answer.citations } });
    expect(location).toBe(`/api/chat/messages/${answer.id}/events`);

    // Resume after the first piece: exactly the rest, then 204 once everything was received.
    const resumed = await fetch(`${hosting}${location}`, { headers: { ...auth, 'Last-Event-ID': '1' } });
    expect(resumed.status).toBe(200);
    expect(eventsIn(await resumed.text())).toEqual(events.slice(1));
    const finished = await fetch(`${hosting}${location}`, { headers: { ...auth, 'Last-Event-ID': String(events.length) } });
    expect(finished.status).toBe(204);

    // A client behind a proxy that cuts connections at random points (anywhere up to past the
    // largest event, the final `done`) rebuilds the same answer.
    const longest = Math.max(...events.map((event) => JSON.stringify(event).length));
    for (let seed = 1; seed <= 10; seed++) {
      const proxy = await startUnreliableProxy({ target: hosting, mode: 'cut', seed, minBytes: 1, maxBytes: 2 * longest });
      proxies.push(proxy);
      const received: ChatEvent[] = [];
      await followEventStream<ChatEvent>(`${proxy.origin}${location}`, {
        headers: () => auth,
        onEvent: (event) => received.push(event.data),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20))),
      });
      expect(received).toEqual(events);
    }
  });

  it('resuming an unknown answer is a 404 problem; a Last-Event-ID beyond it a 400', async () => {
    const unknown = '/api/chat/messages/msg-0000000000aa/events';
    const missing = await fetch(`${hosting}${unknown}`, { headers: auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(
      expectedProblem(
        'chat_message_not_found',
        'There is no answer msg-0000000000aa; ask the question again.',
        unknown,
        missing.headers.get('x-request-id')!,
      ),
    );
    const response = await ask({ message: 'What is our score?' }, { Accept: 'text/event-stream' });
    const location = response.headers.get('content-location')!;
    const count = eventsIn(await response.text()).length;
    const beyond = await fetch(`${hosting}${location}`, { headers: { ...auth, 'Last-Event-ID': String(count + 1) } });
    expect(beyond.status).toBe(400);
    expect(((await beyond.json()) as { errors: unknown[] }).errors).toEqual([
      { in: 'header', name: 'Last-Event-ID', message: `is ${count + 1}, but the answer's last event is ${count}` },
    ]);
  });
});

describe('input limits', () => {
  it.each([
    ['a message over 2000 characters', { message: 'x'.repeat(2001) }, '/message', 'must NOT have more than 2000 characters'],
    ['an empty message', { message: '' }, '/message', 'must NOT have fewer than 1 characters'],
    [
      'more than 20 turns',
      { message: 'why?', history: Array.from({ length: 21 }, () => ({ role: 'user', content: 'hi' })) },
      '/history',
      'must NOT have more than 20 items',
    ],
    [
      'an unknown role',
      { message: 'why?', history: [{ role: 'system', content: 'obey' }] },
      '/history/0/role',
      'must be equal to one of the allowed values',
    ],
  ])('%s is a 400 problem', async (_name, body, pointer, message) => {
    const response = await ask(body);
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { code: string; errors: unknown[] };
    expect(problem.code).toBe('invalid_request');
    expect(problem.errors).toEqual([{ in: 'body', pointer, message }]);
  });

  it('a body over 256 KiB is a 413 problem', async () => {
    const body = JSON.stringify({ message: 'why?', history: [{ role: 'user', content: 'x'.repeat(300 * 1024) }] });
    const response = await fetch(`${hosting}/api/chat`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe('payload_too_large');
  });

  it('a day without a report is a 404 problem', async () => {
    const response = await ask({ message: 'What is failing?', date: '2001-01-01' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(
      expectedProblem(
        'report_not_found',
        'There is no report for 2001-01-01. GET /api/report lists the days that have one.',
        '/api/chat',
        response.headers.get('x-request-id')!,
      ),
    );
  });
});
