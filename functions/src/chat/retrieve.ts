/**
 * Retrieval: from an intent to exactly the part of the report an answer may use — the controls
 * it concerns with the findings worth showing, the diff against an earlier day (or that day's own
 * list, from its own report), and for each a citation that quotes the report. Whoever composes the answer (the built-in composer or a
 * language model) sees this and nothing else, so it cannot cite what was not retrieved.
 */
import { addDays } from '../assessment/dates.js';
import { diffReports, summaryOf } from '../assessment/report-summary.js';
import type {
  ControlResult,
  ControlStatus,
  Finding,
  FrameworkMappings,
  Report,
  ReportSummary,
  Severity,
} from '../assessment/model.js';
import type { components } from '../generated/api-types.js';
import type { Intent, Topic } from './intent-model.js';
import { attentionStatuses } from './question-cues.js';
import { rankByRisk } from './topics.js';
import type { IndexedControl, ReportIndex } from './report-index.js';

export type Citation = components['schemas']['Citation'];
export type AnswerIntent = Exclude<Intent, { kind: 'decline' }>;

/** Longest quote kept in a citation; a finding is one sentence, so only odd evidence gets cut. */
const quoteChars = 500;
/** Longest list in an answer before "and N more". */
export const listLimit = 10;

export interface ContextControl {
  id: string;
  title: string;
  family: string;
  severity: Severity;
  status: ControlStatus;
  /** The message of the finding that best says why it has its status. */
  headline: string | undefined;
  /** The findings worth showing for this question, problems first. */
  findings: Finding[];
  /** How many findings the result has in all. */
  findingCount: number;
  /** Every evidence item the result considered. */
  evidence: string[];
  frameworks: string[];
  /** The same requirements by framework; empty lists when the catalog lacks the control. */
  mappings: FrameworkMappings;
  /** The catalog's objective as Markdown (for "what is it for"); empty when the catalog lacks the control. */
  objective: string;
  /** The catalog's guidance as Markdown (for "how do I fix it"); empty when the catalog lacks the control. */
  guidance: string;
  /** The sentence stating its result, quoting its main finding: "IAM-08 is failing: …" (or "was failing on <day>: …"). */
  statement: Citation;
  /** One per shown finding, with the evidence item it rests on. */
  findingCitations: Citation[];
}

export interface ContextChange {
  id: string;
  title: string;
  severity: Severity;
  from: ControlStatus;
  to: ControlStatus;
  citation: Citation;
}

export interface ChangeContext {
  /** The earlier report compared with. */
  since: string;
  sinceScore: number;
  changes: ContextChange[];
}

export interface RetrievedContext {
  /** The report's day. */
  date: string;
  intent: AnswerIntent;
  summary: ReportSummary;
  /** The previous report's day, from the report's own diff, and how many controls changed since. */
  previousDate: string | null;
  changedSincePrevious: number;
  /** The controls the answer is about, in the order to present them. */
  controls: ContextControl[];
  /** For a list of an earlier day ("what failed on 2026-11-18"): that day; `controls` are then its results. */
  listedOn?: string;
  /** How many more controls matched than are listed. */
  omitted: number;
  /** For a filtered list whose filter matched none of the topic's controls: those controls, to say so. */
  unmatchedTopic: boolean;
  change?: ChangeContext;
  /** Which earlier day was asked about when there is no report for it. */
  missingReport?: string;
  /** How to decline instead, should whoever composes find nothing it may say. */
  scope: DeclineScope;
}

export const statusLabel: Record<ControlStatus, string> = {
  passing: 'passing',
  failing: 'failing',
  stale: 'stale',
  missing: 'missing evidence',
  not_applicable: 'not applicable',
};

const problemOutcomes = new Set<Finding['outcome']>(['fail', 'error', 'stale', 'missing', 'not_applicable']);
const outcomeForStatus: Record<ControlStatus, Finding['outcome'][]> = {
  failing: ['fail', 'error'],
  stale: ['stale'],
  missing: ['missing'],
  not_applicable: ['not_applicable'],
  passing: ['pass'],
};

