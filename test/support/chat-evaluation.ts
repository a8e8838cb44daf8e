/**
 * Scores the chat engine on a question set over the demo history (14 daily reports up to
 * 2026-11-21, seeded into a temporary local-folder store exactly as the demo seeds it, over the
 * controls the sets were written for). Shared by the development set (tuned on) and the held-out
 * set (frozen before tuning, never tuned on).
 *
 * An entry passes when the answer is grounded, cites every control the entry expects, names every
 * string the entry says it must (people, devices, dates, scores), and, unless the entry leaves
 * citations open, cites with a precision of at least `minPrecision`. Out-of-scope entries pass
 * when declined: not grounded, citing nothing.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { afterAll, beforeAll, vi } from 'vitest';
import { logs } from '../../functions/src/logs.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileCatalog, type CompiledCatalog } from '../../functions/src/assessment/evaluate.ts';
import type { Catalog, Report } from '../../functions/src/assessment/model.ts';
import { defaultVersionOf, type Scope } from '../../functions/src/settings/settings-model.ts';
import { SettingsStore } from '../../functions/src/settings/settings-store.ts';
import { soc2Categories, type FrameworkId } from '@evident/contract';
import { answerQuestion, type ComposedAnswer } from '../../functions/src/chat/answer.ts';
import type { ChatTurn } from '../../functions/src/chat/question.ts';
import { indexReport, type ReportIndex } from '../../functions/src/chat/report-index.ts';
import { StoredReportDays } from '../../functions/src/reports/report-days.ts';
import { ReportStore } from '../../functions/src/reports/report-store.ts';
import { LocalFolderStore } from '../../functions/src/storage/local-folder-store.ts';
import { seedDemoHistory } from '../../scripts/lib/demo/seed.ts';
import { compileCatalogSources } from '../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { demoSeedDependencies } from './demo-seed.ts';

interface InScope {
  question: string;
  history?: ChatTurn[];
  cite: string[];
  /** Strings the answer must contain (case-insensitive): the people, devices, dates or numbers asked for. */
  mentions?: string[];
  /** Citations are not judged (a question answered by a number), only groundedness and mentions. */
  anyCitations?: boolean;
}
interface OutOfScope {
  question: string;
  history?: ChatTurn[];
  outOfScope: true;
}
export type Entry = InScope | OutOfScope;

export interface Outcome {
  entry: Entry;
  answer: ComposedAnswer;
  cited: string[];
  precision: number;
  recall: number;
  /** The `mentions` the answer lacks. */
  unmentioned: string[];
  /** Scores and shares in the answer (numbers with a decimal point, or percentages) that no report holds. */
  strangeNumbers: string[];
  passed: boolean;
}

export const isOutOfScope = (entry: Entry): entry is OutOfScope => 'outOfScope' in entry;

export const evaluationToday = '2026-11-21';

/**
 * The controls the question sets were written and measured against: the catalog's 49 before the
 * governance, risk, asset and physical security families. The evaluation's catalog keeps only
 * these, so the demo's reports — scores, statuses and readiness — stay those the sets' answers were
 * read from (their files are frozen); the controls added since are tested on their own. A change
 * to these controls' mappings or to the demo's evidence for them still shows here, as it should.
 */
const controlsOfTheSets = new Set(
  Object.entries({ BCK: 4, CHG: 5, ENC: 5, END: 4, IAM: 8, INC: 4, LOG: 4, PPL: 7, VEN: 3, VUL: 5 }).flatMap(([prefix, count]) =>
    Array.from({ length: count }, (_, n) => `${prefix}-${String(n + 1).padStart(2, '0')}`),
  ),
);

/**
 * Readiness as the sets' answers were read from it: before scope (API 1.12.0) a framework's share
 * counted only the requirements a control covered. The evaluation's settings put every SOC 2
 * category in scope and leave out, with a reason, each requirement none of the sets' controls
 * covers, so the shares the frozen sets quote are still the reports'; the gaps stay listed (as
 * out of scope). Scoped readiness is tested on its own (readiness.test.ts).
 */
export function scopeAsTheSetsCounted(catalog: Catalog): Scope {
  const controls = catalog.controls.filter((control) => controlsOfTheSets.has(control.id));
  const uncovered = (framework: FrameworkId) => {
    const covered = new Set(controls.flatMap((control) => control.frameworks[framework]));
    return catalog.frameworks
      .find((reference) => reference.id === framework)!
      .requirements.filter(({ id }) => !covered.has(id))
      .map(({ id }) => ({ requirement: id, reason: 'No control of the question sets covers it.' }));
  };
  return {
    soc2: { categories: [...soc2Categories], excluded: uncovered('soc2') },
    iso27001: { excluded: uncovered('iso27001') },
    nist80053: { baseline: 'moderate', excluded: uncovered('nist80053') },
  };
}

