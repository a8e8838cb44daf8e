/**
 * Runs a structured query: from the report's index, or from the days that have a report (`ReportDays`, which the caller
 * caches); undefined when the query needs a history the caller did not give, so the classifier answers.
 */
import type { ComposedAnswer } from './compose.js';
import type { QuestionOf as QueryOf } from '../question.js';
import type { ReportIndex } from '../report-index.js';
import * as checks from './check-queries.js';
import { answerExpiring } from './expiring-queries.js';
import * as history from './history-queries.js';
import type { Query, ReportDays } from '../query-model.js';
import * as report from './report-queries.js';
import { answerSubject } from './subject-queries.js';

/** Answers one kind of query from the report, and from its history for the kinds that need one. */
type Answerer<K extends Query['kind']> = (query: QueryOf<K>, index: ReportIndex, days: ReportDays) => Answer | Promise<Answer>;
type Answer = ComposedAnswer | undefined;

const answerers: { [K in Query['kind']]: Answerer<K> } = {
  readiness: report.answerReadiness,
  owner: report.answerOwner,
  due: report.answerDue,
  exceptions: report.answerExceptions,
  expiring: answerExpiring,
  checks: checks.answerChecks,
  subject: answerSubject,
  muted: report.answerMuted,
  ownersRanked: report.answerOwnersRanked,
  frameworksRanked: report.answerFrameworksRanked,
  openLongest: report.answerOpenLongest,
  evidenceKinds: report.answerEvidenceKinds,
  findings: checks.answerFindings,
  ownership: report.answerOwnership,
  trend: history.answerTrend,
  throughout: history.answerThroughout,
  controlHistory: history.answerControlHistory,
  day: history.answerDay,
  biggestMove: history.answerBiggestMove,
  compare: history.answerCompare,
};

/** The kinds answered from the days before the report: each reads only the days its span covers. */
const fromHistory = new Set<Query['kind']>(['trend', 'throughout', 'controlHistory', 'day', 'biggestMove', 'compare']);

export async function runQuery(query: Query, index: ReportIndex, days: ReportDays | undefined): Promise<Answer> {
  if (fromHistory.has(query.kind) && !days) return undefined;
  // The report's own answerers never read the days, so they run without a history too.
  return (answerers[query.kind] as Answerer<Query['kind']>)(query, index, days as ReportDays);
}
