/**
 * Answers over the report history: how the score moved over a span, what differs between two days, a control's runs of
 * status. Days without a report are said, never filled in; each control whose status differs is cited.
 */
import { addDays } from '../../assessment/dates.js';
import { diffReports } from '../../assessment/report-summary.js';
import type { ControlResult, ControlStatus } from '../../assessment/model.js';
import { controlStatuses, frameworkNames, plural } from '@evident/contract';
import {
  answered,
  byId,
  changeVerbs,
  controlName,
  counted,
  decline,
  escapeMarkdown,
  firstOf,
  isOpenFinding,
  more,
} from './compose.js';
import { section, statusLabel, type ComposedAnswer } from './compose.js';
import type { ChangeFocus, Period, Query, QuestionOf as QueryOf } from '../question.js';
import type { ReportIndex } from '../report-index.js';
import { historyFrom, type DayFinding, type DayRecord, type ReportDays } from '../report-days.js';

type FromHistory<K extends Query['kind']> = (query: QueryOf<K>, index: ReportIndex, days: ReportDays) => Promise<ComposedAnswer>;

const labelOf = (status: ControlStatus | undefined) => (status ? statusLabel[status] : 'not assessed');
const scoreOn = (day: DayRecord) => `**${day.summary.score}** on ${day.date}`;
/** How the question named a span, after its dates, unless it named it by those dates. */
const asSaid = ({ from, to, phrase }: Period) =>
  [from, `${from} to ${to}`, `${from} and ${to}`].includes(phrase) ? '' : ` (${phrase})`;
/** A day's statuses as a report lists its controls. */
const statusList = (day: DayRecord) => Object.entries(day.statuses).map(([id, status]) => ({ id, status }));
const daysWithReport = (days: readonly DayRecord[]) => `${counted(days.length, 'day', 'has', 'have')} a report`;

/** The days of the span without a report, as short ranges ("2026-11-01 to 2026-11-07"): all when few, else the first ten. */
function missingLines({ from, to }: Period, days: readonly DayRecord[]): string[] {
  const have = new Set(days.map((day) => day.date));
  const span: { date: string }[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) span.push({ date });
  const named = runsOf(span, ({ date }) => have.has(date))
    .filter((run) => !run.status)
    .map((run) => (run.from === run.to ? run.from : `${run.from} to ${run.to}`));
  return named.length === 0 ? [] : ['', `Days without a report (not counted): ${firstOf(named, 10).join(', ')}.`];
}

/** Which of the days with a report are `on`, as short ranges (" (2026-11-13 to 2026-11-14)"), when some but not all are. */
function daysNamed(days: readonly DayRecord[], on: readonly DayRecord[]): string {
  if (on.length === 0 || on.length === days.length) return '';
  const kept = new Set(on);
  const named = runsOf(days, (day) => kept.has(day))
    .filter((run) => run.status)
    .map((run) => (run.from === run.to ? run.from : `${run.from} to ${run.to}`));
  return ` (${firstOf(named, 5).join(', ')})`;
}

/** Consecutive days with the same status, as "failing 2026-11-11 to 2026-11-15". */
function runsOf<Day extends { date: string }, S>(days: readonly Day[], statusOn: (day: Day) => S) {
  const runs: { status: S; from: string; to: string; days: number }[] = [];
  for (const day of days) {
    const last = runs.at(-1);
    if (last && last.status === statusOn(day)) Object.assign(last, { to: day.date, days: last.days + 1 });
    else runs.push({ status: statusOn(day), from: day.date, to: day.date, days: 1 });
  }
  return runs;
}

