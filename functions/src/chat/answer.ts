/**
 * The chat engine's entry: a question about one day's report in, a Markdown answer with
 * citations out. It classifies the question, declines what the report cannot answer, retrieves
 * the part of the report that can, and has a provider (offline by default) write the answer.
 * No network call is made unless a caller passes a model provider.
 */
import type { Catalog, Report } from '../assessment/model.js';
import { decline, type ComposedAnswer } from './compose.js';
import type { ChatTurn, DeclineReason } from './intent-model.js';
import { classify } from './intents.js';
import { withTyposFixed } from './known-words.js';
import { retrievalProvider, type AnswerProvider } from './provider.js';
import { controlIdsIn, indexReport, type ReportIndex } from './report-index.js';
import { parseQuery } from './queries/parse-query.js';
import type { ReportDays } from './queries/query-model.js';
import { runQuery } from './queries/run-query.js';
import { subjectHistory } from './queries/subject-history.js';
import { asksNotInReport, normalize, otherFramework } from './question-cues.js';
import { unknownSubject } from './queries/subject-queries.js';
import { declineScope, retrieve } from './retrieve.js';

export type { ComposedAnswer } from './compose.js';
export type { AnswerProvider } from './provider.js';
export type { ReportIndex } from './report-index.js';
export type { DayRecord, ReportDays } from './queries/query-model.js';

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
  /** Who writes the answer; the offline composer unless a setting selects a model. */
  provider?: AnswerProvider;
}

/** Declines no query can overturn: off-topic requests, and names the report never mentions. */
const refusedOutright = new Set<DeclineReason>(['off_topic', 'unknown_subject', 'invalid_date', 'date_format']);

export async function answerQuestion(input: AnswerInput): Promise<ComposedAnswer> {
  const index = input.index?.report === input.report ? input.index : indexReport(input.report, input.catalog);
  const scope = declineScope(index);
  const intent = classify(input.message, input.history, index);
  if (intent.kind === 'decline' && refusedOutright.has(intent.reason)) return decline(scope, intent.reason, intent.subject);
  const text = withTyposFixed(normalize(input.message), index);
  // Who did what is not in the report, unless a named control's own findings say (a scoping attestation names who signed it).
  if (asksNotInReport(text) && controlIdsIn(index, text).length === 0) return decline(scope, 'no_match');
  const elsewhere = otherFramework.exec(text)?.[0] ?? unknownSubject(text, index);
  if (elsewhere) return decline(scope, 'unknown_subject', elsewhere);
  // Questions that are queries over the report and its history are answered from the query's result.
  const past = input.days && (await subjectHistory(text, index, input.days));
  const query = past ? undefined : parseQuery(text, input.history, index);
  const queried = past ?? (query && (await runQuery(query, index, input.days)));
  const provider = input.provider ?? retrievalProvider;
  if (queried) {
    if (!queried.grounded) return queried;
    return provider.answerFacts({
      message: input.message,
      history: input.history,
      date: index.report.date,
      facts: queried,
      scope,
    });
  }
  if (intent.kind === 'decline') return decline(scope, intent.reason, intent.subject);
  const context = await retrieve(intent, index, input.reportOn ? { reportOn: input.reportOn } : {});
  if (context.missingReport) return decline(scope, 'no_report', context.missingReport);
  return provider.answer({ message: input.message, history: input.history, context });
}
