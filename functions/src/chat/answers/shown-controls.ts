/**
 * The answers that show controls with the findings worth showing (posture, lists, a topic's controls, changes): each
 * control as the answer may use it, with the citations it may give, and the questions to ask next. An answer cites
 * exactly what it shows.
 */
import type { Control, ControlResult, Finding, Report } from '../../assessment/model.js';
import { isOpenStatus } from '@evident/contract';
import type { Question } from '../question.js';
import { rankByRisk } from '../offline/topics.js';
import type { IndexedControl, ReportIndex } from '../report-index.js';
import { answered, changeQuestion, citation, escapeMarkdown, firstOf, section, statementOf, statusLabel } from './compose.js';
import type { Citation, ComposedAnswer } from './compose.js';

/** A control's result with the findings worth showing (problems first), its catalog entry, its statement and citations. */
export type ContextControl = ControlResult & {
  shown: Finding[];
  control: Control | undefined;
  statement: Citation;
  findingCitations: Citation[];
};

const isProblem = (finding: Finding) => finding.outcome !== 'pass' && finding.outcome !== 'info';

/** The first `shown` entries as the answer may use them (at most `limit` findings each), and how many are left out. */
export function shownOf(entries: readonly IndexedControl[], shown: number, limit: number, day?: string) {
  const controls = entries.slice(0, shown).map(({ result, control }): ContextControl => {
    const problemsFirst = [...result.findings.filter(isProblem), ...result.findings.filter((finding) => !isProblem(finding))];
    const findings = problemsFirst.slice(0, limit);
    const findingCitations = findings.map(({ evidence, message }) => citation(result.id, evidence[0], message));
    return { ...result, shown: findings, control, statement: statementOf(result, day), findingCitations };
  });
  return { controls, omitted: entries.length - controls.length };
}

export type Entries = Pick<ReportIndex, 'controls' | 'byId'>;

/** The stored report of an earlier day, when there is one. */
export type ReportOn = (date: string) => Promise<Report | undefined>;

/** The controls of a topic, or all of them. */
export const entriesOf = (index: Entries, topic: { controlIds: string[] } | undefined): IndexedControl[] =>
  topic ? topic.controlIds.flatMap((id) => index.byId.get(id) ?? []) : index.controls;

/** An entry as `rankByRisk` ranks it, still holding the entry. */
export const withEntry = (entry: IndexedControl) => ({ ...entry.result, entry });

/** Blocks of lines with a blank line between each two. */
export const paragraphs = (blocks: readonly string[][]) => blocks.flatMap((block, at) => (at > 0 ? ['', ...block] : block));

const outcomeLabel: Record<Finding['outcome'], string> = {
  fail: 'Fails',
  error: 'Cannot be evaluated',
  stale: 'Stale',
  missing: 'Missing',
  not_applicable: 'Scoped out',
  pass: 'Passes',
  info: 'For information',
};

/** A finding's line: its outcome, message and, `withEvidence`, its first five evidence ids. */
function findingLine({ evidence: ids, message, outcome }: Finding, withEvidence: boolean): string {
  const evidence = withEvidence && ids.length > 0 ? ` (evidence: ${firstOf(ids, 5).map(escapeMarkdown).join(', ')})` : '';
  // A message that already starts with its label ("Scoped out: …") is not given it twice.
  const label = outcomeLabel[outcome];
  return `- ${escapeMarkdown(message.toLowerCase().startsWith(label.toLowerCase()) ? message : `${label}: ${message}`)}${evidence}`;
}

export const findingLines = (findings: readonly Finding[], withEvidence = false) =>
  section(findings.map((finding) => findingLine(finding, withEvidence)));

/** Evidence ids cited one by one for a control whose evidence has no findings (an attestation that passes). */
export const evidenceWithoutFindings = 8;

/** Citations of the evidence items of a control without findings, each quoting its result. */
const evidenceCitations = ({ shown, evidence, id, statement: { quote } }: ContextControl): Citation[] =>
  evidence.slice(0, shown.length > 0 ? 0 : evidenceWithoutFindings).map((item) => ({ controlId: id, evidenceId: item, quote }));

export type Citing = (control: ContextControl) => Citation[];

/** What a control's statement says; with the findings it shows; with the evidence a control without findings rests on. */
export const cite = {
  statement: (control: ContextControl) => [control.statement],
  findings: (control: ContextControl) => [control.statement, ...control.findingCitations],
  evidence: (control: ContextControl) => [control.statement, ...control.findingCitations, ...evidenceCitations(control)],
};

/** Follow-up questions that fit the answer just given, all answerable from the same report. */
function suggestionsAfter({ controls, kind, listedOn, report }: Told): string[] {
  // An earlier day's list: its statuses are that day's, so offer the change since, and today's list.
  if (listedOn) return [`What changed since ${listedOn}?`, 'What needs attention?'];
  const [first] = controls;
  const risky = rankByRisk(controls).find((control) => isOpenStatus(control.status));
  const since = changeQuestion(report.date, report.diff.previousDate);
  const suggestions: (string | false | undefined)[] =
    first && controls.length === 1
      ? [
          kind !== 'why' && first.status !== 'passing' && `Why is ${first.id} ${statusLabel[first.status]}?`,
          kind !== 'fix' && isOpenStatus(first.status) && `How do we fix ${first.id}?`,
          kind !== 'evidence' && `Which evidence supports ${first.id}?`,
        ]
      : [first && kind !== 'why' && 'Why?', first && risky && kind !== 'fix' && `How do we fix ${risky.id}?`];
  suggestions.push(kind !== 'changes' && since, kind !== 'list' && kind !== 'posture' && 'What needs attention?');
  return suggestions.filter((suggestion): suggestion is string => typeof suggestion === 'string').slice(0, 3);
}

/** What an answer showing controls told: its kind, its report, the controls it showed and the earlier day a list is of. */
export interface Told {
  kind: Question['kind'];
  report: Report;
  controls: ContextControl[];
  listedOn?: string;
}

/** An answer showing controls: its lines, what `citing` cites of each control (each once), the questions to ask next. */
export function grounded(told: Told, lines: string[], citing: Citation[] | Citing = cite.statement): ComposedAnswer {
  const citations = Array.isArray(citing) ? citing : told.controls.flatMap(citing);
  const keyed = citations.map((cited) => [`${cited.controlId}\0${cited.evidenceId ?? ''}\0${cited.quote}`, cited] as const);
  return { ...answered(lines, [], suggestionsAfter(told)), citations: [...new Map(keyed).values()] };
}
