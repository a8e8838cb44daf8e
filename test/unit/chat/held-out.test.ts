/**
 * The chat engine against its held-out sets: questions written apart from the engine and frozen,
 * so the score says how it does on questions it was not tuned on.
 *
 * - `held-out-set-9.json` is held out for the round after the eighth set was spent: written the
 *   same way, frozen before that round, measured once on the engine it started from and once at
 *   its end.
 * - `held-out-set-8.json` was held out for the round after the seventh set was spent: measured
 *   once before and once after that round, then spent.
 * - `held-out-set-7.json` was held out for the round after the sixth set was spent: measured once
 *   before and once after that round, then spent.
 * - `held-out-set-6.json` was held out for the round after the fifth set was spent: measured once
 *   before and once after that round, then spent.
 * - `held-out-set-5.json` was held out for issue 34's new question reader: measured once on the
 *   engine it replaced and once on the rebuilt reader, then spent.
 * - `held-out-set-4.json` is the held-out set. It was written by a separate author (a helper
 *   agent given the demo() data and the scoring rules, not the engine's code or any other set) and
 *   frozen before the tuning that followed it. Only its score is printed; its misses stay hidden
 *   unless EVIDENT_SHOW_HELD_OUT=1, so nobody tunes on them by reading the test log.
 * - `held-out-set-2.json` and `held-out-set-3.json` were written the same way, each measured at
 *   the end of a round of tuning, then spent: their misses were read and tuned on.
 * - `held-out-set.json` was the first held-out set. It was measured once at the end of the work it
 *   was frozen for, then its misses were read and tuned on: it is development data now, kept as
 *   written, and its misses are printed like the development set's.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../../scripts/lib/paths.ts';
import {
  evaluate,
  isOutOfScope,
  missLine,
  readEntries,
  scoreLines,
  scoreOf,
  useEvaluationHistory,
  type Entry,
  type Outcome,
} from '../../support/chat-evaluation.ts';

/** What a passing answer must reach: at least this share of its citations expected. */
const minPrecision = 0.9;

interface FrozenSet {
  file: string;
  /** Changing the file is a decision for review, not a tuning step. */
  sha256: string;
  /** Hidden: its misses are not printed. Spent: they have been read and tuned on. */
  state: 'hidden' | 'spent';
  /** The last measured score, as a floor against regressions. */
  floor: { passed: number; declined: number };
  minimum: { questions: number; followUps: number; outOfScope: number };
}