/** A Markdown table: its head, the line under it, a row each. */
const table = (head: string[], rows: (string | number)[][]) =>
  [head, head.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`);

/** Each day's score and counts; a long span by month: how many days have a report, the lowest, highest and last score. */
function scoreTable(days: readonly DayRecord[]): string[] {
  if (days.length <= 31) {
    const rows = days.map(({ date, summary: { score, counts } }) => [date, score, counts.failing, counts.stale, counts.missing]);
    return table(['Day', 'Score', 'Failing', 'Stale', 'Missing'], rows);
  }
  const months = Map.groupBy(days, (day) => day.date.slice(0, 7));
  const rows = [...months].map(([month, inMonth]) => {
    const score = inMonth.map((day) => day.summary.score);
    return [month, score.length, Math.min(...score), Math.max(...score), score.at(-1)!];
  });
  return table(['Month', 'Days with a report', 'Lowest', 'Highest', 'Last'], rows);
}

/** `lines`, then the controls whose status differs between two days (of one kind), with both statuses; the first 40 listed and cited. */
function changesAnswer(
  lines: string[],
  earlier: DayRecord,
  later: DayRecord,
  index: ReportIndex,
  focus: ChangeFocus = 'all',
): ComposedAnswer {
  // One kind of change is counted as the report's own diff counts it ("fixed" is failing to passing).
  const ofFocus =
    focus === 'all' ? undefined : diffReports(statusList(later), { date: earlier.date, controls: statusList(earlier) })[focus];
  const all = Object.entries(later.statuses)
    .filter(([id, status]) => earlier.statuses[id] !== status && (!ofFocus || ofFocus.includes(id)))
    .map(([id, to]) => ({ id, from: earlier.statuses[id], to }))
    .sort(byId);
  const changes = all.slice(0, 40);
  const changeLines = changes.map(({ id, from, to }) => {
    const title = index.byId.get(id)?.result.title;
    return `- **${id}**${title ? ` ${escapeMarkdown(title)}` : ''}: ${labelOf(from)} on ${earlier.date} \u2192 ${statusLabel[to]} on ${later.date}`;
  });
  const [one, many] = changeVerbs[focus];
  const between = `between ${earlier.date} and ${later.date}`;
  const body =
    changes.length === 0
      ? [focus === 'all' ? `No control's status differs ${between}.` : `No control ${one} ${between}.`]
      : [`${counted(all.length, 'control', one, many)} ${between}:`, '', ...changeLines];
  const quote = (id: string, from?: ControlStatus, to?: ControlStatus) =>
    `${id} was ${labelOf(from)} on ${earlier.date} and ${labelOf(to)} on ${later.date}.`;
  const citations = changes.map(({ id, from, to }) => ({ controlId: id, quote: quote(id, from, to) }));
  return { ...answered([...lines, '', ...body, ...more(all.length - changes.length)], []), citations };
}

/** A named framework's readiness at the two ends of a span, when both days have it. */
function readinessMoved(framework: QueryOf<'trend'>['framework'], first: DayRecord, last: DayRecord): string[] {
  const from = framework && first.summary.readiness?.[framework];
  const to = framework && last.summary.readiness?.[framework];
  if (!framework || from === undefined || from === null || to === undefined || to === null) return [];
  return ['', `${frameworkNames[framework]} readiness went from **${from}%** on ${first.date} to **${to}%** on ${last.date}.`];
}

/** A span of one day: that day's score and, of a framework named, its readiness. */
function onOneDay(day: DayRecord, framework: QueryOf<'trend'>['framework'], period: QueryOf<'trend'>['period']): ComposedAnswer {
  const readiness = framework && day.summary.readiness?.[framework];
  const lead =
    framework && readiness !== undefined && readiness !== null
      ? `${frameworkNames[framework]} readiness was **${readiness}%** on ${day.date}${asSaid(period)}; the score was **${day.summary.score}**.`
      : `The score was ${scoreOn(day)}${asSaid(period)}.`;
  return answered([lead, '', ...scoreTable([day])], []);
}

export const answerTrend: FromHistory<'trend'> = async ({ period, framework }, index, history) => {
  const days = await history.between(period.from, period.to);
  const [first, last] = [days[0], days.at(-1)];
  if (!first || !last) return noReports(period, index);
  if (period.from === period.to) return onOneDay(first, framework, period);
  const lowest = days.reduce((low, day) => (day.summary.score < low.summary.score ? day : low));
  const highest = days.reduce((high, day) => (day.summary.score > high.summary.score ? day : high));
  const [start, end] = [first.summary.score, last.summary.score];
  const direction = end > start ? 'rose' : end < start ? 'fell' : 'ended where it started';
  const lines = [
    `Over ${period.from} to ${period.to}${asSaid(period)}, ${daysWithReport(days)}. ` +
      `The score ${direction}: ${scoreOn(first)}, ${scoreOn(last)}. Lowest ${scoreOn(lowest)}; highest ${scoreOn(highest)}.`,
    ...readinessMoved(framework, first, last),
    ...missingLines(period, days),
    '',
    ...scoreTable(days),
  ];
  return changesAnswer(lines, first, last, index);
};

