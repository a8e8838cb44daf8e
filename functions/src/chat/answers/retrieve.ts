/**
 * From a question to exactly the part of the report an answer may use: the controls it concerns with the findings worth
 * showing, the diff against an earlier day (or that day's own list), and a citation quoting the report for each. The
 * composer sees this and nothing else, so it cannot cite what was not retrieved.
 */
import { addDays } from '../../assessment/dates.js';
import { diffReports, summaryOf } from '../../assessment/report-summary.js';
import type { Control, ControlResult, ControlStatus, Finding, Report } from '../../assessment/model.js';
import type { components } from '../../generated/api-types.js';
import type { Intent, Topic } from '../intent-model.js';
import { attentionStatuses } from '../offline/question-cues.js';
import { rankByRisk } from '../offline/topics.js';
import type { IndexedControl, ReportIndex } from '../report-index.js';

export type Citation = components['schemas']['Citation'];
export type AnswerIntent = Exclude<Intent, { kind: 'decline' }>;

/** Longest quote kept in a citation; a finding is one sentence, so only odd evidence gets cut. */
const quoteChars = 500;
/** Longest list in an answer before "and N more". */
export const listLimit = 10;

/**
 * A control's result as the answer may use it: the findings worth showing (problems first), the catalog's control (for
 * objectives, guidance and mappings), the sentence stating its result ("IAM-08 is failing: …", "was failing on <day>")
 * and a citation per shown finding, with the evidence item it rests on.
 */
export type ContextControl = ControlResult & {
  shown: Finding[];
  control: Control | undefined;
  statement: Citation;
  findingCitations: Citation[];
};

export type ContextChange = Pick<ControlResult, 'id' | 'title' | 'severity'> & {
  from: ControlStatus;
  to: ControlStatus;
  citation: Citation;
};

/**
 * The day's report and the controls the answer is about, in the order to present them (and how many more matched). Only
 * for some questions: the earlier day a list is of (`controls` are then its results); that a filtered list matched none
 * of the topic's controls (which are listed, to say so); a change question's earlier report, its score and the changes
 * asked about; the earlier day asked about that has no report.
 */
export interface RetrievedContext {
  intent: AnswerIntent;
  report: Report;
  controls: ContextControl[];
  omitted: number;
  listedOn?: string;
  unmatchedTopic?: boolean;
  change?: { since: string; sinceScore: number; changes: ContextChange[] };
  missingReport?: string;
}

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

/** A citation of a control, on an evidence item when there is one, its quote cut to `quoteChars`. */
const citation = (controlId: string, evidenceId: string | undefined, quote: string): Citation => ({
  controlId,
  ...(evidenceId ? { evidenceId } : {}),
  quote: quote.length > quoteChars ? `${quote.slice(0, quoteChars - 1)}\u2026` : quote,
});

/** The finding that best says why a control has its status. */
export function mainFinding(result: ControlResult): Finding | undefined {
  return result.findings.find((finding) => outcomeForStatus[result.status].includes(finding.outcome)) ?? result.findings[0];
}

/** The sentence stating a control's result, quoting its main finding; `day` when the result is an earlier day's. */
export function statementOf(result: ControlResult, day?: string): Citation {
  const finding = mainFinding(result);
  const lead = `${result.id} ${day ? 'was' : 'is'} ${statusLabel[result.status]}${day ? ` on ${day}` : ''}`;
  const evidenceId = finding ? finding.evidence[0] : result.evidence[0];
  return citation(result.id, evidenceId, finding ? `${lead}: ${finding.message}` : `${lead}.`);
}

const isProblem = (finding: Finding) => finding.outcome !== 'pass' && finding.outcome !== 'info';

/** A control as the answer may use it: problems first, then passes, at most `limit`; `day` when the result is an earlier day's. */
function contextControl({ result, control }: IndexedControl, limit: number, day?: string): ContextControl {
  const { findings } = result;
  const shown = [...findings.filter(isProblem), ...findings.filter((finding) => !isProblem(finding))].slice(0, limit);
  const findingCitations = shown.map(({ evidence, message }) => citation(result.id, evidence[0], message));
  return { ...result, shown, control, statement: statementOf(result, day), findingCitations };
}

