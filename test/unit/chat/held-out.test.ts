/**
 * The chat engine against its held-out set (test/fixtures/chat/held-out-set.json): questions
 * written before the engine was extended for them and frozen, so the score says how it does on
 * questions it was not tuned on. Only the score is printed; the misses stay hidden unless
 * EVIDENT_SHOW_HELD_OUT=1, so nobody tunes on them by reading the test log.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logs } from '../../../functions/src/logs.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import {
  evaluate,
  isOutOfScope,
  missLine,
  readEntries,
  scoreLines,
  scoreOf,
  seedEvaluationHistory,
  type DemoHistory,
  type Entry,
  type Outcome,
} from '../../support/chat-evaluation.ts';

/** The set as frozen on 2026-11-24. Changing the file is a decision for review, not a tuning step. */
const frozenSha256 = '113b0cffc01bb10ac6620bfd7dec5fdc549d5ecb4db29bfeb5f35b475fddee08';
/** What a passing answer must reach: at least this share of its citations expected. */
const minPrecision = 0.9;
/**
 * The last measured score, as a floor against regressions (the targets are 85% of in-scope
 * questions with a citation precision of at least 0.9, and every out-of-scope one declined).
 * Before the query engine (4237e26): 12 of 59 in scope, 6 of 10 declined. With it, measured once
 * at the end of that work (1a45937 and its review): 48 of 59 (81.4%, mean precision 0.881), 9 of
 * 10 declined — short of the targets.
 */
const floor = { passed: 48, declined: 9 };

let demo: DemoHistory;
let entries: Entry[];
let outcomes: Outcome[];

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  entries = await readEntries('held-out-set.json');
  demo = await seedEvaluationHistory();
  outcomes = await evaluate(demo, entries, minPrecision);
  const misses = process.env['EVIDENT_SHOW_HELD_OUT'] === '1' ? outcomes.filter((outcome) => !outcome.passed).map(missLine) : [];
  console.log([...scoreLines('held-out set', scoreOf(outcomes)), ...misses].join('\n'));
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await demo?.close();
});

describe('the chat held-out set', () => {
  it('is the frozen file, with at least 60 questions, follow-ups among them and out-of-scope ones', async () => {
    const bytes = await readFile(join(paths.root, 'test/fixtures/chat/held-out-set.json'));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(frozenSha256);
    expect(entries.length).toBeGreaterThanOrEqual(60);
    expect(entries.filter((entry) => entry.history && entry.history.length > 0).length).toBeGreaterThanOrEqual(4);
    expect(entries.filter(isOutOfScope).length).toBeGreaterThanOrEqual(8);
  });

  it('scores at least the last measured floor', () => {
    const score = scoreOf(outcomes);
    expect({ passed: Math.min(score.passed, floor.passed), declined: Math.min(score.declined, floor.declined) }).toEqual(floor);
  });
});
