/**
 * ChatSession as the chat panel drives it, compiled by Svelte with real runes, against a loopback
 * origin that answers POST /api/chat with an event stream as the API does: the answer builds up
 * event by event for whatever reads it reactively, one question at a time, a follow-up carries
 * the answered turns, a broken answer resumes where it stopped, a failure can be retried, and
 * stopping cancels the request.
 */
import type http from 'node:http';
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatAnswer, ChatEvent } from '../../../hosting/src/lib/api-types.ts';
import { ChatSession } from '../../../hosting/src/lib/chat-session.svelte.ts';
import {
  openStream,
  sseEvent,
  startScriptedOrigin,
  type ScriptedOrigin,
  type SeenRequest,
} from '../../support/scripted-origin.ts';

/** The answer the origin gives to question `n`, with its events as the API streams them. */
function answerTo(n: number, date: string): { answer: ChatAnswer; events: ChatEvent[] } {
  const answer: ChatAnswer = {
    id: `msg-00000000000${n}`,
    date,
    answer: `Answer ${n}: IAM-01 is failing.`,
    citations: [{ controlId: 'IAM-01', quote: 'MFA is off.' }],
    grounded: true,
    suggestions: [],
  };
  return {
    answer,
    events: [
      { id: 1, type: 'answer.delta', data: { text: `Answer ${n}: ` } },
      { id: 2, type: 'answer.delta', data: { text: 'IAM-01 is failing.' } },
      { id: 3, type: 'citations', data: { citations: answer.citations } },
      { id: 4, type: 'done', data: answer },
    ],
  };
}

const locationOf = (answer: ChatAnswer) => `/api/chat/messages/${answer.id}/events`;
const bodyOf = (request: SeenRequest) => JSON.parse(request.body) as { message: string; date: string; history: unknown[] };

let origin: ScriptedOrigin | undefined;
let destroy: (() => void) | undefined;
afterEach(async () => {
  destroy?.();
  destroy = undefined;
  await origin?.close();
});

/** Records, from an effect as the panel's markup would, the last exchange's phase and text at each change. */
function watch(chat: ChatSession): string[] {
  const seen: string[] = [];
  destroy = $effect.root(() => {
    $effect(() => {
      const last = chat.exchanges.at(-1);
      seen.push(last ? `${last.phase}: ${last.text}` : 'empty');
    });
  });
  flushSync();
  return seen;
}

/** Answers each question with its whole stream; `hold` keeps a stream open after its first event. */
function answering({ hold }: { hold?: Promise<void> } = {}) {
  let asked = 0;
  return startScriptedOrigin((request, res: http.ServerResponse) => {
    const { events, answer } = answerTo(++asked, bodyOf(request).date);
    openStream(res, { 'Content-Location': locationOf(answer) });
    if (!hold) {
      for (const event of events) res.write(sseEvent(event));
      return res.end();
    }
    res.write(sseEvent(events[0]!));
    void hold.then(() => {
      for (const event of events.slice(1)) res.write(sseEvent(event));
      res.end();
    });
  });
}