const sets: FrozenSet[] = [
  {
    // Written by a ninth separate author (a helper agent given the demo()'s reports, the catalog,
    // docs/chat.md, docs/concepts.md, docs/methodology.md and the scoring rules, not the engine's
    // code, tests, any other set or the history; told not to describe its questions in its report),
    // frozen 2026-11-28 before the round of work on the eighth set's misses; never tuned on.
    // Measured once on the engine as it was then (the chat code of 1eb4481): 182 of 231 in scope
    // (78.8%, mean precision 0.903, mean recall 0.911), 27 of 33 declined, no number a report does
    // not hold. Measured once at the end of that round (958ce66): 193 of 231 (83.5%, mean
    // precision 0.915, mean recall 0.925), 29 of 33 declined, no number a report does not hold —
    // short of 85% and of every decline. Its misses have never been printed.
    file: 'held-out-set-9.json',
    sha256: '5344290189aa695cd78865178c3e8275594dfed1b75e7f9d6feca374536aed4c',
    state: 'hidden',
    floor: { passed: 193, declined: 29 },
    minimum: { questions: 260, followUps: 35, outOfScope: 33 },
  },
  {
    // Written by an eighth separate author (a helper agent given the demo()'s reports, the catalog,
    // docs/chat.md, docs/concepts.md, docs/methodology.md and the scoring rules, not the engine's
    // code, tests, any other set or the history; told not to describe its questions in its report),
    // frozen 2026-11-28 before the round of work on the seventh set's misses; never tuned on.
    // Measured once on the engine as it was then (c7d7107): 181 of 219 in scope (82.6%, mean
    // precision 0.913, mean recall 0.926), 23 of 30 declined, no number a report does not hold.
    // Measured once at the end of that round (b890190): 184 of 219 (84.0%, mean precision 0.926,
    // mean recall 0.940), 26 of 30 declined, no number a report does not hold — short of 85% and of
    // every decline. Spent since (2026-11-28): its misses were read and worked on as general cases
    // in the round the ninth set was held out for (210 of 219, 30 of 30 after it).
    file: 'held-out-set-8.json',
    sha256: '1e14651dab7258b74fc2e14962c3966df6ac7294a1ff9c49abaa5fc4e0ae8049',
    state: 'spent',
    floor: { passed: 210, declined: 30 },
    minimum: { questions: 240, followUps: 30, outOfScope: 30 },
  },
  {
    // Written by a seventh separate author (a helper agent given the demo()'s reports, the catalog,
    // docs/chat.md, docs/concepts.md, docs/methodology.md and the scoring rules, not the engine's
    // code, tests, any other set or the history; told not to describe its questions in its report),
    // frozen 2026-11-28 before the round of work on the sixth set's misses; never tuned on. Measured
    // once on the engine as it was then (3648341): 121 of 154 in scope (78.6%, mean precision 0.857,
    // mean recall 0.889), 15 of 23 declined, no number a report does not hold. Measured once at the
    // end of that round (cabf40d): 124 of 154 (80.5%, mean precision 0.866, mean recall 0.896), 16 of
    // 23 declined, no number a report does not hold — short of 85% and of every decline. Spent since
    // (2026-11-28): its misses were then read and worked on as general cases, with the eighth set
    // frozen first (146 of 154, 23 of 23 after).
    file: 'held-out-set-7.json',
    sha256: 'c4b1b38594082965d4edc0cb9d98d6b5a58dcdc904d11a2910e9714beba89bc7',
    state: 'spent',
    floor: { passed: 150, declined: 23 },
    minimum: { questions: 170, followUps: 20, outOfScope: 20 },
  },
  {
    // Written by a sixth separate author (a helper agent given the demo()'s reports, the catalog,
    // docs/chat.md, docs/concepts.md, docs/methodology.md and the scoring rules, not the engine's
    // code, tests, any other set or the history), frozen 2026-11-28 before the round of work on the
    // fifth set's misses; never tuned on. Measured once on the engine as it was then (1679e75):
    // 84 of 128 in scope (65.6%, mean precision 0.824, mean recall 0.843), 13 of 21 declined, no
    // number a report does not hold. Measured once at the end of that round (26226fa): 86 of 128
    // (67.2%, mean precision 0.824, mean recall 0.847), 15 of 21 declined, no number a report does
    // not hold — short of 85% and of every decline. Spent since (2026-11-28): its misses were then
    // read and worked on as general cases, with the seventh set frozen first (109 of 128, 17 of 21
    // after).
    file: 'held-out-set-6.json',
    sha256: 'c3d41085ad28c0b93876ddc3db37139e6870425eba1e6e2458a0d7c1dbb82be2',
    state: 'spent',
    floor: { passed: 115, declined: 19 },
    minimum: { questions: 120, followUps: 12, outOfScope: 15 },
  },
  {
    // Written by a fifth separate author (a helper agent given the demo()'s reports, the catalog,
    // docs/chat.md and the scoring rules, not the engine's code, tests or any other set), frozen
    // 2026-11-27 before issue 34 replaces the question reader, to measure the new reader against
    // today's engine; never tuned on. Measured once on the engine as it was then (155f11f): 59 of
    // 82 in scope (72.0%, mean precision 0.831, mean recall 0.881), 12 of 15 declined, no number a
    // report does not hold. Measured once on the rebuilt offline reader (0785aa2, 2026-11-28): 60
    // of 82 (73.2%, mean precision 0.840, mean recall 0.881), 12 of 15 declined, no number a report
    // does not hold — above the old engine, short of 85% and of every decline. Spent since
    // (2026-11-28): its misses were then read and worked on, with the sixth set frozen first (80 of
    // 82, 15 of 15 after).
    file: 'held-out-set-5.json',
    sha256: '3eb6925c89e7e92d8185be6ffe178c2ca160e1ec1d1a62866a00e64e6dbe2f48',
    state: 'spent',
    floor: { passed: 81, declined: 15 },
    minimum: { questions: 80, followUps: 10, outOfScope: 12 },
  },
  {
    // Written by a fourth separate author while the tuning on the third set was under way, frozen
    // 2026-11-24 before the last of it; never tuned on. Measured once at the end of that tuning
    // (fd00d9e): 62 of 71 in scope (87.3%, mean precision 0.901, mean recall 0.903), 12 of 12
    // declined, no number a report does not hold. Its misses have never been printed.
    file: 'held-out-set-4.json',
    sha256: '24423e778e8c3e9e94d2665991f9656157009dcdbe803aabb8900a928be3a755',
    state: 'hidden',
    floor: { passed: 66, declined: 12 },
    minimum: { questions: 80, followUps: 8, outOfScope: 12 },
  },
  {
    // Written by a third separate author after the tuning on the second set began, frozen
    // 2026-11-24 before the last round of tuning; never tuned on. Measured once at the end of that
    // round (0b8ff4a): 50 of 70 in scope (71.4%, mean precision 0.846, mean recall 0.889), 10 of
    // 12 declined, no number a report does not hold — short of the targets. Spent since: its
    // misses were then read and tuned on (65 of 70, 12 of 12 after).
    file: 'held-out-set-3.json',
    sha256: '02af3149f01ae72a20fe6522a9ebcfba493e726877b798c30f2da84fb2552f72',
    state: 'spent',
    floor: { passed: 68, declined: 12 },
    minimum: { questions: 80, followUps: 8, outOfScope: 12 },
  },
  {
    // Frozen 2026-11-24 before the tuning that followed it. Measured on the engine as it was then
    // (5502356, never tuned on it): 34 of 69 in scope (49.3%, mean precision 0.669), 5 of 12
    // declined. The engine had been tuned on questions its own author wrote. Measured once more at
    // the end of the tuning on two development sets written apart from the engine (96db786):
    // 55 of 69 (79.7%, mean precision 0.904, mean recall 0.939), 9 of 12 declined — short of the
    // targets (85%, every out-of-scope question declined). Spent since: its misses were then read
    // and tuned on (63 of 69, 12 of 12 after), and a third set took its place.
    file: 'held-out-set-2.json',
    sha256: 'b9e72f2edcbbfbb1704eee00ddfd787f5451f7b41ed9ceec89a72fe7b05827d8',
    state: 'spent',
    floor: { passed: 65, declined: 12 },
    minimum: { questions: 80, followUps: 8, outOfScope: 12 },
  },
  {
    // Frozen 2026-11-24 before the query engine. Before it: 12 of 59, 6 of 10 declined. With it,
    // measured once at the end of that work: 48 of 59 (81.4%, mean precision 0.881), 9 of 10.
    // Spent since: its misses were read and tuned on.
    file: 'held-out-set.json',
    sha256: '113b0cffc01bb10ac6620bfd7dec5fdc549d5ecb4db29bfeb5f35b475fddee08',
    state: 'spent',
    floor: { passed: 59, declined: 10 },
    minimum: { questions: 60, followUps: 4, outOfScope: 8 },
  },
];

