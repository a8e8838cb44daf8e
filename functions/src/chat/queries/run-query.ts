/**
 * Runs a structured query: the report's own answers from the index, the history's from the
 * days that have a report (read through `ReportDays`, which the caller caches). Undefined when
 * the query needs something the caller did not give (no history), so the classifier answers.
 */
import type { ComposedAnswer } from '../compose.js';
import type { ReportIndex } from '../report-index.js';
import { answerChecks, answerFindings } from './check-queries.js';
import { answerExpiring } from './expiring-queries.js';
import { addDays } from '../../assessment/dates.js';
import {
  answerBiggestMove,
  answerCompare,
  answerControlHistory,
  answerDay,
  answerThroughout,
  answerTrend,
} from './history-queries.js';
import type { Query, ReportDays } from './query-model.js';
import {
  answerDue,
  answerEvidenceKinds,
  answerFrameworksRanked,
  answerMuted,
  answerOwnersRanked,
  answerOpenLongest,
  answerExceptions,
  answerOwner,
  answerOwnership,
  answerReadiness,
} from './report-queries.js';
import { answerSubject } from './subject-queries.js';

export async function runQuery(
  query: Query,
  index: ReportIndex,
  days: ReportDays | undefined,
): Promise<ComposedAnswer | undefined> {
  switch (query.kind) {
    case 'readiness':
      return answerReadiness(query, index);
    case 'owner':
      return answerOwner(query, index);
    case 'due':
      return answerDue(query, index);
    case 'exceptions':
      return answerExceptions(query, index);
    case 'expiring':
      return answerExpiring(query, index);
    case 'checks':
      return answerChecks(query.checks, index);
    case 'subject':
      return answerSubject(query, index);
    case 'muted':
      return answerMuted(index);
    case 'ownersRanked':
      return answerOwnersRanked(index);
    case 'frameworksRanked':
      return answerFrameworksRanked(index);
    case 'openLongest':
      return answerOpenLongest(index);
    case 'evidenceKinds':
      return answerEvidenceKinds(query, index);
    case 'findings':
      return answerFindings(query.controlIds, index);
    case 'ownership':
      return answerOwnership(query, index);
    default:
      return days && runHistoryQuery(query, index, days);
  }
}

/** The queries answered from the days before the report: each reads only the days its span covers. */
async function runHistoryQuery(query: Query, index: ReportIndex, days: ReportDays): Promise<ComposedAnswer | undefined> {
  switch (query.kind) {
    case 'trend':
      return answerTrend(query, await days.between(query.period.from, query.period.to), index);
    case 'throughout':
      return answerThroughout(query, await days.between(query.period.from, query.period.to), index);
    case 'controlHistory': {
      const { from, to } = query.period;
      // What the controls' open findings said over the span, when the history can read findings.
      const findings =
        query.controlIds.length <= 3 && days.findings
          ? await days.findings(
              from,
              to,
              (finding, controlId) =>
                query.controlIds.includes(controlId) && ['fail', 'error', 'stale', 'missing'].includes(finding.outcome),
            )
          : [];
      return answerControlHistory(query, await days.between(from, to), index, findings);
    }
    case 'day':
      return answerDay(query, await days.between(addDays(query.date, -14), query.date), index);
    case 'biggestMove':
      return answerBiggestMove(query, await days.between(addDays(index.report.date, -89), index.report.date), index);
    case 'compare': {
      const [earlier] = await days.between(query.earlier, query.earlier);
      const [later] = await days.between(query.later, query.later);
      return answerCompare(query, earlier, later, index);
    }
    default:
      return undefined;
  }
}
