/**
 * The pieces every answer is written with: control lines, lists, statements and citations, and the declines. Text from
 * the report is escaped, so evidence cannot inject HTML, links or images; citations carry the report's words unescaped,
 * as data for a client to show as text.
 */
import { addDays } from '../../assessment/dates.js';
import type { ControlResult, ControlStatus, Finding, Report } from '../../assessment/model.js';
import { plural } from '@evident/contract';
import type { components } from '../../generated/api-types.js';
import type { ChangeFocus, DeclineReason } from '../question.js';
import type { ReportDays } from '../report-days.js';
import { rankByRisk, type ReportIndex } from '../report-index.js';

export type Citation = components['schemas']['Citation'];

/** An answer as the API gives it, before it has an id and names its report's date. */
export type ComposedAnswer = Omit<components['schemas']['ChatAnswer'], 'id' | 'date'>;

/** What answers read besides the report's index: the report of an earlier date, and the reports of the days before. */
export interface Sources {
  /** The report of an earlier date, for "what changed since <date>"; undefined when there is none. */
  reportOn?: (date: string) => Promise<Report | undefined>;
  /** The reports of earlier days, for trends, comparisons and a control's history. */
  days?: ReportDays;
}

/** Longest list in an answer before "and N more". */
export const listLimit = 15;

export const statusLabel: Record<ControlStatus, string> = {
  passing: 'passing',
  failing: 'failing',
  stale: 'stale',
  missing: 'missing evidence',
  not_applicable: 'not applicable',
};

const outcomeForStatus: Record<ControlStatus, Finding['outcome'][]> = {
  failing: ['fail', 'error'],
  stale: ['stale'],
  missing: ['missing'],
  not_applicable: ['not_applicable'],
  passing: ['pass'],
};

/** A citation of a control, on an evidence item when there is one; a finding is one sentence, so only odd evidence is cut. */
export const citation = (controlId: string, evidenceId: string | undefined, quote: string): Citation => ({
  controlId,
  ...(evidenceId ? { evidenceId } : {}),
  quote: quote.length > 500 ? `${quote.slice(0, 499)}\u2026` : quote,
});

/** The finding that best says why a control has its status. */
export const mainFinding = (result: ControlResult): Finding | undefined =>
  result.findings.find((finding) => outcomeForStatus[result.status].includes(finding.outcome)) ?? result.findings[0];