/** Findings shown per control, by the kind of question: one, unless the question is about the control's findings. */
const findingLimits: Partial<Record<AnswerIntent['kind'], number>> = { status: 5, evidence: 8, fix: 5, why: 5 };

type Entries = Pick<ReportIndex, 'controls' | 'byId'>;

const entriesOf = (index: Entries, topic: Topic | undefined): IndexedControl[] =>
  topic ? topic.controlIds.flatMap((id) => index.byId.get(id) ?? []) : index.controls;

/** An earlier day's results, each with the catalog's control as today's index has it. */
function entriesOn(index: ReportIndex, results: readonly ControlResult[]): Entries {
  const controls = results.map((result) => ({ control: undefined, frameworks: [], ...index.byId.get(result.id), result }));
  return { controls, byId: new Map(controls.map((entry) => [entry.result.id, entry])) };
}

type ReportOn = (date: string) => Promise<Report | undefined>;
type Sources = { reportOn?: ReportOn };
type Earlier = Pick<Report, 'date' | 'controls' | 'summary'>;

/** Controls a summary of the report lists; the rest are counted. */
const postureShown = 40;

export async function retrieve(intent: AnswerIntent, index: ReportIndex, { reportOn }: Sources = {}): Promise<RetrievedContext> {
  const { report } = index;
  const base = { intent, report };
  const limit = findingLimits[intent.kind] ?? 1;
  if (intent.kind === 'posture') {
    // Every control that needs attention, riskiest first, up to the length of a list answer.
    const open = index.controls.map(({ result }) => result).filter((result) => attentionStatuses.includes(result.status));
    const attention = rankByRisk(open);
    const controls = attention.slice(0, postureShown).map((result) => contextControl(index.byId.get(result.id)!, limit));
    return { ...base, controls, omitted: attention.length - controls.length };
  }
  if (intent.kind === 'changes') return { ...base, ...(await changesSince(intent, index, limit, reportOn)) };
  if (intent.kind !== 'list') {
    const entries = entriesOf(index, intent.topic);
    const controls = entries.slice(0, listLimit).map((entry) => contextControl(entry, limit));
    return { ...base, controls, omitted: entries.length - controls.length };
  }
  if (!intent.on) return { ...base, ...listed(intent, entriesOf(index, intent.topic), limit) };
  // Only the day's own report will do: the report's diff knows earlier statuses, not earlier findings.
  const wanted = intent.on.date ?? report.diff.previousDate ?? addDays(report.date, -1);
  const earlier = await reportOn?.(wanted);
  if (!earlier) return { ...base, controls: [], omitted: 0, missingReport: wanted };
  const topic = entriesOf(entriesOn(index, earlier.controls), intent.topic);
  return { ...base, ...listed(intent, topic, limit, earlier.date), listedOn: earlier.date };
}

/** The day a change question compares with: the caller's stored report of that day, or the report's own previous day. */
async function earlierReport(report: Report, date: string | null, reportOn?: ReportOn): Promise<Earlier | { missing: string }> {
  const previousDate = report.diff.previousDate;
  const wanted = date ?? previousDate;
  if (!wanted) return { missing: addDays(report.date, -1) };
  const stored = wanted === report.date ? undefined : await reportOn?.(wanted);
  if (stored) return stored;
  if (wanted !== previousDate) return { missing: wanted };
  // The diff lists changed controls only; the rest had the status they have now.
  const from = new Map(report.diff.changes.map((change) => [change.id, change.from]));
  const controls = report.controls.map((control) => ({ ...control, status: from.get(control.id) ?? control.status }));
  return { date: previousDate, controls, summary: summaryOf(controls) };
}

type Retrieved = Omit<RetrievedContext, 'intent' | 'report'>;
type IntentOf<K extends AnswerIntent['kind']> = Extract<AnswerIntent, { kind: K }>;