export const answerDay: FromHistory<'day'> = async ({ date, phrase, focus }, index, history) =>
  dayAnswer(date, phrase, await history.between(addDays(date, -14), date), index, focus);

/** One day's score and what changed from the report before it; `days` ends on that day when it has a report. */
function dayAnswer(
  date: string,
  phrase: string,
  days: readonly DayRecord[],
  index: ReportIndex,
  focus?: ChangeFocus,
): ComposedAnswer {
  const [before, day] = [days.at(-2), days.at(-1)];
  if (!day || day.date !== date) return noReports({ from: date, to: date, phrase }, index);
  if (!before)
    return answered([`The score was ${scoreOn(day)}; no earlier report is within two weeks of it to compare with.`], []);
  const delta = Math.round((day.summary.score - before.summary.score) * 10) / 10;
  const moved = delta === 0 ? 'unchanged' : `${delta > 0 ? 'up' : 'down'} ${Math.abs(delta)} points`;
  const lead = `The score was ${scoreOn(day)}, ${moved} from ${scoreOn(before)}, the report before it.`;
  return changesAnswer([lead], before, day, index, focus);
}

/** " and passing today", or " and no longer failing today" when today is every other status. */
function todayPart(now: readonly ControlStatus[], asked: readonly ControlStatus[]): string {
  const rest = controlStatuses.every((status) => now.includes(status) !== asked.includes(status));
  const named = (rest ? asked : now).map((status) => statusLabel[status]).join(' or ');
  return rest ? ` and no longer ${named} today` : ` and ${named} today`;
}

export const answerThroughout: FromHistory<'throughout'> = async (query, index, history) => {
  const { period, statuses, every, controlIds, now } = query;
  const days = await history.between(period.from, period.to);
  if (days.length === 0) return noReports(period, index);
  const counts = index.controls
    .filter(({ result }) => !controlIds || controlIds.includes(result.id))
    .map(({ result }) => {
      const on = days.filter((day) => statuses.includes(day.statuses[result.id]!));
      return { result, days: on.length, when: daysNamed(days, on) };
    });
  const matching = counts.filter(
    (entry) => (!now || now.includes(entry.result.status)) && (every ? entry.days === days.length : entry.days > 0),
  );
  // "Did LOG-04 pass on any day?" No: how each control asked about stood instead, cited.
  const shown = matching.length === 0 && controlIds ? counts : matching;
  const oneDay = period.from === period.to;
  const lead =
    `${oneDay ? '' : `Over ${period.from} to ${period.to}${asSaid(period)}, ${daysWithReport(days)}; `}` +
    `${counted(matching.length, 'control', 'was', 'were')} ${statuses.map((status) => statusLabel[status]).join(' or ')}` +
    `${oneDay ? ` on ${period.from}${asSaid(period)}` : every ? ' on every one of them' : ' on at least one'}` +
    `${now ? todayPart(now, statuses) : ''}` +
    `${controlIds ? ` among ${controlIds.length === 1 ? controlIds[0] : `the ${controlIds.length} controls asked about`}` : ''}` +
    `${matching.length > 0 ? ':' : shown.length > 0 ? `. ${shown.length === 1 ? 'It was' : 'They were'}:` : '.'}`;
  const lines = shown.map(
    ({ result, days: n, when }) =>
      `- ${controlName(result)} \u2014 ${oneDay ? '' : `${n} of ${days.length} days${when}; `}today ${statusLabel[result.status]}`,
  );
  const cited = shown.map(({ result }) => result);
  const missing = missingLines(period, days);
  return answered(shown === matching ? [lead, ...missing, ...section(lines)] : [lead, ...section(lines), ...missing], cited);
};

export const answerCompare: FromHistory<'compare'> = async (query, index, history) => {
  const [earlier] = await history.between(query.earlier, query.earlier);
  const [later] = await history.between(query.later, query.later);
  if (!earlier || !later) {
    const absent = [earlier ? undefined : query.earlier, later ? undefined : query.later].filter(Boolean);
    const why = 'so the two days cannot be compared; reports exist for the days the daily job ran.';
    return answered([`There is no report for ${absent.join(' or ')}, ${why}`], []);
  }
  const delta = Math.round((later.summary.score - earlier.summary.score) * 10) / 10;
  const lead =
    `The score was ${scoreOn(earlier)} and ${scoreOn(later)} (${delta > 0 ? '+' : ''}${delta} points). Failing controls: ` +
    `${earlier.summary.counts.failing} then ${later.summary.counts.failing}.`;
  return changesAnswer([lead], earlier, later, index);
};