const cut = (text: string) => (text.length > quoteChars ? `${text.slice(0, quoteChars - 1)}\u2026` : text);

/** The finding that best says why a control has its status. */
export function mainFinding(result: ControlResult): Finding | undefined {
  const wanted = outcomeForStatus[result.status];
  return result.findings.find((finding) => wanted.includes(finding.outcome)) ?? result.findings[0];
}

export function statementOf(result: ControlResult, day: string | undefined): Citation {
  const finding = mainFinding(result);
  const lead = day ? `${result.id} was ${statusLabel[result.status]} on ${day}` : `${result.id} is ${statusLabel[result.status]}`;
  const evidenceId = finding?.evidence[0] ?? (finding ? undefined : result.evidence[0]);
  return {
    controlId: result.id,
    ...(evidenceId ? { evidenceId } : {}),
    quote: cut(finding ? `${lead}: ${finding.message}` : `${lead}.`),
  };
}

/** Problems first, then passes; at most `limit`. */
function findingsToShow(result: ControlResult, limit: number): Finding[] {
  const problems = result.findings.filter((finding) => problemOutcomes.has(finding.outcome));
  const passes = result.findings.filter((finding) => !problemOutcomes.has(finding.outcome));
  return [...problems, ...passes].slice(0, limit);
}

const noMappings: FrameworkMappings = { soc2: [], iso27001: [], nist80053: [] };

/** A control as the answer may use it; `day` when the result is an earlier day's, not the report's. */
function contextControl(entry: IndexedControl, findingLimit: number, day?: string): ContextControl {
  const { result } = entry;
  const findings = findingsToShow(result, findingLimit);
  return {
    id: result.id,
    headline: mainFinding(result)?.message,
    title: result.title,
    family: result.family,
    severity: result.severity,
    status: result.status,
    findings,
    findingCount: result.findings.length,
    evidence: result.evidence,
    frameworks: entry.frameworks,
    mappings: entry.control?.frameworks ?? noMappings,
    objective: entry.control?.objectiveMarkdown ?? '',
    guidance: entry.control?.guidanceMarkdown ?? '',
    statement: statementOf(result, day),
    findingCitations: findings.map((finding) => ({
      controlId: result.id,
      ...(finding.evidence[0] ? { evidenceId: finding.evidence[0] } : {}),
      quote: cut(finding.message),
    })),
  };
}

const findingLimits: Record<AnswerIntent['kind'], number> = {
  posture: 1,
  list: 1,
  status: 5,
  evidence: 8,
  fix: 5,
  why: 5,
  changes: 1,
  objective: 1,
  frameworks: 1,
};

function entriesOf(index: Pick<ReportIndex, 'controls' | 'byId'>, topic: Topic | undefined): IndexedControl[] {
  if (!topic) return index.controls;
  return topic.controlIds.flatMap((id) => {
    const entry = index.byId.get(id);
    return entry ? [entry] : [];
  });
}

/** An earlier day's results, each with the catalog's control as today's index has it. */
function entriesOn(index: ReportIndex, results: readonly ControlResult[]): Pick<ReportIndex, 'controls' | 'byId'> {
  const controls = results.map((result) => {
    const today = index.byId.get(result.id);
    return { result, control: today?.control, frameworks: today?.frameworks ?? [] };
  });
  return { controls, byId: new Map(controls.map((entry) => [entry.result.id, entry])) };
}

/**
 * The day a change question compares with: the report's own previous day when the question asks
 * for "the previous report" or names that day; otherwise the caller's stored report of that day.
 */
