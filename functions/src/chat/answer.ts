/**
 * The chat engine's entry: a question about one day's report in, a Markdown answer with
 * citations out, in two steps. A reader turns the words into a `Question` (question.ts): the
 * offline reader (offline/reader.ts), or a model (model/model-reader.ts) when a caller passes
 * one. Then the answerer of the question's kind answers it from the report and its history,
 * without the words, writing every number, status and citation.
 */
import type { Catalog, Report } from '../assessment/model.js';
import { decline, type ComposedAnswer, type Sources } from './answers/compose.js';
import { evidence, fix, frameworks, objective, posture, status, why } from './answers/control-answers.js';
import * as history from './answers/history-queries.js';
import { changes, list } from './answers/list-answers.js';
import * as report from './answers/report-queries.js';
import * as subjects from './answers/subject-queries.js';
import { indexReport, type ReportIndex } from './report-index.js';
import { readQuestion } from './offline/reader.js';
import type { ChatTurn, Question, QuestionOf } from './question.js';
import type { ReportDays } from './report-days.js';
import type { ReadQuestion } from './model/model-reader.js';

export type { ComposedAnswer } from './answers/compose.js';
export type { ReportDays } from './report-days.js';

/** A stored report as questions about it are answered: its index, the days before it, and earlier reports by date. */
export interface AskedReport extends Required<Sources> {
  index: ReportIndex;
}

export interface AnswerInput extends Sources {
  message: string;
  /** From the request, oldest first. */
  history: readonly ChatTurn[];
  /** The day's report. */
  report: Report;
  /** For titles, objectives, guidance and framework ids. */
  catalog: Catalog;
  /** A cached index of `report`; built when absent (or built from another report). */
  index?: ReportIndex;
  /** Who reads the question; the offline reader unless a setting selects a model. */
  read?: ReadQuestion;
}

type Answer = ComposedAnswer | Promise<ComposedAnswer>;
type Answerer<K extends Question['kind']> = (question: QuestionOf<K>, index: ReportIndex, sources: Sources) => Answer;

/**
 * A kind answered from the days before the report. A question about past days with no history at hand is declined: the
 * offline reader never asks one (it is given the history), a model or an MCP client may.
 */
const fromDays =
  <K extends Question['kind']>(answer: (question: QuestionOf<K>, index: ReportIndex, days: ReportDays) => Answer): Answerer<K> =>
  (question, index, { days }) =>
    days ? answer(question, index, days) : decline(index, 'no_match');

/** Each kind's answerer: from the report's index, from an earlier day's report (`reportOn`), or from the days before. */
const answerers: { [K in Question['kind']]: Answerer<K> } = {
  decline: (question, index) => decline(index, question.reason, question.subject),
  posture,
  status,
  objective,
  frameworks,
  evidence,
  fix,
  why,
  list,
  changes,
  readiness: report.answerReadiness,
  owner: report.answerOwner,
  due: report.answerDue,
  exceptions: report.answerExceptions,
  expiring: report.answerExpiring,
  muted: report.answerMuted,
  ownersRanked: report.answerOwnersRanked,
  frameworksRanked: report.answerFrameworksRanked,
  openLongest: report.answerOpenLongest,
  evidenceKinds: report.answerEvidenceKinds,
  ownership: report.answerOwnership,
  checks: subjects.answerChecks,
  subject: subjects.answerSubject,
  findings: subjects.answerFindings,
  trend: fromDays(history.answerTrend),
  throughout: fromDays(history.answerThroughout),
  controlHistory: fromDays(history.answerControlHistory),
  day: fromDays(history.answerDay),
  biggestMove: fromDays(history.answerBiggestMove),
  compare: fromDays(history.answerCompare),
  subjectHistory: fromDays(subjects.answerSubjectHistory),
};

/** What the report and its history answer to `question`, composed with citations; the message is not needed. */
export const answerAsked = async (question: Question, index: ReportIndex, sources: Sources): Promise<ComposedAnswer> =>
  (answerers[question.kind] as Answerer<Question['kind']>)(question, index, sources);

/** The offline reader as a `ReadQuestion`, for a model reader to fall back on. */
export function offlineReader(days: ReportDays | undefined): ReadQuestion {
  return (input) => readQuestion(input.message, input.history, input.index, days);
}

export async function answerQuestion(input: AnswerInput): Promise<ComposedAnswer> {
  const index = input.index?.report === input.report ? input.index : indexReport(input.report, input.catalog);
  const read = input.read ?? offlineReader(input.days);
  return answerAsked(await read({ message: input.message, history: input.history, index }), index, input);
}