const noReports = ({ from, to }: Period, index: ReportIndex) => decline(index, 'no_history', `${from} and ${to}`);

/** Open findings' messages read per control, for at most this many controls: each is a day's whole report. */
const findingsFor = 3;

/** A control's days by status over the span, when it is open since and due, and what its open findings said. */
function controlRuns(result: ControlResult, days: DayRecord[], findings: DayFinding[], today: string): string[] {
  const runs = runsOf(days, (day): ControlStatus | undefined => day.statuses[result.id]);
  const passingDays = runs.filter((run) => run.status === 'passing').reduce((sum, run) => sum + run.days, 0);
  const runLines = runs.map(
    (run, at) =>
      `- ${labelOf(run.status)} ${run.from === run.to ? `on ${run.from}` : `from ${run.from} to ${run.to}`}` +
      `${at > 0 && run.status === 'passing' ? ' (fixed)' : ''}${at === runs.length - 1 && run.to === today ? ', through today' : ''}`,
  );
  return [
    '',
    `**${result.id}** ${result.title}: passing on ${passingDays} of ${plural(days.length, 'day')} with a report` +
      `${runs.length === 1 ? `, ${labelOf(runs[0]!.status)} on every one` : ''}.`,
    ...runLines,
    ...(result.openSince ? [`- open since ${result.openSince}${result.dueDate ? `, due ${result.dueDate}` : ''}`] : []),
    ...openFindingLines(findings.filter((found) => found.controlId === result.id)),
  ];
}

export const answerControlHistory: FromHistory<'controlHistory'> = async ({ period, controlIds }, index, history) => {
  const days = await history.between(period.from, period.to);
  if (days.length === 0) return noReports(period, index);
  // What the controls' open findings said over the span, when the history can read findings.
  const keep = (finding: { outcome: string }, controlId: string) => controlIds.includes(controlId) && isOpenFinding(finding);
  const findings =
    controlIds.length <= findingsFor && history.findings ? await history.findings(period.from, period.to, keep) : [];
  const first = days[0]!.date > period.from ? `, the first on ${days[0]!.date}` : '';
  const cited = controlIds.flatMap((id) => index.byId.get(id)?.result ?? []);
  const lines = cited.flatMap((result) => controlRuns(result, days, findings, index.report.date));
  return answered([`From ${period.from} to ${period.to}${asSaid(period)}, ${daysWithReport(days)}${first}.`, ...lines], cited);
};

/** What the open findings of the days said: each distinct message once, with the days it was reported. */
function openFindingLines(findings: readonly DayFinding[]): string[] {
  return [...Map.groupBy(findings, ({ finding }) => finding.message)].slice(0, 10).map(([message, found]) => {
    const sorted = [...new Set(found.map(({ date }) => date))].sort();
    return `- ${sorted.length === 1 ? `on ${sorted[0]}` : `${sorted[0]} to ${sorted.at(-1)}`}: ${escapeMarkdown(message)}`;
  });
}

/** The day whose score moved most against the report before it, in the last 90 days: that day against the one before. */
export const answerBiggestMove: FromHistory<'biggestMove'> = async ({ direction }, index, history) => {
  const days = await history.between(historyFrom(index.report.date), index.report.date);
  const sign = direction === 'down' ? -1 : 1;
  let best: { at: number; delta: number } | undefined;
  for (let at = 1; at < days.length; at++) {
    const delta = sign * (days[at]!.summary.score - days[at - 1]!.summary.score);
    if (delta > 0 && (!best || delta > best.delta)) best = { at, delta };
  }
  if (!best) {
    const moved = direction === 'down' ? 'fell' : 'rose';
    const never = `The score never ${moved} from one report to the next in the ${plural(days.length, 'day')} with a report.`;
    return answered([never], []);
  }
  const { date } = days[best.at]!;
  return dayAnswer(date, date, days.slice(Math.max(0, best.at - 1), best.at + 1), index);
};
