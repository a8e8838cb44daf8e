/**
 * The chat engine against its evaluation set (test/fixtures/chat/evaluation-set.json): every
 * question is asked of the demo report of 2026-11-21, seeded from the sources into a temporary
 * local-folder store exactly as the analysis tests seed it. Each answer's cited controls are
 * compared with the ones the set expects; out-of-scope questions must be declined.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { compileCatalog, summaryOf } from '../../../functions/src/assessment/evaluate.ts';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { readinessOf, readinessShares } from '../../../functions/src/assessment/readiness.ts';
import { answerQuestion, type ComposedAnswer } from '../../../functions/src/chat/answer.ts';
import type { ChatTurn } from '../../../functions/src/chat/intent-model.ts';
import { indexReport, type ReportIndex } from '../../../functions/src/chat/report-index.ts';
import { seedDemoHistory } from '../../../scripts/lib/demo/seed.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';

interface InScope {
  question: string;
  history?: ChatTurn[];
  cite: string[];
}
interface OutOfScope {
  question: string;
  history?: ChatTurn[];
  outOfScope: true;
}
type Entry = InScope | OutOfScope;

interface Outcome {
  entry: Entry;
  answer: ComposedAnswer;
  cited: string[];
  precision: number;
  recall: number;
}

const compiled = compileCatalog(compileCatalogSources(paths.catalog));
const today = '2026-11-21';
let dir: string;
let reports: ReportStore;
let report: Report;
let index: ReportIndex;
let entries: Entry[];
const outcomes: Outcome[] = [];

const isOutOfScope = (entry: Entry): entry is OutOfScope => 'outOfScope' in entry;
const mean = (values: number[]) => (values.length === 0 ? 1 : values.reduce((sum, value) => sum + value, 0) / values.length);

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  entries = JSON.parse(await readFile(join(paths.root, 'test/fixtures/chat/evaluation-set.json'), 'utf8')) as Entry[];
  dir = await mkdtemp(join(tmpdir(), 'evident-chat-eval-'));
  const store = new LocalFolderStore(dir);
  const evidence = new EvidenceStore(store);
  reports = new ReportStore(store);
  await seedDemoHistory(
    { store, evidence, reports, submissions: new SubmissionStore(store, evidence), catalog: compiled, produceDailyReport },
    { today, timeZone: 'UTC', now: new Date('2026-11-21T09:00:00Z') },
  );
  report = (await reports.find(today))!.report;
  index = indexReport(report, compiled.catalog);

  for (const entry of entries) {
    const answer = await answerQuestion({
      message: entry.question,
      history: entry.history ?? [],
      report,
      catalog: compiled.catalog,
      index,
      reportOn: async (date) => (await reports.find(date, { immutable: true }))?.report,
    });
    const cited = [...new Set(answer.citations.map((citation) => citation.controlId))].sort();
    const expected = isOutOfScope(entry) ? [] : entry.cite;
    const hits = cited.filter((id) => expected.includes(id)).length;
    outcomes.push({
      entry,
      answer,
      cited,
      precision: cited.length === 0 ? (expected.length === 0 ? 1 : 0) : hits / cited.length,
      recall: expected.length === 0 ? 1 : hits / expected.length,
    });
  }

  const inScope = outcomes.filter((outcome) => !isOutOfScope(outcome.entry));
  const passed = inScope.filter((outcome) => outcome.recall === 1 && outcome.precision >= 0.5);
  const declined = outcomes.filter(
    (outcome) => isOutOfScope(outcome.entry) && !outcome.answer.grounded && outcome.cited.length === 0,
  );
  const missed = inScope.filter((outcome) => !passed.includes(outcome));
  console.log(
    [
      `chat evaluation over the demo report of ${today}: ${entries.length} questions`,
      `  in scope:      ${inScope.length}, cite every expected control with precision >= 0.5: ${passed.length} (${((100 * passed.length) / inScope.length).toFixed(1)}%)`,
      `  mean precision ${mean(inScope.map((outcome) => outcome.precision)).toFixed(3)}, mean recall ${mean(inScope.map((outcome) => outcome.recall)).toFixed(3)}`,
      `  out of scope:  ${outcomes.length - inScope.length}, declined: ${declined.length}`,
      ...missed.map(
        (outcome) =>
          `  missed: "${outcome.entry.question}" cited [${outcome.cited.join(', ')}], expected [${(outcome.entry as InScope).cite.join(', ')}] ` +
          `(precision ${outcome.precision.toFixed(2)}, recall ${outcome.recall.toFixed(2)})`,
      ),
    ].join('\n'),
  );
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

describe('the chat evaluation set', () => {
  it('is seeded over the demo report the set was written for', () => {
    // The set's premise is which controls fail or are stale; the score is whatever they make it.
    expect(report.controls.map((control) => control.id)).toEqual(compiled.catalog.controls.map((control) => control.id).sort());
    expect(report.summary).toEqual({
      ...summaryOf(report.controls),
      overdue: report.controls.filter((control) => control.overdue).length,
      riskAccepted: 0,
      readiness: readinessShares(readinessOf(compiled.catalog.frameworks, compiled.catalog.controls, report.controls)),
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
    const passed = inScope.filter((outcome) => outcome.recall === 1 && outcome.precision >= 0.5);
    expect(passed.length / inScope.length).toBeGreaterThanOrEqual(0.9);
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
      expect(outcome.answer.answer).toMatch(/^The report for 2026-11-21 does not (cover|mention)/);
      expect(outcome.answer.suggestions.length).toBeGreaterThanOrEqual(3);
    }
  });
});