async function earlierReport(
  index: ReportIndex,
  date: string | null,
  reportOn: ((date: string) => Promise<Report | undefined>) | undefined,
): Promise<Pick<Report, 'date' | 'controls' | 'summary'> | { missing: string }> {
  const { report } = index;
  const previousDate = report.diff.previousDate;
  const wanted = date ?? previousDate;
  if (!wanted) return { missing: addDays(report.date, -1) };
  const stored = wanted === report.date ? undefined : await reportOn?.(wanted);
  if (stored) return stored;
  if (wanted === previousDate) {
    // The diff lists changed controls only; the rest had the status they have now.
    const from = new Map(report.diff.changes.map((change) => [change.id, change.from]));
    const controls = report.controls.map((control) => ({ ...control, status: from.get(control.id) ?? control.status }));
    return { date: previousDate, controls, summary: summaryOf(controls) };
  }
  return { missing: wanted };
}

export interface RetrieveOptions {
  reportOn?: (date: string) => Promise<Report | undefined>;
}

/** Controls a summary of the report lists; the rest are counted. */
const postureShown = 40;

export async function retrieve(
  intent: AnswerIntent,
  index: ReportIndex,
  options: RetrieveOptions = {},
): Promise<RetrievedContext> {
  const { report } = index;
  const base = {
    date: report.date,
    intent,
    summary: report.summary,
    previousDate: report.diff.previousDate,
    changedSincePrevious: report.diff.changes.length,
    unmatchedTopic: false,
    scope: declineScope(index),
  };
  const limit = findingLimits[intent.kind];

  if (intent.kind === 'posture') {
    const attention = rankByRisk(
      index.controls.map((entry) => entry.result).filter((result) => attentionStatuses.includes(result.status)),
    );
    // Every control that needs attention, riskiest first, up to the length of a list answer.
    const shown = attention.slice(0, postureShown);
    return {
      ...base,
      controls: shown.map((result) => contextControl(index.byId.get(result.id)!, limit)),
      omitted: attention.length - shown.length,
    };
  }

  if (intent.kind === 'list') {
    if (!intent.on) return { ...base, ...listed(intent, entriesOf(index, intent.topic), limit) };
    // Only the day's own report will do: the report's diff knows earlier statuses, not earlier findings.
    const wanted = intent.on.date ?? report.diff.previousDate ?? addDays(report.date, -1);
    const earlier = await options.reportOn?.(wanted);
    if (!earlier) return { ...base, controls: [], omitted: 0, missingReport: wanted };
    const topic = entriesOf(entriesOn(index, earlier.controls), intent.topic);
    return { ...base, ...listed(intent, topic, limit, earlier.date), listedOn: earlier.date };
  }

  if (intent.kind === 'changes') return { ...base, ...(await changesSince(intent, index, limit, options.reportOn)) };

  const entries = entriesOf(index, intent.topic);
  const shown = entries.slice(0, listLimit);
  return { ...base, controls: shown.map((entry) => contextControl(entry, limit)), omitted: entries.length - shown.length };
}

/** A change question's context: the changes since the earlier day it asks about, those of its topic and focus. */
async function changesSince(
  intent: Extract<AnswerIntent, { kind: 'changes' }>,
  index: ReportIndex,
  limit: number,
  reportOn: RetrieveOptions['reportOn'],
): Promise<
  Pick<RetrievedContext, 'controls' | 'omitted'> & Partial<Pick<RetrievedContext, 'unmatchedTopic' | 'change' | 'missingReport'>>
> {
  const { report } = index;
  const earlier = await earlierReport(index, intent.since.date, reportOn);
  if ('missing' in earlier) return { controls: [], omitted: 0, missingReport: earlier.missing };
  const diff = diffReports(report.controls, earlier);
  const topicIds = intent.topic ? new Set(intent.topic.controlIds) : undefined;
  const wanted = (id: string) =>
    (!topicIds || topicIds.has(id)) &&
    (intent.focus === 'all' ||
      (intent.focus === 'fixed' && diff.fixed.includes(id)) ||
      (intent.focus === 'newlyFailing' && diff.newlyFailing.includes(id)) ||
      (intent.focus === 'newlyStale' && diff.newlyStale.includes(id)));
  const changes: ContextChange[] = diff.changes
    .filter((change) => wanted(change.id))
    .map((change) => {
      const result = index.byId.get(change.id)!.result;
      return {
        id: change.id,
        title: result.title,
        severity: result.severity,
        from: change.from,
        to: change.to,
        citation: {
          controlId: change.id,
          quote: `${change.id} was ${statusLabel[change.from]} on ${earlier.date} and is ${statusLabel[change.to]} on ${report.date}.`,
        },
      };
    });
  const controls = changes.length === 0 && intent.topic ? entriesOf(index, intent.topic).slice(0, listLimit) : [];
  return {
    controls: controls.map((entry) => contextControl(entry, limit)),
    omitted: 0,
    unmatchedTopic: controls.length > 0,
    change: { since: earlier.date, sinceScore: earlier.summary.score, changes },
  };
}

