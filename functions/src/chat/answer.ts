/**
 * The chat engine's entry: a question about one day's report in, a Markdown answer with
 * citations out, in two steps. A reader turns the words into a `Question` (question.ts): the
 * offline reader here, from the classifier and the query parser, declines first; or a model
 * (readers/model-reader.ts) when a caller passes one. Then the answerers answer the `Question`
 * from the report and its history, without the words, and the composer writes every number,
 * status and citation.
 */
import { addDays } from '../assessment/dates.js';
import type { Catalog, Report } from '../assessment/model.js';
import { compose, decline, type ComposedAnswer } from './answers/compose.js';
import type { ChatTurn } from './intent-model.js';
import { indexReport, type ReportIndex } from './report-index.js';
import { readQuestion } from './offline/reader.js';
import type { ReportDays } from './query-model.js';
import { runQuery } from './answers/run-query.js';
import { answerSubjectHistory } from './answers/subject-history.js';
import type { Question, QuestionOf } from './question.js';
import type { ReadQuestion } from './model/model-reader.js';
import { declineScope, retrieve, type DeclineScope, type RetrievedContext } from './answers/retrieve.js';

export type { ComposedAnswer } from './answers/compose.js';
export type { ReportIndex } from './report-index.js';
export type { DayRecord, ReportDays } from './query-model.js';

/** A stored report as questions about it are answered: its index, the days before it, and earlier reports by date. */
export interface AskedReport {
  index: ReportIndex;
  days: ReportDays;
  reportOn: (date: string) => Promise<Report | undefined>;
}

export interface AnswerInput {
  message: string;
  /** From the request, oldest first. */
  history: readonly ChatTurn[];
  /** The day's report. */
  report: Report;
  /** For titles, objectives, guidance and framework ids. */
  catalog: Catalog;
  /** A cached index of `report`; built when absent (or built from another report). */
  index?: ReportIndex;
  /** The report of an earlier date, for "what changed since <date>"; undefined when there is none. */
  reportOn?: (date: string) => Promise<Report | undefined>;
  /** The reports of earlier days, for trends, comparisons and a control's history. */
  days?: ReportDays;
  /** Who reads the question; the offline reader unless a setting selects a model. */
  read?: ReadQuestion;
}

/** What the report and its history answer to `question`, composed offline with citations; the message is not needed. */
export async function answerAsked(
  question: Question,
  index: ReportIndex,
  sources: Pick<AnswerInput, 'days' | 'reportOn'>,
): Promise<{ facts: ComposedAnswer } | { context: RetrievedContext } | { declined: ComposedAnswer }> {
  const scope = declineScope(index);
  switch (question.kind) {
    case 'decline':
      return { declined: decline(scope, question.reason, question.subject) };
    case 'subjectHistory':
      return sources.days ? { facts: await answerSubjectHistory(question, index, sources.days) } : cannot(scope);
    case 'posture':
    case 'list':
    case 'status':
    case 'objective':
    case 'frameworks':
    case 'evidence':
    case 'fix':
    case 'why':
    case 'changes': {
      const context = await retrieve(question, index, sources);
      if (!context.missingReport) return { context };
      const later = question.kind === 'changes' ? await fromFirstReportAfter(question, index, sources) : undefined;
      return later && !later.missingReport
        ? { context: later }
        : { declined: decline(scope, 'no_report', context.missingReport) };
    }
    default: {
      const facts = await runQuery(question, index, sources.days);
      return facts ? { facts } : cannot(scope);
    }
  }
}

/**
 * Changes over a span ("in the last two weeks") are counted from the report of the day before it.
 * When the history starts inside the span there is none, and the span's first report is the
 * earliest the changes can be counted from: the answer says between which two days it counted.
 * Asked only once that day's report is found missing, and from the names of the span's reports
 * (one listing), not the reports themselves.
 */
async function fromFirstReportAfter(
  question: QuestionOf<'changes'>,
  index: ReportIndex,
  sources: Pick<AnswerInput, 'days' | 'reportOn'>,
): Promise<RetrievedContext | undefined> {
  const { date } = question.since;
  const before = addDays(index.report.date, -1);
  if (!date || date > before || !sources.days?.dates) return undefined;
  const first = (await sources.days.dates(date, before)).find((day) => day > date);
  return first ? retrieve({ ...question, since: { ...question.since, date: first } }, index, sources) : undefined;
}

/**
 * A question the data given cannot answer: one about past days with no history at hand, or a
 * framework's readiness in a report made before readiness. The offline reader never asks these
 * (it reads the classifier's question instead); a model or an MCP client may.
 */
const cannot = (scope: DeclineScope) => ({ declined: decline(scope, 'no_match') });

/** The offline reader as a `ReadQuestion`, for a model reader to fall back on. */
export function offlineReader(days: ReportDays | undefined): ReadQuestion {
  return (input) => readQuestion(input.message, input.history, input.index, days);
}

export async function answerQuestion(input: AnswerInput): Promise<ComposedAnswer> {
  const index = input.index?.report === input.report ? input.index : indexReport(input.report, input.catalog);
  const read = input.read ?? offlineReader(input.days);
  const answered = await answerAsked(await read({ message: input.message, history: input.history, index }), index, input);
  if ('declined' in answered) return answered.declined;
  return 'context' in answered ? compose(answered.context) : answered.facts;
}
