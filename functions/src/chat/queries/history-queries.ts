/**
 * Answers over the report history: how the score moved over a span (first and last day with a
 * report, the lowest and highest, the days without one), what differs between two days, and
 * one control's runs of status over a span. Days without a report are said, never filled in;
 * every control whose status differs is cited with its status on the later day.
 */
import { addDays } from '../../assessment/dates.js';
import type { ControlStatus } from '../../assessment/model.js';
import { frameworkNames, plural, type FrameworkId } from '@evident/contract';
import { escapeMarkdown, type ComposedAnswer } from '../compose.js';
import type { ReportIndex } from '../report-index.js';
import { declineSuggestions, statusLabel } from '../retrieve.js';
import type { DayFinding, DayRecord, Period, Query } from './query-model.js';
import { answered } from './report-queries.js';

type QueryOf<K extends Query['kind']> = Extract<Query, { kind: K }>;

/** The days of the span without a report, as short ranges ("2026-11-01 to 2026-11-07"). */
function missingDays(period: Period, days: readonly DayRecord[]): string[] {
  const have = new Set(days.map((day) => day.date));
  const runs: string[] = [];
  let start: string | undefined;
  let previous: string | undefined;
  for (let date = period.from; date <= period.to; date = addDays(date, 1)) {
    if (!have.has(date)) {
      start ??= date;
      previous = date;
      continue;
    }
    if (start) runs.push(start === previous ? start : `${start} to ${previous}`);
    start = undefined;
  }
  if (start) runs.push(start === previous ? start : `${start} to ${previous}`);
  return runs;
}

/** Runs of days without a report: all of them when few, else the first ten and how many more. */
function missingLine(runs: readonly string[]): string {
  const shown = runs.length <= 10 ? runs : [...runs.slice(0, 10), `and ${runs.length - 10} more`];
  return `Days without a report (not counted): ${shown.join(', ')}.`;
}

function dayTable(days: readonly DayRecord[]): string[] {
  return [
    '| Day | Score | Failing | Stale | Missing |',
    '| --- | --- | --- | --- | --- |',
    ...days.map(
      (day) =>
        `| ${day.date} | ${day.summary.score} | ${day.summary.counts.failing} | ${day.summary.counts.stale} | ${day.summary.counts.missing} |`,
    ),
  ];
}

/** A long span by month: how many days have a report, the lowest and highest score, and the month's last. */
function monthTable(days: readonly DayRecord[]): string[] {
  const months = new Map<string, DayRecord[]>();
  for (const day of days) months.set(day.date.slice(0, 7), [...(months.get(day.date.slice(0, 7)) ?? []), day]);
  return [
    '| Month | Days with a report | Lowest | Highest | Last |',
    '| --- | --- | --- | --- | --- |',
    ...[...months].map(([month, inMonth]) => {
      const scores = inMonth.map((day) => day.summary.score);
      return `| ${month} | ${inMonth.length} | ${Math.min(...scores)} | ${Math.max(...scores)} | ${inMonth[inMonth.length - 1]!.summary.score} |`;
    }),
  ];
}

