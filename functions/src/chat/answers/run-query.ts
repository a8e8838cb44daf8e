/**
 * Runs a structured query from the report's index, or from the days that have a report (`ReportDays`, which the caller
 * caches); undefined when the query needs a history the caller did not give.
 */
import type { ComposedAnswer } from './compose.js';
import type { QuestionOf } from '../question.js';
import type { ReportIndex } from '../report-index.js';
import * as history from './history-queries.js';
import type { Query, ReportDays } from '../query-model.js';
import * as report from './report-queries.js';
import * as subjects from './subject-queries.js';

type Answer = ComposedAnswer | undefined;
type Answerer<K extends Query['kind']> = (query: QuestionOf<K>, index: ReportIndex, days: ReportDays) => Answer | Promise<Answer>;

/** The kinds answered from the days before the report: each reads only the days its span covers. */
const fromHistory = {
  trend: history.answerTrend,
  throughout: history.answerThroughout,
  controlHistory: history.answerControlHistory,
  day: history.answerDay,
  biggestMove: history.answerBiggestMove,
  compare: history.answerCompare,
} satisfies { [K in Query['kind']]?: Answerer<K> };

const answerers: { [K in Query['kind']]: Answerer<K> } = {
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
  ...fromHistory,
};

export async function runQuery(query: Query, index: ReportIndex, days: ReportDays | undefined): Promise<Answer> {
  if (query.kind in fromHistory && !days) return undefined;
  // The report's own answerers never read the days, so they run without a history too.
  return (answerers[query.kind] as Answerer<Query['kind']>)(query, index, days as ReportDays);
}