export interface DemoHistory {
  compiled: CompiledCatalog;
  reports: ReportStore;
  report: Report;
  index: ReportIndex;
  days: StoredReportDays;
  close: () => Promise<void>;
}

/** The demo's fourteen days in a temporary store, and today's report with its index. */
export async function seedEvaluationHistory(): Promise<DemoHistory> {
  const catalog = compileCatalogSources(paths.catalog);
  const compiled = compileCatalog({
    ...catalog,
    // Without reconciliations (API 1.16.0), which the sets' controls did not declare when the
    // sets were written; they are tested on their own (populations.test.ts).
    controls: catalog.controls
      .filter((control) => controlsOfTheSets.has(control.id))
      .map(({ reconciliations: _reconciliations, ...control }) => control),
  });
  const dir = await mkdtemp(join(tmpdir(), 'evident-chat-eval-'));
  const store = new LocalFolderStore(dir);
  await new SettingsStore(store).save(null, {
    settings: { ...defaultVersionOf(catalog).settings, scope: scopeAsTheSetsCounted(catalog) },
    savedBy: { uid: 'evaluation' },
    savedAt: `${evaluationToday}T00:00:00.000Z`,
    reason: "Readiness over what the sets' controls covered, as the sets were written.",
  });
  const reports = new ReportStore(store);
  await seedDemoHistory(
    demoSeedDependencies(store, compiled),
    // The sets were written before collectors sent through runs: every collector sent every subject
    // every day, so no run was abandoned and no population dropped, and the figures they quote are
    // of that history.
    { today: evaluationToday, timeZone: 'UTC', now: new Date(`${evaluationToday}T09:00:00Z`), collectionRuns: false },
  );
  const report = (await reports.find(evaluationToday))!.report;
  return {
    compiled,
    reports,
    report,
    index: indexReport(report, compiled.catalog),
    days: new StoredReportDays(reports, () => evaluationToday),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * The demo's evaluation history for the tests of a file (or a describe block): seeded before them
 * with the seeding's logs quiet, closed after. Call it at the top of the block; read it in tests.
 */
export function useEvaluationHistory(): () => DemoHistory {
  let demo: DemoHistory | undefined;
  beforeAll(async () => {
    for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
      vi.spyOn(logs, name).mockImplementation(() => undefined);
    demo = await seedEvaluationHistory();
  }, 120_000);
  afterAll(async () => {
    vi.restoreAllMocks();
    await demo?.close();
  });
  return () => {
    if (!demo) throw new Error('the evaluation history is read before it was seeded');
    return demo;
  };
}

export const readEntries = async (file: string): Promise<Entry[]> =>
  JSON.parse(await readFile(join(paths.root, 'test/fixtures/chat', file), 'utf8')) as Entry[];

/** One question asked of the demo history, as the chat family asks it: today's report, any earlier day's, the days between. */
export const askDemo = (history: DemoHistory, message: string, turns: readonly ChatTurn[] = []): Promise<ComposedAnswer> =>
  answerQuestion({
    message,
    history: [...turns],
    report: history.report,
    catalog: history.compiled.catalog,
    index: history.index,
    reportOn: async (date) => (await history.reports.find(date, { immutable: true }))?.report,
    days: history.days,
  });

/** The controls an answer cites, each once, sorted. */
export const citedIds = (answer: Pick<ComposedAnswer, 'citations'>) =>
  [...new Set(answer.citations.map((citation) => citation.controlId))].sort();

/** Asks every entry's question of the demo history and judges each answer. */
export async function evaluate(history: DemoHistory, entries: readonly Entry[], minPrecision: number): Promise<Outcome[]> {
  const known = await reportNumbers(history);
  const outcomes: Outcome[] = [];
  for (const entry of entries) {
    const answer = await askDemo(history, entry.question, entry.history);
    const strangeNumbers = [...answer.answer.matchAll(/(?<![\w.-])(\d+\.\d+|\d+(?=%))(?![\w-]|\.\d)/g)]
      .map((match) => match[1]!)
      .filter((number) => !known.has(Number(number)));
    outcomes.push({ ...judge(entry, answer, minPrecision), strangeNumbers });
  }
  return outcomes;
}

/**
 * Every score and readiness share of every report in the history, the differences between scores,
 * and the numbers the reports' findings state ("no successful backup for 50.7 hours").
 */
async function reportNumbers(history: DemoHistory): Promise<Set<number>> {
  const known = new Set<number>();
  const scores: number[] = [];
  for (const date of await history.reports.dates()) {
    const { summary, controls } = (await history.reports.find(date, { immutable: true }))!.report;
    scores.push(summary.score);
    for (const share of Object.values(summary.readiness ?? {})) if (share !== null) known.add(share);
    for (const finding of controls.flatMap((control) => control.findings))
      for (const number of finding.message.match(/\d+(?:\.\d+)?/g) ?? []) known.add(Number(number));
  }
  for (const a of scores) for (const b of scores) known.add(a).add(Math.round(Math.abs(a - b) * 10) / 10);
  return known;
}

function judge(entry: Entry, answer: ComposedAnswer, minPrecision: number): Omit<Outcome, 'strangeNumbers'> {
  const cited = citedIds(answer);
  if (isOutOfScope(entry)) {
    const declined = !answer.grounded && cited.length === 0;
    return { entry, answer, cited, precision: cited.length === 0 ? 1 : 0, recall: 1, unmentioned: [], passed: declined };
  }
  const expected = entry.cite;
  const hits = cited.filter((id) => expected.includes(id)).length;
  const precision = entry.anyCitations ? 1 : cited.length === 0 ? (expected.length === 0 ? 1 : 0) : hits / cited.length;
  const recall = expected.length === 0 ? 1 : hits / expected.length;
  // Markdown escapes (`\_`, `\-`) are not part of what a reader sees.
  const text = answer.answer.replaceAll('\\', '').toLowerCase();
  const unmentioned = (entry.mentions ?? []).filter((mention) => !text.includes(mention.toLowerCase()));
  const passed = answer.grounded && recall === 1 && precision >= minPrecision && unmentioned.length === 0;
  return { entry, answer, cited, precision, recall, unmentioned, passed };
}

const mean = (values: number[]) => (values.length === 0 ? 1 : values.reduce((sum, value) => sum + value, 0) / values.length);

export interface Score {
  questions: number;
  inScope: number;
  passed: number;
  share: number;
  meanPrecision: number;
  meanRecall: number;
  outOfScope: number;
  declined: number;
  /** Answers with a score or share no report holds. */
  wrongNumbers: number;
}

export function scoreOf(outcomes: readonly Outcome[]): Score {
  const inScope = outcomes.filter((outcome) => !isOutOfScope(outcome.entry));
  const outOfScope = outcomes.filter((outcome) => isOutOfScope(outcome.entry));
  const passed = inScope.filter((outcome) => outcome.passed).length;
  return {
    questions: outcomes.length,
    inScope: inScope.length,
    passed,
    share: inScope.length === 0 ? 1 : passed / inScope.length,
    meanPrecision: mean(inScope.map((outcome) => outcome.precision)),
    meanRecall: mean(inScope.map((outcome) => outcome.recall)),
    outOfScope: outOfScope.length,
    declined: outOfScope.filter((outcome) => outcome.passed).length,
    wrongNumbers: outcomes.filter((outcome) => outcome.strangeNumbers.length > 0).length,
  };
}

export function scoreLines(name: string, score: Score): string[] {
  return [
    `chat ${name} over the demo report of ${evaluationToday}: ${score.questions} questions`,
    `  in scope:     ${score.inScope}, passed: ${score.passed} (${(100 * score.share).toFixed(1)}%)`,
    `  mean precision ${score.meanPrecision.toFixed(3)}, mean recall ${score.meanRecall.toFixed(3)}`,
    `  out of scope: ${score.outOfScope}, declined: ${score.declined}`,
    `  answers with a score or share no report holds: ${score.wrongNumbers}`,
  ];
}

export const missLine = (outcome: Outcome) =>
  `  missed: "${outcome.entry.question}" cited [${outcome.cited.join(', ')}]` +
  (isOutOfScope(outcome.entry)
    ? ' (should be declined)'
    : `, expected [${outcome.entry.cite.join(', ')}] (precision ${outcome.precision.toFixed(2)}, recall ${outcome.recall.toFixed(2)})` +
      `${outcome.unmentioned.length > 0 ? `, lacks ${outcome.unmentioned.map((text) => `"${text}"`).join(', ')}` : ''}` +
      `${outcome.answer.grounded ? '' : ', declined'}` +
      `${outcome.strangeNumbers.length > 0 ? `, numbers no report holds: ${outcome.strangeNumbers.join(', ')}` : ''}`);
