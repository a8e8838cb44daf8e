/**
 * A question read as a structured query over the report and its history: what it selects
 * (framework, requirement, controls, owner, statuses, dates) and what it asks of the selection
 * (readiness, a trend, a comparison, a control's history, ownership, due dates, exceptions). The
 * parser (parse-query.ts) builds one; the answerers run it against the data and cite what they
 * state. Questions that are not such a query go to the intent classifier (intents.ts).
 */
import type { ControlStatus, Finding, ReportSummary } from '../assessment/model.js';
import type { QuestionOf } from './question.js';

export type { CheckMatch, Period } from './question.js';

/** The kinds the query parser (parse-query.ts) reads. */
export type Query = QuestionOf<
  | 'readiness'
  | 'trend'
  | 'throughout'
  | 'day'
  | 'biggestMove'
  | 'ownersRanked'
  | 'frameworksRanked'
  | 'muted'
  | 'openLongest'
  | 'evidenceKinds'
  | 'findings'
  | 'ownership'
  | 'compare'
  | 'controlHistory'
  | 'owner'
  | 'due'
  | 'exceptions'
  | 'expiring'
  | 'checks'
  | 'subject'
>;

/** One day's report as history answers need it: the score, counts and each control's status. */
export interface DayRecord {
  date: string;
  summary: ReportSummary;
  statuses: Readonly<Record<string, ControlStatus>>;
}

/** A finding of one day's report, with the day and its control. */
export interface DayFinding {
  date: string;
  controlId: string;
  finding: Finding;
}

/** The reports of a span of days, for trends and histories; only days that have one are returned. */
export interface ReportDays {
  between(from: string, to: string): Promise<DayRecord[]>;
  /**
   * The findings `keep` selects in each day's report of a span, for one subject's history; only the
   * last `maxFindingDays` days of the span are read, as each is a whole report.
   */
  findings?(from: string, to: string, keep: (finding: Finding, controlId: string) => boolean): Promise<DayFinding[]>;
}

/** The most days of whole reports a question about one subject's history reads. */
export const maxFindingDays = 31;
