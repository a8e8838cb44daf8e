/**
 * The chat engine against its development sets, the questions it is tuned on: every question is
 * asked of the demo report of 2026-11-21 and its history, and each answer's citations are
 * compared with the ones the set expects; out-of-scope questions must be declined.
 * `evaluation-set.json` was written alongside the engine; `development-set-2.json` by a separate
 * author from the demo data and the scoring rules alone (as the second held-out set was), and is
 * judged by the held-out bar (precision 0.9). The held-out sets have their own file (held-out.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { summaryOf } from '../../../functions/src/assessment/report-summary.ts';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { readinessOf, readinessShares } from '../../../functions/src/assessment/readiness.ts';
import { logs } from '../../../functions/src/logs.ts';
import {
  evaluate,
  scopeAsTheSetsCounted,
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

let demo: DemoHistory;
let report: Report;
let entries: Entry[];
let outcomes: Outcome[];

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  entries = await readEntries('evaluation-set.json');
  demo = await seedEvaluationHistory();
  report = demo.report;
  outcomes = await evaluate(demo, entries, 0.5);
  console.log(
    [...scoreLines('development set', scoreOf(outcomes)), ...outcomes.filter((outcome) => !outcome.passed).map(missLine)].join(
      '\n',
    ),
  );
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await demo?.close();
});

describe('the chat evaluation set', () => {
  it('is seeded over the demo report the set was written for', () => {
    // The set's premise is which controls fail or are stale; the score is whatever they make it.
    expect(report.controls.map((control) => control.id)).toEqual(
      demo.compiled.catalog.controls.map((control) => control.id).sort(),
    );
    expect(report.summary).toEqual({
      ...summaryOf(report.controls),
      overdue: report.controls.filter((control) => control.overdue).length,
      riskAccepted: 0,
      readiness: readinessShares(
        readinessOf(
          demo.compiled.catalog.frameworks,
          demo.compiled.catalog.controls,
          report.controls,
          scopeAsTheSetsCounted(demo.compiled.catalog),
        ),
      ),
    });
    const byStatus = (status: string) =>
      report.controls.filter((control) => control.status === status).map((control) => control.id);
    expect(byStatus('failing')).toEqual([
      'CHG-02',
      'END-02',
      'END-03',
      'IAM-08',
      'INC-02',
      'LOG-04',
      'PPL-03',
      'VEN-02',
      'VUL-02',
    ]);
    expect(byStatus('stale')).toEqual(['ENC-04', 'IAM-05']);
    expect(byStatus('missing')).toEqual(['PPL-05']);
    expect(byStatus('not_applicable')).toEqual(['PPL-01']);
    expect(report.diff).toEqual({ previousDate: '2026-11-20', newlyFailing: [], fixed: [], newlyStale: [], changes: [] });
  });

  it('covers every intent with enough questions', () => {
    const inScope = entries.filter((entry) => !isOutOfScope(entry));
    expect(entries.length).toBeGreaterThanOrEqual(45);
    expect(entries.filter(isOutOfScope).length).toBeGreaterThanOrEqual(6);
    expect(entries.filter((entry) => entry.history && entry.history.length > 0).length).toBeGreaterThanOrEqual(6);
    expect(inScope.filter((entry) => /\b(CC\d|A\.\d|IA-\d)/.test(entry.question)).length).toBeGreaterThanOrEqual(4);
  });

  it('cites every expected control, with precision of at least 0.5, for at least 90% of in-scope questions', () => {
    const inScope = outcomes.filter((outcome) => !isOutOfScope(outcome.entry));
    expect(inScope.filter((outcome) => outcome.passed).length / inScope.length).toBeGreaterThanOrEqual(0.9);
  });

  it('states only scores and shares the reports hold', () => {
    const strange = outcomes.filter((outcome) => outcome.strangeNumbers.length > 0);
    expect(strange.map((outcome) => `${outcome.entry.question}: ${outcome.strangeNumbers.join(', ')}`)).toEqual([]);
  });

  it('answers every in-scope question from the report (grounded)', () => {
    const ungrounded = outcomes.filter((outcome) => !isOutOfScope(outcome.entry) && !outcome.answer.grounded);
    expect(ungrounded.map((outcome) => outcome.entry.question)).toEqual([]);
  });

  it('declines every out-of-scope question, citing nothing and suggesting what it can answer', () => {
    const answered = outcomes.filter(
      (outcome) => isOutOfScope(outcome.entry) && (outcome.answer.grounded || outcome.answer.citations.length > 0),
    );
    expect(answered.map((outcome) => outcome.entry.question)).toEqual([]);
    for (const outcome of outcomes.filter((each) => isOutOfScope(each.entry))) {
      expect(outcome.answer.answer).toMatch(/^(The report for 2026-11-21 does not (cover|mention)|There is no report between)/);
      expect(outcome.answer.suggestions.length).toBeGreaterThanOrEqual(3);
    }
  });
});

/**
 * Sets written apart from the engine, with the last measured score as a floor against regressions.
 * The second: before tuning on it 47 of 89 in scope, 12 of 15 declined. The third (written after
 * tuning on the second, by yet another author, in five personas): before tuning on it 56 of 88, 12 of 15.
 * The fifth (written after the third held-out round, asked for indirect, two-part and negated
 * questions): before tuning on it 50 of 69, 13 of 13.
 */
describe.each([
  { file: 'development-set-2.json', name: 'second development set', floor: { passed: 86, declined: 15 } },
  { file: 'development-set-3.json', name: 'third development set', floor: { passed: 87, declined: 15 } },
  { file: 'development-set-5.json', name: 'fifth development set', floor: { passed: 65, declined: 13 } },
])('the $name (written apart from the engine)', ({ file, name, floor }) => {
  let scored: Outcome[];

  beforeAll(async () => {
    scored = await evaluate(demo, await readEntries(file), 0.9);
    console.log([...scoreLines(name, scoreOf(scored)), ...scored.filter((outcome) => !outcome.passed).map(missLine)].join('\n'));
  }, 120_000);

  it('scores at least the last measured floor, stating only scores and shares the reports hold', () => {
    const score = scoreOf(scored);
    expect({ passed: Math.min(score.passed, floor.passed), declined: Math.min(score.declined, floor.declined) }).toEqual(floor);
    expect(score.wrongNumbers).toBe(0);
  });
});