describe('ChatSession under the panel', () => {
  it('builds the answer event by event for what reads it, asking one question at a time', async () => {
    let release!: () => void;
    origin = await answering({ hold: new Promise((resolve) => (release = resolve)) });
    const chat = new ChatSession(() => '2026-11-24', origin.fetch);
    const seen = watch(chat);

    const asked = chat.ask('  What is failing?  ');
    flushSync();
    await vi.waitUntil(() => chat.exchanges[0]?.phase === 'streaming');
    expect(chat.busy).toBe(true);
    // A second question while the first is answered is not sent.
    await chat.ask('And why?');
    release();
    await asked;
    flushSync();

    expect(origin.requests).toHaveLength(1);
    expect(bodyOf(origin.requests[0]!)).toEqual({ message: 'What is failing?', date: '2026-11-24', history: [] });
    expect(chat.busy).toBe(false);
    expect(chat.exchanges).toHaveLength(1);
    expect(chat.exchanges[0]).toMatchObject({
      question: 'What is failing?',
      phase: 'done',
      text: 'Answer 1: IAM-01 is failing.',
    });
    expect(seen[0]).toBe('empty');
    expect(seen).toContain('thinking: ');
    expect(seen).toContain('streaming: Answer 1: ');
    expect(seen.at(-1)).toBe('done: Answer 1: IAM-01 is failing.');
  });

  it('sends a follow-up with the answered turns before it, about the report shown when it is asked', async () => {
    origin = await answering();
    let date = '2026-11-23';
    const chat = new ChatSession(() => date, origin.fetch);
    await chat.ask('What is failing?');
    date = '2026-11-24';
    await chat.ask('Why?');
    expect(bodyOf(origin.requests[1]!)).toEqual({
      message: 'Why?',
      date: '2026-11-24',
      history: [
        { role: 'user', content: 'What is failing?' },
        {
          role: 'assistant',
          content: 'Answer 1: IAM-01 is failing.',
          citations: [{ controlId: 'IAM-01', quote: 'MFA is off.' }],
        },
      ],
    });
    expect(chat.exchanges.map((exchange) => exchange.phase)).toEqual(['done', 'done']);
  });

  it('resumes a broken answer at Content-Location after the last whole event, as one answer', async () => {
    const { answer, events } = answerTo(1, '2026-11-24');
    origin = await startScriptedOrigin((request, res) => {
      openStream(res, { 'Content-Location': locationOf(answer) });
      if (request.method === 'POST') {
        // Two whole events and half of the third, then the connection breaks.
        res.write(sseEvent(events[0]!) + sseEvent(events[1]!) + sseEvent(events[2]!).slice(0, 20), () => res.destroy());
        return;
      }
      for (const event of events.filter((each) => each.id > Number(request.lastEventId))) res.write(sseEvent(event));
      res.end();
    });
    const chat = new ChatSession(() => '2026-11-24', origin.fetch);
    await chat.ask('What is failing?');
    expect(origin.requests.map(({ method, path, lastEventId }) => ({ method, path, lastEventId }))).toEqual([
      { method: 'POST', path: '/api/chat', lastEventId: undefined },
      { method: 'GET', path: locationOf(answer), lastEventId: '2' },
    ]);
    expect(chat.exchanges[0]).toMatchObject({ phase: 'done', text: answer.answer, citations: answer.citations, answer });
  });

  it('says why a question failed in the server words, and asks it again on retry', async () => {
    let asked = 0;
    origin = await startScriptedOrigin((request, res) => {
      if (++asked === 1) {
        res.writeHead(503, { 'Content-Type': 'application/problem+json', 'Retry-After': '1' });
        return res.end(
          JSON.stringify({ title: 'Chat unavailable', status: 503, detail: 'The chat is busy; try again shortly.' }),
        );
      }
      const { events, answer } = answerTo(1, bodyOf(request).date);
      openStream(res, { 'Content-Location': locationOf(answer) });
      for (const event of events) res.write(sseEvent(event));
      res.end();
    });
    const chat = new ChatSession(() => '2026-11-24', origin.fetch);
    await chat.ask('What is failing?');
    expect(chat.exchanges[0]).toMatchObject({ phase: 'failed', error: 'The chat is busy; try again shortly.' });
    expect(chat.busy).toBe(false);
    await chat.retry(chat.exchanges[0]!.key);
    expect(chat.exchanges).toHaveLength(1);
    expect(chat.exchanges[0]).toMatchObject({ phase: 'done', text: 'Answer 1: IAM-01 is failing.' });
    expect(origin.requests.map((request) => request.body)).toEqual([origin.requests[0]!.body, origin.requests[0]!.body]);
  });

  it('cancels the answer in flight when stopped, without calling it a failure', async () => {
    origin = await answering({ hold: new Promise(() => undefined) });
    const chat = new ChatSession(() => '2026-11-24', origin.fetch);
    const asked = chat.ask('What is failing?');
    await vi.waitUntil(() => chat.exchanges[0]?.phase === 'streaming');
    chat.stop();
    await origin.requests[0]!.closedEarly;
    await asked;
    expect(chat.exchanges[0]).toMatchObject({ phase: 'streaming', text: 'Answer 1: ' });
    expect(chat.exchanges[0]!.error).toBeUndefined();
    expect(origin.requests).toHaveLength(1);
  });
});
