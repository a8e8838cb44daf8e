/**
 * From a question to exactly the part of the report an answer may use: the controls it concerns with the findings worth
 * showing, the diff against an earlier day, and a citation quoting the report for each. The composer sees only this, so
 * it cannot cite what was not retrieved.
 */
import { addDays } from '../../assessment/dates.js';
import { diffReports, summaryOf } from '../../assessment/report-summary.js';
import type { Control, ControlResult, ControlStatus, Finding, Report } from '../../assessment/model.js';
import { isOpenStatus } from '@evident/contract';
import type { components } from '../../generated/api-types.js';
import type { Intent } from '../intent-model.js';
import { rankByRisk } from '../offline/topics.js';
import type { IndexedControl, ReportIndex } from '../report-index.js';

export type Citation = components['schemas']['Citation'];
export type AnswerIntent = Exclude<Intent, { kind: 'decline' }>;
type IntentOf<K extends AnswerIntent['kind']> = Extract<AnswerIntent, { kind: K }>;

/** Longest list in an answer before "and N more". */
export const listLimit = 10;

/** A control's result with the findings worth showing (problems first), its catalog entry, its statement and citations. */
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
 * The controls an answer is about, in order, and how many more matched. `listedOn`: the earlier day a list is of;
 * `unmatchedTopic`: a filtered list matched none of its topic's controls (listed instead, to say so); `change`: a change
 * question's earlier report; `missingReport`: the earlier day asked about has no report.
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

