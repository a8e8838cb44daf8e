/**
 * A chat answer as persisted stream events: pieces that rebuild the Markdown exactly, then the
 * citations, then the whole answer; stored once and read back for resuming.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AnswerStore,
  eventsOf,
  newAnswerId,
  splitIntoPieces,
  type ChatAnswer,
} from '../../../functions/src/chat/answer-events.ts';
import { PreconditionFailed } from '../../../functions/src/storage/object-store.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';

const answer: ChatAnswer = {
  id: newAnswerId(new Date('2026-11-21T09:00:00Z')),
  date: '2026-11-21',
  answer: `**3 controls are failing.**\n\n${Array.from({ length: 12 }, (_, n) => `- CHG-0${n % 9}: a finding that is long enough to wrap`).join('\n')}\n`,
  citations: [{ controlId: 'CHG-02', quote: 'acme/billing-service lets administrators bypass the rules on main.' }],
  grounded: true,
  suggestions: [],
};

describe('splitIntoPieces', () => {
  it('cuts at line or word boundaries, within the size, and the pieces concatenate back exactly', () => {
    const pieces = splitIntoPieces(answer.answer, 40);
    expect(pieces.join('')).toBe(answer.answer);
    expect(pieces.length).toBeGreaterThan(5);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(40);
    for (const piece of pieces.slice(0, -1)) expect(piece).toMatch(/[\s]$/);
  });

  it('cuts a word longer than the size at the size', () => {
    expect(splitIntoPieces('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});

describe('an answer as events', () => {
  it('numbers the pieces from 1, then the citations, then the whole answer', () => {
    const events = eventsOf(answer);
    expect(events.map((event) => event.id)).toEqual(events.map((_, n) => n + 1));
    expect(events.at(-2)).toEqual({ id: events.length - 1, type: 'citations', data: { citations: answer.citations } });
    expect(events.at(-1)).toEqual({ id: events.length, type: 'done', data: answer });
    const text = events.flatMap((event) => (event.type === 'answer.delta' ? [event.data.text] : [])).join('');
    expect(text).toBe(answer.answer);
  });

  it('is stored once and read back as stored; an unknown id reads as undefined', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evident-answers-'));
    try {
      const answers = new AnswerStore(new LocalFolderStore(dir));
      const saved = await answers.save(answer);
      expect(await answers.events(answer.id)).toEqual(saved);
      await expect(answers.save(answer)).rejects.toBeInstanceOf(PreconditionFailed);
      expect(await answers.events('msg-0000000000aa')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