/** The sentence stating a control's result, quoting its main finding; `day` when the result is an earlier day's. */
export function statementOf(result: ControlResult, day?: string): Citation {
  const finding = mainFinding(result);
  const lead = `${result.id} ${day ? 'was' : 'is'} ${statusLabel[result.status]}${day ? ` on ${day}` : ''}`;
  return citation(
    result.id,
    finding ? finding.evidence[0] : result.evidence[0],
    finding ? `${lead}: ${finding.message}` : `${lead}.`,
  );
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Makes any text inert in Markdown: no raw HTML, the characters of links, images, emphasis, code and tables escaped, and a
 * leading `#`, `-`, `+` or `1.`; line breaks become spaces, so one value cannot start a block. (Bare URLs stay text unless a
 * renderer turns on linkify, which a chat's must not.)
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?|\n|\u2028|\u2029/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/[&<>]/g, (character) => htmlEntities[character]!)
    .replace(/[`*_[\]()!|~#]/g, '\\$&')
    .replace(/^(\s*)([-+=])/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/, '$1\\$2');
}

/** A control as every answer names it: its id in bold and its title. */
export const controlName = (control: { id: string; title: string }) => `**${control.id}** ${escapeMarkdown(control.title)}`;

/** "3 controls are", "1 control is": a count and the verb that agrees with it, `among` between them. */
export const counted = (count: number, noun: string, one: string, many: string, among = '') =>
  `${plural(count, noun)}${among} ${count === 1 ? one : many}`;

/** How a change of each kind is told, of one control and of several ("was fixed", "were fixed"). */
export const changeVerbs: Record<ChangeFocus, [one: string, many: string]> = {
  all: ['changed status', 'changed status'],
  fixed: ['was fixed', 'were fixed'],
  newlyFailing: ['started failing', 'started failing'],
  newlyStale: ['went stale', 'went stale'],
};

/** The controls of `entries`, each once, in order. */
export const resultsIn = (entries: readonly { result: ControlResult }[]) => [...new Set(entries.map(({ result }) => result))];

/** The line that ends a list cut short: "- …and 3 more." */
export const more = (omitted: number, hint?: string): string[] =>
  omitted > 0 ? [`- \u2026and ${omitted} more${hint ? ` (${hint})` : ''}.`] : [];

/** The first `shown` items, then "and N more". */
export const firstOf = (items: readonly string[], shown: number) =>
  items.length > shown ? [...items.slice(0, shown), `and ${items.length - shown} more`] : items;

/** A blank line and `lines`, when there are any. */
export const section = (lines: readonly string[]) => (lines.length > 0 ? ['', ...lines] : []);

/** A finding that fails, cannot be evaluated, or whose evidence is stale or missing. */
export const isOpenFinding = ({ outcome }: { outcome: string }) =>
  outcome === 'fail' || outcome === 'error' || outcome === 'stale' || outcome === 'missing';

/** Sorts by control id. */
export const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);

/** A control's line in a list: "- **IAM-01** Title — failing", then `rest`. */
export const controlLine = (control: Pick<ControlResult, 'id' | 'title' | 'status'>, rest = '') =>
  `- ${controlName(control)} \u2014 ${statusLabel[control.status]}${rest}`;

/** A control's line with its severity, `extra` and what its main finding says (`passes` false: none for a passing control). */
export function summaryLine(control: ControlResult, extra = '', passes = true): string {
  const finding = passes || control.status !== 'passing' ? mainFinding(control) : undefined;
  return controlLine(control, `, ${control.severity}${extra}${finding ? `: ${escapeMarkdown(finding.message)}` : ''}`);
}

/** A line per control, its main finding's message too (`passes` false: none for a passing control), then "…and N more". */
export const controlList = (controls: readonly ControlResult[], omitted = 0, passes = true) => [
  ...controls.map((control) => summaryLine(control, '', passes)),
  ...more(omitted),
];

/** An answer from the report: its lines, and a citation of each control it names. */
export const answered = (lines: string[], results: readonly ControlResult[], suggestions: string[] = []): ComposedAnswer => ({
  answer: lines.join('\n'),
  citations: results.map((result) => statementOf(result)),
  grounded: true,
  suggestions,
});

/** A label from the question, in quotes and escaped. */
export const quoted = (label: string) => `\u201c${escapeMarkdown(label)}\u201d`;

/** Splits catalog guidance into its bullet points, each escaped like any other text. */
export function guidanceBullets(guidance: string): string[] {
  const items: string[] = [];
  for (const line of guidance.split('\n')) {
    // `(?=\S|$)`: the marker's spaces are not given back one by one when the line holds a `\r` `.` stops at.
    const bullet = /^\s*[-*]\s+(?=\S|$)(.*)$/.exec(line);
    if (bullet) items.push(bullet[1]!);
    else if (line.trim() && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
    else if (line.trim()) items.push(line.trim());
  }
  return items.map(escapeMarkdown);
}

/** How to ask about the latest change: "since yesterday" only when the previous report is from yesterday. */
export const changeQuestion = (date: string, previousDate: string | null) =>
  previousDate ? `What changed since ${previousDate === addDays(date, -1) ? 'yesterday' : previousDate}?` : undefined;

/** What a decline suggests asking instead: questions any report can answer, with this report's own ids. */
function declineSuggestions({ report, controls }: ReportIndex): string[] {
  const riskiest = rankByRisk(report.controls.filter((result) => result.status === 'failing'))[0];
  const since = changeQuestion(report.date, report.diff.previousDate);
  return [
    'What is failing?',
    since ? since.replace('What changed', 'How did the score change') : 'What is our score?',
    ...(controls[0] ? [`What is the status of ${controls[0].result.id}?`] : []),
    ...(riskiest ? [`How do we fix ${riskiest.id}?`] : []),
  ];
}

type DeclineCause = DeclineReason | 'no_report' | 'no_history';

const declineLeads: Record<DeclineCause, (date: string, subject: string, previousDate: string | null) => string> = {
  off_topic: (date) => `The report for ${date} does not cover that.`,
  action: (date) =>
    `The report for ${date} does not cover that: this chat reads the report and its history; it changes nothing and contacts no one.`,
  prediction: (date) =>
    `The report for ${date} records what was found up to that day; it does not forecast what will fail or how the score will move.`,
  unknown_subject: (date, subject) => `The report for ${date} does not mention \u201c${subject}\u201d, so it cannot answer that.`,
  no_match: (date, subject) => `The report for ${date} does not cover ${subject ? `\u201c${subject}\u201d` : 'that'}.`,
  no_topic: (date) =>
    `The report for ${date} does not cover that question on its own: name a control (such as IAM-01), a framework ` +
    'requirement (such as CC6.1) or a topic (such as backups).',
  other_day: (date, subject) =>
    `This answer can only use the report for ${date}; it does not say what the report for ${subject} held. Ask what ` +
    `changed since ${subject}, or ask with ${subject} as the report\u2019s date.`,
  invalid_date: (_date, subject) => `\u201c${subject}\u201d is not a calendar date.`,
  // Whether 05/06/2026 is in May or in June depends on where the asker is, so no other format is read.
  date_format: (date, subject) =>
    `\u201c${subject}\u201d is not written as YYYY-MM-DD, and dates in other formats are not read, since the order of ` +
    `day and month differs from place to place. Ask again with the date as YYYY-MM-DD, such as ${date} (the date of this report).`,
  not_earlier: (date, subject) => `The report for ${date} can only look back to an earlier day, and ${subject} is not before it.`,
  no_report: (date, subject, previousDate) =>
    `There is no report for ${subject}, so what it held is not known and the report for ${date} cannot be compared with it.` +
    (previousDate ? ` The previous report is from ${previousDate}.` : ' It is the first report.'),
  no_history: (_date, span) => `There is no report between ${span}, so the report history cannot answer that.`,
};

/** Declines about a day say so alone; the others add what the report can answer. */
const aboutDates = new Set<DeclineCause>(['no_report', 'no_history', 'invalid_date', 'date_format', 'other_day', 'not_earlier']);

/** A question the report cannot answer, declined: why, and (unless it is about a day) what the report can answer. */
export function decline(index: ReportIndex, reason: DeclineCause, subject = ''): ComposedAnswer {
  const { date, controls, diff } = index.report;
  const lead = declineLeads[reason](date, escapeMarkdown(subject), diff.previousDate);
  const rest = aboutDates.has(reason)
    ? ''
    : ` It can only answer from that report: its ${plural(controls.length, 'control')}, their findings and evidence, ` +
      'the catalog\u2019s guidance for them, and how their status changed since an earlier report.';
  return { answer: `${lead}${rest}`, citations: [], grounded: false, suggestions: declineSuggestions(index) };
}