const demo = useEvaluationHistory();

describe.each(sets)('the chat question set $file ($state)', (set) => {
  let entries: Entry[];
  let outcomes: Outcome[];

  beforeAll(async () => {
    entries = await readEntries(set.file);
    outcomes = await evaluate(demo(), entries, minPrecision);
    const shown = set.state === 'spent' || process.env['EVIDENT_SHOW_HELD_OUT'] === '1';
    const misses = shown ? outcomes.filter((outcome) => !outcome.passed).map(missLine) : [];
    const name = set.state === 'hidden' ? 'held-out set' : 'first held-out set (spent, tuned on)';
    console.log([...scoreLines(name, scoreOf(outcomes)), ...misses].join('\n'));
  }, 120_000);

  it('is the frozen file, with enough questions, follow-ups among them and out-of-scope ones', async () => {
    const bytes = await readFile(join(paths.root, 'test/fixtures/chat', set.file));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(set.sha256);
    expect(entries.length).toBeGreaterThanOrEqual(set.minimum.questions);
    expect(entries.filter((entry) => entry.history && entry.history.length > 0).length).toBeGreaterThanOrEqual(
      set.minimum.followUps,
    );
    expect(entries.filter(isOutOfScope).length).toBeGreaterThanOrEqual(set.minimum.outOfScope);
  });

  it('scores at least the last measured floor', () => {
    const score = scoreOf(outcomes);
    expect({ passed: Math.min(score.passed, set.floor.passed), declined: Math.min(score.declined, set.floor.declined) }).toEqual(
      set.floor,
    );
  });
});