/** A change question's context: the changes since the earlier day it asks about, those of its topic and focus. */
async function changesSince(intent: IntentOf<'changes'>, index: ReportIndex, limit: number, reportOn?: ReportOn) {
  const { since, topic, focus } = intent;
  const { report } = index;
  const earlier = await earlierReport(report, since.date, reportOn);
  if ('missing' in earlier) return { controls: [], omitted: 0, missingReport: earlier.missing };
  const diff = diffReports(report.controls, earlier);
  const topicIds = topic && new Set(topic.controlIds);
  const changes = diff.changes.flatMap(({ id, from, to }) => {
    if ((topicIds && !topicIds.has(id)) || (focus !== 'all' && !diff[focus].includes(id))) return [];
    const { title, severity } = index.byId.get(id)!.result;
    const quote = `${id} was ${statusLabel[from]} on ${earlier.date} and is ${statusLabel[to]} on ${report.date}.`;
    return [{ id, title, severity, from, to, citation: { controlId: id, quote } }];
  });
  // None changed among the topic's controls: they are listed as they are now, to say so.
  const unchanged = changes.length === 0 && topic ? entriesOf(index, topic).slice(0, listLimit) : [];
  const controls = unchanged.map((entry) => contextControl(entry, limit));
  const change = { since: earlier.date, sinceScore: earlier.summary.score, changes };
  return { controls, omitted: 0, unmatchedTopic: controls.length > 0, change };
}

/** The controls of `topic` in the listed statuses, riskiest first; `day` when they are an earlier day's results. */
function listed(intent: IntentOf<'list'>, topic: IndexedControl[], limit: number, day?: string): Retrieved {
  const { statuses, severities } = intent;
  const asked = ({ result }: IndexedControl) =>
    statuses.includes(result.status) && (!severities || severities.includes(result.severity));
  const matching = rankByRisk(topic.filter(asked).map((entry) => ({ ...entry.result, entry })));
  // "Are any backup controls failing?" — no: say what they are instead, citing each.
  const unmatchedTopic = matching.length === 0 && intent.topic !== undefined;
  // Each status gets its own list of at most `listLimit`, so "needs attention" shows every group.
  const byStatus = statuses.flatMap((status) => matching.filter((entry) => entry.status === status).slice(0, listLimit));
  const shown = unmatchedTopic
    ? topic.slice(0, listLimit)
    : (intent.limit ? matching.slice(0, intent.limit) : byStatus).map(({ entry }) => entry);
  const controls = shown.map((entry) => contextControl(entry, limit, day));
  return { unmatchedTopic, controls, omitted: (unmatchedTopic ? topic.length : matching.length) - shown.length };
}

/** How to ask about the latest change: "since yesterday" only when the previous report is from yesterday. */
export const changeQuestion = (date: string, previousDate: string | null) =>
  previousDate ? `What changed since ${previousDate === addDays(date, -1) ? 'yesterday' : previousDate}?` : undefined;

/** Questions any report can answer, with this report's own ids. */
export function declineSuggestions(index: ReportIndex): string[] {
  const results = index.controls.map((entry) => entry.result);
  const riskiest = rankByRisk(results.filter((result) => result.status === 'failing'))[0];
  const since = changeQuestion(index.report.date, index.report.diff.previousDate);
  return [
    'What is failing?',
    since ? since.replace('What changed', 'How did the score change') : 'What is our score?',
    ...(results[0] ? [`What is the status of ${results[0].id}?`] : []),
    ...(riskiest ? [`How do we fix ${riskiest.id}?`] : []),
  ];
}

/** What a decline needs to know about the report: its day, its size and what to suggest instead. */
export interface DeclineScope {
  date: string;
  controls: number;
  /** The report the day's own diff compares with, to offer when another day has no report. */
  previousDate: string | null;
  suggestions: string[];
}

export const declineScope = (index: ReportIndex): DeclineScope => ({
  date: index.report.date,
  controls: index.report.controls.length,
  previousDate: index.report.diff.previousDate,
  suggestions: declineSuggestions(index),
});
