/**
 * An answer as a stream: its Markdown in pieces, its citations, and a final `done` with the whole answer. The events are
 * stored (one create-only `chat/answers/<id>.json`) before the first is sent, so a client whose connection drops resumes
 * with `Last-Event-ID` and gets the same pieces, never a different answer.
 */
import { randomBytes } from 'node:crypto';
import type { components } from '../generated/api-types.js';
import type { EventFeed } from '../common/event-feed.js';
import { ObjectNotFound, type ObjectStore } from '../storage/object-store.js';

export type ChatAnswer = components['schemas']['ChatAnswer'];
export type ChatEvent = components['schemas']['ChatEvent'];

const answerObjectName = (id: string) => `chat/answers/${id}.json`;

export const newAnswerId = (now: Date) => `msg-${now.getTime().toString(36)}${randomBytes(6).toString('hex')}`;

/** Splits Markdown into pieces of about `size` characters that end at a line or word boundary and concatenate back to it. */
export function splitIntoPieces(markdown: string, size = 120): string[] {
  const pieces: string[] = [];
  for (let rest = markdown; rest.length > 0;) {
    const window = rest.slice(0, size);
    const cut = Math.max(window.lastIndexOf('\n'), window.lastIndexOf(' '));
    const end = rest.length <= size ? size : cut > 0 ? cut + 1 : size;
    pieces.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return pieces;
}

export function eventsOf(answer: ChatAnswer): ChatEvent[] {
  const deltas = splitIntoPieces(answer.answer).map((text) => ({ type: 'answer.delta' as const, data: { text } }));
  const citations = { type: 'citations' as const, data: { citations: answer.citations } };
  return [...deltas, citations, { type: 'done' as const, data: answer }].map((event, at) => ({ id: at + 1, ...event }));
}

/** A complete, persisted list of events as a stream feed: everything is there, and it has ended. */
export function fixedFeed(events: readonly ChatEvent[]): EventFeed<ChatEvent> {
  return { next: async (afterId) => ({ events: events.slice(afterId), ended: true }) };
}

export class AnswerStore {
  readonly #store: ObjectStore;

  constructor(store: ObjectStore) {
    this.#store = store;
  }

  async save(answer: ChatAnswer): Promise<ChatEvent[]> {
    const events = eventsOf(answer);
    await this.#store.create(answerObjectName(answer.id), JSON.stringify(events), { contentType: 'application/json' });
    return events;
  }

  async events(id: string): Promise<ChatEvent[] | undefined> {
    try {
      const { data } = await this.#store.read(answerObjectName(id));
      return JSON.parse(data.toString('utf8')) as ChatEvent[];
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }
}