/** The controls of `topic` in the listed statuses, riskiest first; `day` when they are an earlier day's results. */
function listed(
  intent: Extract<AnswerIntent, { kind: 'list' }>,
  topic: IndexedControl[],
  limit: number,
  day?: string,
): Pick<RetrievedContext, 'controls' | 'omitted' | 'unmatchedTopic'> {
  const matching = rankByRisk(
    topic
      .filter(
        ({ result }) =>
          intent.statuses.includes(result.status) && (!intent.severities || intent.severities.includes(result.severity)),
      )
      .map((entry) => ({ ...entry, id: entry.result.id, severity: entry.result.severity, status: entry.result.status })),
  );
  if (matching.length === 0 && intent.topic) {
    // "Are any backup controls failing?" — no: say what they are instead, citing each.
    const shown = topic.slice(0, listLimit);
    return {
      unmatchedTopic: true,
      controls: shown.map((entry) => contextControl(entry, limit, day)),
      omitted: topic.length - shown.length,
    };
  }
  // Each status gets its own list of at most `listLimit`, so "needs attention" shows every group.
  const shown = intent.limit
    ? matching.slice(0, intent.limit)
    : intent.statuses.flatMap((status) => matching.filter((entry) => entry.status === status).slice(0, listLimit));
  return {
    unmatchedTopic: false,
    controls: shown.map((entry) => contextControl(entry, limit, day)),
    omitted: matching.length - shown.length,
  };
}

/** Evidence ids cited one by one for a control whose evidence has no findings (an attestation that passes). */
export const evidenceWithoutFindings = 8;

/** Citations of the evidence items of a control without findings, each quoting its result. */
export function evidenceCitations(control: ContextControl): Citation[] {
  if (control.findings.length > 0) return [];
  return control.evidence
    .slice(0, evidenceWithoutFindings)
    .map((id) => ({ controlId: control.id, evidenceId: id, quote: control.statement.quote }));
}

/** Every citation the answer may use: what an answer cites must be one of these. */
export function citationCandidates(context: RetrievedContext): Citation[] {
  return [
    ...context.controls.flatMap((control) => [control.statement, ...control.findingCitations, ...evidenceCitations(control)]),
    ...(context.change?.changes.map((change) => change.citation) ?? []),
  ];
}

/** How to ask about the latest change: "since yesterday" only when the previous report is from yesterday. */
export function changeQuestion(date: string, previousDate: string | null): string | undefined {
  if (!previousDate) return undefined;
  return `What changed since ${previousDate === addDays(date, -1) ? 'yesterday' : previousDate}?`;
}

/** Questions any report can answer, with this report's own ids. */
export function declineSuggestions(index: ReportIndex): string[] {
  const results = index.controls.map((entry) => entry.result);
  const riskiest = rankByRisk(results.filter((result) => result.status === 'failing'))[0];
  const suggestions = ['What is failing?'];
  const { date, diff } = index.report;
  const since = changeQuestion(date, diff.previousDate);
  suggestions.push(since ? since.replace('What changed', 'How did the score change') : 'What is our score?');
  if (results[0]) suggestions.push(`What is the status of ${results[0].id}?`);
  if (riskiest) suggestions.push(`How do we fix ${riskiest.id}?`);
  return suggestions;
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