/** A citation of a control, on an evidence item when there is one; a finding is one sentence, so only odd evidence is cut. */
const citation = (controlId: string, evidenceId: string | undefined, quote: string): Citation => ({
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

const isProblem = (finding: Finding) => finding.outcome !== 'pass' && finding.outcome !== 'info';

/** The first `shown` entries as the answer may use them (at most `limit` findings each), and how many are left out. */
function contextOf(entries: readonly IndexedControl[], shown: number, limit: number, day?: string) {
  const controls = entries.slice(0, shown).map(({ result, control }): ContextControl => {
    const problemsFirst = [...result.findings.filter(isProblem), ...result.findings.filter((finding) => !isProblem(finding))];
    const findings = problemsFirst.slice(0, limit);
    const findingCitations = findings.map(({ evidence, message }) => citation(result.id, evidence[0], message));
    return { ...result, shown: findings, control, statement: statementOf(result, day), findingCitations };
  });
  return { controls, omitted: entries.length - controls.length };
}

/** Findings shown per control: one, unless the question is about the control's findings. */
const findingLimits: Partial<Record<AnswerIntent['kind'], number>> = { status: 5, evidence: 8, fix: 5, why: 5 };

type Entries = Pick<ReportIndex, 'controls' | 'byId'>;
type ReportOn = (date: string) => Promise<Report | undefined>;

const entriesOf = (index: Entries, topic: { controlIds: string[] } | undefined): IndexedControl[] =>
  topic ? topic.controlIds.flatMap((id) => index.byId.get(id) ?? []) : index.controls;

/** An earlier day's results, each with the catalog's control as today's index has it. */
function entriesOn(index: ReportIndex, results: readonly ControlResult[]): Entries {
  const controls = results.map((result) => ({ control: undefined, frameworks: [], ...index.byId.get(result.id), result }));
  return { controls, byId: new Map(controls.map((entry) => [entry.result.id, entry])) };
}

export async function retrieve(
  intent: AnswerIntent,
  index: ReportIndex,
  { reportOn }: { reportOn?: ReportOn } = {},
): Promise<RetrievedContext> {
  const { report } = index;
  const base = { intent, report };
  const limit = findingLimits[intent.kind] ?? 1;
  if (intent.kind === 'changes') return { ...base, ...(await changesSince(intent, index, limit, reportOn)) };
  if (intent.kind === 'posture') {
    // A summary lists the first 40 controls that need attention, riskiest first, and counts the rest.
    const open = rankByRisk(index.controls.filter(({ result }) => isOpenStatus(result.status)).map(withEntry));
    const entries = open.map(({ entry }) => entry);
    return { ...base, ...contextOf(entries, 40, limit) };
  }
  if (intent.kind !== 'list') return { ...base, ...contextOf(entriesOf(index, intent.topic), listLimit, limit) };
  if (!intent.on) return { ...base, ...listed(intent, entriesOf(index, intent.topic), limit) };
  // Only the day's own report will do: the report's diff knows earlier statuses, not earlier findings.
  const wanted = intent.on.date ?? report.diff.previousDate ?? addDays(report.date, -1);
  const earlier = await reportOn?.(wanted);
  if (!earlier) return { ...base, controls: [], omitted: 0, missingReport: wanted };
  const entries = entriesOf(entriesOn(index, earlier.controls), intent.topic);
  return { ...base, ...listed(intent, entries, limit, earlier.date), listedOn: earlier.date };
}

const withEntry = (entry: IndexedControl) => ({ ...entry.result, entry });

/** The day a change question compares with: the caller's stored report of that day, or the report's own previous day. */
async function earlierReport(report: Report, date: string | null, reportOn?: ReportOn) {
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

/** A change question's context: the changes since the earlier day it asks about, those of its topic and focus. */
async function changesSince(
  { since, topic, focus }: IntentOf<'changes'>,
  index: ReportIndex,
  limit: number,
  reportOn?: ReportOn,
) {
  const { report } = index;
  const earlier = await earlierReport(report, since.date, reportOn);
  if ('missing' in earlier) return { controls: [], omitted: 0, missingReport: earlier.missing };
  const diff = diffReports(report.controls, earlier);
  const changes = diff.changes.flatMap(({ id, from, to }) => {
    if ((topic && !topic.controlIds.includes(id)) || (focus !== 'all' && !diff[focus].includes(id))) return [];
    const { title, severity } = index.byId.get(id)!.result;
    const quote = `${id} was ${statusLabel[from]} on ${earlier.date} and is ${statusLabel[to]} on ${report.date}.`;
    return [{ id, title, severity, from, to, citation: { controlId: id, quote } }];
  });
  // None changed among the topic's controls: they are listed as they are now, to say so.
  const { controls } = contextOf(changes.length === 0 && topic ? entriesOf(index, topic) : [], listLimit, limit);
  const change = { since: earlier.date, sinceScore: earlier.summary.score, changes };
  return { controls, omitted: 0, unmatchedTopic: controls.length > 0, change };
}

/** The controls of `topic` in the listed statuses, riskiest first; `day` when they are an earlier day's results. */
function listed(intent: IntentOf<'list'>, topic: IndexedControl[], limit: number, day?: string) {
  const { statuses, severities } = intent;
  const asked = ({ result }: IndexedControl) =>
    statuses.includes(result.status) && (!severities || severities.includes(result.severity));
  const matching = rankByRisk(topic.filter(asked).map(withEntry));
  // "Are any backup controls failing?" — no: say what they are instead, citing each.
  if (matching.length === 0 && intent.topic) return { unmatchedTopic: true, ...contextOf(topic, listLimit, limit, day) };
  // Each status gets its own list of at most `listLimit`, so "needs attention" shows every group.
  const byStatus = statuses.flatMap((status) => matching.filter((entry) => entry.status === status).slice(0, listLimit));
  const shown = (intent.limit ? matching.slice(0, intent.limit) : byStatus).map(({ entry }) => entry);
  const { controls } = contextOf(shown, shown.length, limit, day);
  return { unmatchedTopic: false, controls, omitted: matching.length - shown.length };
}

/** How to ask about the latest change: "since yesterday" only when the previous report is from yesterday. */
export const changeQuestion = (date: string, previousDate: string | null) =>
  previousDate ? `What changed since ${previousDate === addDays(date, -1) ? 'yesterday' : previousDate}?` : undefined;

/** What a decline needs to know about the report: its day, its size, the day its diff compares with, what to ask instead. */
export interface DeclineScope {
  date: string;
  controls: number;
  previousDate: string | null;
  suggestions: string[];
}

/** A decline's scope, suggesting questions any report can answer, with this report's own ids. */
export function declineScope({ report, controls }: ReportIndex): DeclineScope {
  const riskiest = rankByRisk(report.controls.filter((result) => result.status === 'failing'))[0];
  const since = changeQuestion(report.date, report.diff.previousDate);
  const suggestions = [
    'What is failing?',
    since ? since.replace('What changed', 'How did the score change') : 'What is our score?',
    ...(controls[0] ? [`What is the status of ${controls[0].result.id}?`] : []),
    ...(riskiest ? [`How do we fix ${riskiest.id}?`] : []),
  ];
  return { date: report.date, controls: report.controls.length, previousDate: report.diff.previousDate, suggestions };
}
