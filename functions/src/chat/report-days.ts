/**
 * The history both sides of the chat read: each day's report as trends need it, and the findings of a span's reports
 * that name a subject (read by the reader to know there are some, by the answerer to tell them).
 */
import type { ControlStatus, Finding, ReportSummary } from '../assessment/model.js';
import { addDays } from '../assessment/dates.js';
import type { QuestionOf } from './question.js';

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
  /** The days of a span that have a report: their names only, one listing, no report read. */
  dates?(from: string, to: string): Promise<string[]>;
  /**
   * The findings `keep` selects in each day's report of a span, for one subject's history; only the
   * last `maxFindingDays` days of the span are read, as each is a whole report.
   */
  findings?(from: string, to: string, keep: (finding: Finding, controlId: string) => boolean): Promise<DayFinding[]>;
}

/** The days of history a question reads when it names no span ("the audit period", "ever", "the first report"). */
export const historyDays = 90;

/** The first day of the history `historyDays` long that ends on `date`. */
export const historyFrom = (date: string) => addDays(date, 1 - historyDays);

/** The most days of whole reports a question about one subject's history reads. */
export const maxFindingDays = 31;

/** A finding open on its day (or shown for information), as a subject's history counts it. */
export const isOpenOnSomeDay = (finding: Finding) => ['fail', 'error', 'stale', 'missing', 'info'].includes(finding.outcome);

/** Whether a finding names one of `names`, by its subject or its message. */
export const namesSubject = (names: readonly string[]) => (finding: Finding) =>
  names.some((name) => finding.subject?.toLowerCase().includes(name) || finding.message.toLowerCase().includes(name));

/** The open findings of a span's reports that name the subject a question asks about. */
export function subjectFindings(question: QuestionOf<'subjectHistory'>, days: ReportDays): Promise<DayFinding[]> {
  const naming = namesSubject(question.names);
  const { from, to } = question.period;
  const asked = (controlId: string) => !question.controlIds || question.controlIds.includes(controlId);
  return (
    days.findings?.(from, to, (finding, controlId) => asked(controlId) && isOpenOnSomeDay(finding) && naming(finding)) ??
    Promise.resolve([])
  );
}
