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

const nonPassing = (status: ControlStatus) => status === 'failing' || status === 'stale' || status === 'missing';

/** Calendar days from `from` to `to`, inclusive of both. */
const spanDays = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

const sideOf = (date: string, result: ControlResult): Side => ({
  date,
  status: result.status,
  findings: result.findings.filter((finding) => finding.outcome !== 'pass'),
});

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
  const byDate = new Map(reports.map((report) => [report.date, report.result]));
  const days: ControlHistory['days'] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) days.push({ date, status: byDate.get(date)?.status ?? null });

  const assessed = reports.filter((report): report is { date: string; result: ControlResult } => report.result !== undefined);
  const counted = assessed.filter(({ result }) => result.status !== 'not_applicable');
  const daysPassing = counted.filter(({ result }) => result.status === 'passing').length;

  let longest: ControlHistory['summary']['longestNonPassingStreak'] = null;
  const fixTimes: number[] = [];
  let runStart: string | undefined;
  let runEnd: string | undefined;
  const endRun = () => {
    if (runStart && runEnd) {
      const length = spanDays(runStart, runEnd);
      if (!longest || length > longest.days) longest = { days: length, from: runStart, to: runEnd };
    }
    runStart = runEnd = undefined;
  };
  for (const { date, result } of assessed) {
    if (nonPassing(result.status)) {
      runStart ??= date;
      runEnd = date;
      continue;
    }
    if (result.status === 'passing' && runStart) fixTimes.push(spanDays(runStart, date) - 1);
    endRun();
  }
  endRun();

  const changes: StatusChange[] = [];
  let previous = before?.result ? { date: before.date, result: before.result } : undefined;
  for (const current of assessed) {
    // With no report before it, the first assessment is a change from nothing.
    if (!previous || previous.result.status !== current.result.status) {
      const earlier = new Set(previous?.result.evidence ?? []);
      const later = new Set(current.result.evidence);
      changes.push({
        date: current.date,
        from: previous ? sideOf(previous.date, previous.result) : null,
        to: sideOf(current.date, current.result),
        evidence: {
          added: current.result.evidence.filter((id) => !earlier.has(id)),
          removed: (previous?.result.evidence ?? []).filter((id) => !later.has(id)),
        },
      });
    }
    previous = current;
  }

  return {
    controlId,
    from,
    to,
    days,
    summary: {
      daysWithReport: assessed.length,
      daysPassing,
      passingShare: counted.length === 0 ? null : daysPassing / counted.length,
      longestNonPassingStreak: longest,
      fixes: fixTimes.length,
      meanTimeToFixDays: fixTimes.length === 0 ? null : fixTimes.reduce((sum, days) => sum + days, 0) / fixTimes.length,
    },
    changes,
  };
}