/** The controls whose status differs between two days, with both statuses. */
function statusChanges(
  earlier: DayRecord,
  later: DayRecord,
): { id: string; from: ControlStatus | undefined; to: ControlStatus }[] {
  return Object.entries(later.statuses)
    .filter(([id, status]) => earlier.statuses[id] !== status)
    .map(([id, to]) => ({ id, from: earlier.statuses[id], to }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Status changes listed (and cited) in one answer. */
const shownChanges = 40;

function changesAnswer(lines: string[], earlier: DayRecord, later: DayRecord, index: ReportIndex): ComposedAnswer {
  const all = statusChanges(earlier, later);
  // A long span on a large catalog can change hundreds: the first ones are listed and cited, the rest counted.
  const changes = all.slice(0, shownChanges);
  const changeLines = changes.map(
    (change) =>
      `- **${change.id}**${index.byId.get(change.id) ? ` ${escapeMarkdown(index.byId.get(change.id)!.result.title)}` : ''}: ` +
      `${change.from ? statusLabel[change.from] : 'not assessed'} on ${earlier.date} \u2192 ${statusLabel[change.to]} on ${later.date}`,
  );
  const body =
    changes.length === 0
      ? [`No control's status differs between ${earlier.date} and ${later.date}.`]
      : [
          `${plural(all.length, 'control')} changed status between ${earlier.date} and ${later.date}:`,
          '',
          ...changeLines,
          ...(all.length > changes.length ? [`- \u2026and ${all.length - changes.length} more.`] : []),
        ];
  return {
    ...answered([...lines, '', ...body], []),
    citations: changes.map((change) => ({
      controlId: change.id,
      quote: `${change.id} was ${change.from ? statusLabel[change.from] : 'not assessed'} on ${earlier.date} and ${statusLabel[change.to]} on ${later.date}.`,
    })),
  };
}

const scoreOn = (day: DayRecord) => `**${day.summary.score}** on ${day.date}`;

/** A named framework's readiness at the two ends of a span, when both days have it. */
function readinessMoved(framework: FrameworkId | undefined, first: DayRecord, last: DayRecord): string[] {
  const from = framework && first.summary.readiness?.[framework];
  const to = framework && last.summary.readiness?.[framework];
  if (!framework || from === undefined || from === null || to === undefined || to === null) return [];
  return ['', `${frameworkNames[framework]} readiness went from **${from}%** on ${first.date} to **${to}%** on ${last.date}.`];
}

export function answerTrend(query: QueryOf<'trend'>, days: readonly DayRecord[], index: ReportIndex): ComposedAnswer {
  const { period } = query;
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return noReports(period, index);
  const lowest = days.reduce((low, day) => (day.summary.score < low.summary.score ? day : low));
  const highest = days.reduce((high, day) => (day.summary.score > high.summary.score ? day : high));
  const missing = missingDays(period, days);
  const direction =
    last.summary.score > first.summary.score
      ? 'rose'
      : last.summary.score < first.summary.score
        ? 'fell'
        : 'ended where it started';
  const lines = [
    `Over ${period.from} to ${period.to} (${period.phrase}), ${plural(days.length, 'day')} ${days.length === 1 ? 'has' : 'have'} a report. ` +
      `The score ${direction}: ${scoreOn(first)}, ${scoreOn(last)}. Lowest ${scoreOn(lowest)}; highest ${scoreOn(highest)}.`,
    ...readinessMoved(query.framework, first, last),
    ...(missing.length > 0 ? ['', missingLine(missing)] : []),
    '',
    ...(days.length <= 31 ? dayTable(days) : monthTable(days)),
  ];
  return changesAnswer(lines, first, last, index);
}

/** One day's score and what changed from the report before it; `days` ends on that day when it has a report. */
export function answerDay(query: QueryOf<'day'>, days: readonly DayRecord[], index: ReportIndex): ComposedAnswer {
  const day = days.at(-1);
  if (!day || day.date !== query.date) return noReports({ from: query.date, to: query.date, phrase: query.phrase }, index);
  const before = days.at(-2);
  if (!before)
    return answered([`The score was ${scoreOn(day)}; no earlier report is within two weeks of it to compare with.`], []);
  const delta = Math.round((day.summary.score - before.summary.score) * 10) / 10;
  const moved = delta === 0 ? 'unchanged' : `${delta > 0 ? 'up' : 'down'} ${Math.abs(delta)} points`;
  return changesAnswer(
    [`The score was ${scoreOn(day)}, ${moved} from ${scoreOn(before)}, the report before it.`],
    before,
    day,
    index,
  );
}

export function answerThroughout(query: QueryOf<'throughout'>, days: readonly DayRecord[], index: ReportIndex): ComposedAnswer {
  const { period, statuses, every } = query;
  if (days.length === 0) return noReports(period, index);
  const asked = new Set<ControlStatus>(statuses);
  const counted = index.controls
    .map(({ result }) => ({ result, days: days.filter((day) => asked.has(day.statuses[result.id]!)).length }))
    .filter((entry) => (every ? entry.days === days.length : entry.days > 0));
  const which = statuses.map((status) => statusLabel[status]).join(' or ');
  const missing = missingDays(period, days);
  const lead =
    `Over ${period.from} to ${period.to} (${period.phrase}), ${plural(days.length, 'day')} ${days.length === 1 ? 'has' : 'have'} a report; ` +
    `${plural(counted.length, 'control')} ${counted.length === 1 ? 'was' : 'were'} ${which} ${every ? 'on every one of them' : 'on at least one'}` +
    `${counted.length > 0 ? ':' : '.'}`;
  const lines = counted.map(
    ({ result, days: count }) =>
      `- **${result.id}** ${escapeMarkdown(result.title)} \u2014 ${count} of ${days.length} days; today ${statusLabel[result.status]}`,
  );
  return answered(
    [lead, ...(missing.length > 0 ? ['', missingLine(missing)] : []), ...(lines.length > 0 ? ['', ...lines] : [])],
    counted.map(({ result }) => result),
  );
}

export function answerCompare(
  query: QueryOf<'compare'>,
  earlier: DayRecord | undefined,
  later: DayRecord | undefined,
  index: ReportIndex,
) {
  const absent = [earlier ? undefined : query.earlier, later ? undefined : query.later].filter(Boolean);
  if (!earlier || !later) {
    return answered(
      [
        `There is no report for ${absent.join(' or ')}, so the two days cannot be compared; reports exist for the days the daily job ran.`,
      ],
      [],
    );
  }
  const delta = Math.round((later.summary.score - earlier.summary.score) * 10) / 10;
  const lines = [
    `The score was ${scoreOn(earlier)} and ${scoreOn(later)} (${delta > 0 ? '+' : ''}${delta} points). Failing controls: ` +
      `${earlier.summary.counts.failing} then ${later.summary.counts.failing}.`,
  ];
  return changesAnswer(lines, earlier, later, index);
}

function noReports(period: Period, index: ReportIndex): ComposedAnswer {
  return {
    answer: `There is no report between ${period.from} and ${period.to}, so the report history cannot answer that.`,
    citations: [],
    grounded: false,
    suggestions: declineSuggestions(index),
  };
}

/** Consecutive days with the same status, as "failing 2026-11-11 to 2026-11-15". */
function runsOf(
  id: string,
  days: readonly DayRecord[],
): { status: ControlStatus | undefined; from: string; to: string; days: number }[] {
  const runs: { status: ControlStatus | undefined; from: string; to: string; days: number }[] = [];
  for (const day of days) {
    const status = day.statuses[id];
    const last = runs[runs.length - 1];
    if (last && last.status === status) {
      last.to = day.date;
      last.days += 1;
    } else runs.push({ status, from: day.date, to: day.date, days: 1 });
  }
  return runs;
}

export function answerControlHistory(
  query: QueryOf<'controlHistory'>,
  days: readonly DayRecord[],
  index: ReportIndex,
  findings: readonly DayFinding[] = [],
): ComposedAnswer {
  const { period } = query;
  if (days.length === 0) return noReports(period, index);
  const lines = [
    `From ${period.from} to ${period.to} (${period.phrase}), ${plural(days.length, 'day')} ${days.length === 1 ? 'has' : 'have'} a report` +
      `${days[0]!.date > period.from ? `, the first on ${days[0]!.date}` : ''}.`,
  ];
  const cited = [];
  for (const id of query.controlIds) {
    const entry = index.byId.get(id);
    if (!entry) continue;
    const runs = runsOf(id, days);
    const passingDays = runs.filter((run) => run.status === 'passing').reduce((sum, run) => sum + run.days, 0);
    lines.push(
      '',
      `**${id}** ${entry.result.title}: passing on ${passingDays} of ${plural(days.length, 'day')} with a report` +
        `${runs.length === 1 ? `, ${runs[0]!.status ? statusLabel[runs[0]!.status] : 'not assessed'} on every one` : ''}.`,
      ...runs.map(
        (run, at) =>
          `- ${run.status ? statusLabel[run.status] : 'not assessed'} ${run.from === run.to ? `on ${run.from}` : `from ${run.from} to ${run.to}`}` +
          `${at > 0 && run.status === 'passing' ? ' (fixed)' : ''}${at === runs.length - 1 && run.to === index.report.date ? ', through today' : ''}`,
      ),
    );
    if (entry.result.openSince)
      lines.push(`- open since ${entry.result.openSince}${entry.result.dueDate ? `, due ${entry.result.dueDate}` : ''}`);
    lines.push(...openFindingLines(findings.filter((found) => found.controlId === id)));
    cited.push(entry.result);
  }
  return answered(lines, cited);
}

/** What the open findings of the days said: each distinct message once, with the days it was reported. */
function openFindingLines(findings: readonly DayFinding[]): string[] {
  const byMessage = new Map<string, string[]>();
  for (const { date, finding } of findings) byMessage.set(finding.message, [...(byMessage.get(finding.message) ?? []), date]);
  return [...byMessage].slice(0, 10).map(([message, dates]) => {
    const sorted = [...new Set(dates)].sort();
    const when = sorted.length === 1 ? `on ${sorted[0]}` : `${sorted[0]} to ${sorted.at(-1)}`;
    return `- ${when}: ${escapeMarkdown(message)}`;
  });
}

/** The day whose score moved most against the report before it, in the last 90 days: that day against the one before. */
export function answerBiggestMove(query: QueryOf<'biggestMove'>, days: readonly DayRecord[], index: ReportIndex): ComposedAnswer {
  let best: { at: number; delta: number } | undefined;
  for (let at = 1; at < days.length; at++) {
    const delta = days[at]!.summary.score - days[at - 1]!.summary.score;
    const signed = query.direction === 'down' ? -delta : delta;
    if (signed > 0 && (!best || signed > best.delta)) best = { at, delta: signed };
  }
  if (!best) {
    return answered(
      [
        `The score never ${query.direction === 'down' ? 'fell' : 'rose'} from one report to the next in the ${plural(days.length, 'day')} with a report.`,
      ],
      [],
    );
  }
  const day = days[best.at]!;
  return answerDay({ kind: 'day', date: day.date, phrase: day.date }, days.slice(Math.max(0, best.at - 1), best.at + 1), index);
}
