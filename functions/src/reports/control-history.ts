/**
 * One control over a period, from the daily reports: its status on each day, how much of the
 * period it passed, its longest non-passing streak, how long fixes took, and, for every change
 * of status, the findings and evidence on either side of it. Pure: the family reads the reports
 * (one object per day) and hands them here.
 *
 * The rules, as docs/methodology.md (§ A control over a period) states them:
 * - A day without a report has no status (`null`); it neither breaks nor extends a streak.
 * - `passing` passes; `failing`, `stale` and `missing` do not; `not_applicable` is neither (the
 *   control was scoped out that day): it counts in no share and ends a non-passing run.
 * - A non-passing streak runs over consecutive reports that do not pass; its length is in
 *   calendar days, from its first day to its last.
 * - A fix is a non-passing run followed by a passing report; it took the days from the run's first
 *   day to that report. A run already under way on the first day counts from that day.
 */
import type { ControlResult, ControlStatus, Finding } from '../assessment/model.js';
import { addDays } from '../assessment/dates.js';
import { isOpenStatus } from '@evident/contract';

/** A day's result for the control, or undefined when that day's report did not assess it. */
export interface DayResult {
  date: string;
  result: ControlResult | undefined;
}

export interface Side {
  date: string;
  status: ControlStatus;
  /** The findings that were not a pass: what made it fail, go stale or miss evidence. */
  findings: Finding[];
}

export interface StatusChange {
  date: string;
  from: Side | null;
  to: Side;
  evidence: { added: string[]; removed: string[] };
}

export interface ControlHistory {
  controlId: string;
  from: string;
  to: string;
  days: { date: string; status: ControlStatus | null }[];
  summary: {
    daysWithReport: number;
    daysPassing: number;
    passingShare: number | null;
    longestNonPassingStreak: { days: number; from: string; to: string } | null;
    fixes: number;
    meanTimeToFixDays: number | null;
  };
  changes: StatusChange[];
}

/** Calendar days from `from` to `to`, inclusive of both. */
const spanDays = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

const sideOf = (date: string, result: ControlResult): Side => ({
  date,
  status: result.status,
  findings: result.findings.filter((finding) => finding.outcome !== 'pass'),
});

/**
 * The history of one control, built a day at a time: fed each report day of the period in date
 * order, it keeps only the statuses, the run under way and the changes, so a caller that reads
 * many controls' histories from the same reports (the audit package) holds none of the reports.
 */
export class ControlHistoryBuilder {
  readonly #controlId: string;
  readonly #from: string;
  readonly #to: string;
  readonly #statuses = new Map<string, ControlStatus>();
  readonly #fixTimes: number[] = [];
  readonly #changes: StatusChange[] = [];
  #assessed = 0;
  #counted = 0;
  #daysPassing = 0;
  #longest: ControlHistory['summary']['longestNonPassingStreak'] = null;
  #runStart: string | undefined;
  #runEnd: string | undefined;
  #previous: { date: string; result: ControlResult } | undefined;

  /** `before` is the last report before the period, if any, for the first day's change. */
  constructor(controlId: string, from: string, to: string, before?: DayResult) {
    this.#controlId = controlId;
    this.#from = from;
    this.#to = to;
    if (before?.result) this.#previous = { date: before.date, result: before.result };
  }

  /** The next report day of the period (later than any added before). */
  add({ date, result }: DayResult): void {
    if (!result) return;
    this.#statuses.set(date, result.status);
    this.#assessed += 1;
    if (result.status !== 'not_applicable') this.#counted += 1;
    if (result.status === 'passing') this.#daysPassing += 1;

    if (isOpenStatus(result.status)) {
      this.#runStart ??= date;
      this.#runEnd = date;
    } else {
      if (result.status === 'passing' && this.#runStart) this.#fixTimes.push(spanDays(this.#runStart, date) - 1);
      this.#endRun();
    }

    const previous = this.#previous;
    // With no report before it, the first assessment is a change from nothing.
    if (!previous || previous.result.status !== result.status) {
      const earlier = new Set(previous?.result.evidence ?? []);
      const later = new Set(result.evidence);
      this.#changes.push({
        date,
        from: previous ? sideOf(previous.date, previous.result) : null,
        to: sideOf(date, result),
        evidence: {
          added: result.evidence.filter((id) => !earlier.has(id)),
          removed: (previous?.result.evidence ?? []).filter((id) => !later.has(id)),
        },
      });
    }
    this.#previous = { date, result };
  }

  #endRun(): void {
    if (this.#runStart && this.#runEnd) {
      const length = spanDays(this.#runStart, this.#runEnd);
      if (!this.#longest || length > this.#longest.days) this.#longest = { days: length, from: this.#runStart, to: this.#runEnd };
    }
    this.#runStart = this.#runEnd = undefined;
  }

  /** The history of the days added; a run still under way counts as the period's last. */
  finish(): ControlHistory {
    this.#endRun();
    const days: ControlHistory['days'] = [];
    for (let date = this.#from; date <= this.#to; date = addDays(date, 1))
      days.push({ date, status: this.#statuses.get(date) ?? null });
    const fixes = this.#fixTimes;
    return {
      controlId: this.#controlId,
      from: this.#from,
      to: this.#to,
      days,
      summary: {
        daysWithReport: this.#assessed,
        daysPassing: this.#daysPassing,
        passingShare: this.#counted === 0 ? null : this.#daysPassing / this.#counted,
        longestNonPassingStreak: this.#longest,
        fixes: fixes.length,
        meanTimeToFixDays: fixes.length === 0 ? null : fixes.reduce((sum, days) => sum + days, 0) / fixes.length,
      },
      changes: this.#changes,
    };
  }
}

/**
 * The history of `controlId` from `from` to `to` (inclusive), given each report day in that
 * period (oldest first) and the last report before it, if any, for the first day's change.
 */
export function controlHistory(
  controlId: string,
  from: string,
  to: string,
  reports: readonly DayResult[],
  before?: DayResult,
): ControlHistory {
  const builder = new ControlHistoryBuilder(controlId, from, to, before);
  for (const report of reports) builder.add(report);
  return builder.finish();
}
