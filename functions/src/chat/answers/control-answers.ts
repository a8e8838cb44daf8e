/**
 * Answers that show the report's controls with the findings worth showing: the report's posture, and where the controls
 * a question names stand, why, what they are for, what they map to, what evidence they rest on and how to fix them; and
 * the pieces the list and change answers share with them. An answer cites exactly what it shows.
 */
import type { Control, ControlResult, ControlStatus, Finding, Report } from '../../assessment/model.js';
import { frameworkShortNames, isOpenStatus, plural } from '@evident/contract';
import type { Question, QuestionOf } from '../question.js';
import { rankByRisk, type IndexedControl, type ReportIndex } from '../report-index.js';
import { answered, changeQuestion, citation, controlList, controlName, counted, escapeMarkdown, firstOf } from './compose.js';
import { guidanceBullets, listLimit, more, quoted, section, statementOf, statusLabel } from './compose.js';
import type { Citation, ComposedAnswer } from './compose.js';

/** A control's result with the findings worth showing (problems first), its catalog entry, its statement and citations. */
export type ShownControl = ControlResult & {
  shown: Finding[];
  control: Control | undefined;
  statement: Citation;
  findingCitations: Citation[];
};

const isProblem = (finding: Finding) => finding.outcome !== 'pass' && finding.outcome !== 'info';

/** The first `shown` entries as the answer may use them (at most `limit` findings each), and how many are left out. */
export function shownOf(entries: readonly IndexedControl[], shown: number, limit: number, day?: string) {
  const controls = entries.slice(0, shown).map(({ result, control }): ShownControl => {
    const problemsFirst = [...result.findings.filter(isProblem), ...result.findings.filter((finding) => !isProblem(finding))];
    const findings = problemsFirst.slice(0, limit);
    const findingCitations = findings.map(({ evidence, message }) => citation(result.id, evidence[0], message));
    return { ...result, shown: findings, control, statement: statementOf(result, day), findingCitations };
  });
  return { controls, omitted: entries.length - controls.length };
}

export type Entries = Pick<ReportIndex, 'controls' | 'byId'>;

/** The controls of a topic, or all of them. */
export const entriesOf = (index: Entries, topic: { controlIds: string[] } | undefined): IndexedControl[] =>
  topic ? topic.controlIds.flatMap((id) => index.byId.get(id) ?? []) : index.controls;

/** Entries riskiest first, as `rankByRisk` ranks their results. */
export const riskiest = (entries: readonly IndexedControl[]) =>
  rankByRisk(entries.map((entry) => ({ ...entry.result, entry }))).map(({ entry }) => entry);

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

const findingLines = (findings: readonly Finding[], withEvidence = false) =>
  section(findings.map((finding) => findingLine(finding, withEvidence)));

/** Evidence ids cited one by one for a control whose evidence has no findings (an attestation that passes). */
const evidenceWithoutFindings = 8;

/** Citations of the evidence items of a control without findings, each quoting its result. */
const evidenceCitations = ({ shown, evidence, id, statement: { quote } }: ShownControl): Citation[] =>
  evidence.slice(0, shown.length > 0 ? 0 : evidenceWithoutFindings).map((item) => ({ controlId: id, evidenceId: item, quote }));

type Citing = (control: ShownControl) => Citation[];

/** What a control's statement says; with the findings it shows; with the evidence a control without findings rests on. */
const cite = {
  statement: (control: ShownControl) => [control.statement],
  findings: (control: ShownControl) => [control.statement, ...control.findingCitations],
  evidence: (control: ShownControl) => [control.statement, ...control.findingCitations, ...evidenceCitations(control)],
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
interface Told {
  kind: Question['kind'];
  report: Report;
  controls: ShownControl[];
  listedOn?: string;
}

/** An answer showing controls: its lines, what `citing` cites of each control (each once), the questions to ask next. */
export function grounded(told: Told, lines: string[], citing: Citation[] | Citing = cite.statement): ComposedAnswer {
  const citations = Array.isArray(citing) ? citing : told.controls.flatMap(citing);
  const keyed = citations.map((cited) => [`${cited.controlId}\0${cited.evidenceId ?? ''}\0${cited.quote}`, cited] as const);
  return { ...answered(lines, [], suggestionsAfter(told)), citations: [...new Map(keyed).values()] };
}

/** The report's score and counts, and the first 40 controls that need attention, riskiest first; the rest counted. */
export function posture(question: QuestionOf<'posture'>, index: ReportIndex): ComposedAnswer {
  const { report } = index;
  const open = riskiest(index.controls.filter(({ result }) => isOpenStatus(result.status)));
  const { controls, omitted } = shownOf(open, 40, 1);
  const { summary, diff } = report;
  const { counts } = summary;
  const changed = diff.changes.length;
  const since = `${changed === 0 ? 'No control' : plural(changed, 'control')} changed status since the previous report`;
  const lines = [
    `The report for ${report.date} scores **${summary.score}** out of 100 (the severity-weighted share of applicable controls ` +
      `that pass). Of ${plural(summary.controls, 'control')}, ${counts.passing} are passing, ${counts.failing} failing, ` +
      `${counts.stale} stale, ${counts.missing} missing evidence and ${counts.not_applicable} not applicable.`,
    ...(diff.previousDate ? ['', `${since} (${diff.previousDate}).`] : []),
  ];
  const ask = 'ask \u201cWhat needs attention?\u201d';
  if (controls.length > 0)
    lines.push('', 'Needs attention, riskiest first:', '', ...controlList(controls), ...more(omitted, ask));
  return grounded({ kind: question.kind, report, controls }, lines);
}

export function status(question: QuestionOf<'status'>, index: ReportIndex): ComposedAnswer {
  const { topic } = question;
  const { report } = index;
  const { controls, omitted } = shownOf(entriesOf(index, topic), listLimit, 5);
  const told = { kind: question.kind, report, controls };
  const [control] = controls;
  if (control && controls.length === 1) {
    const lines = [
      `${controlName(control)} is **${statusLabel[control.status]}** (${control.severity} severity).`,
      ...findingLines(control.shown),
      ...more(control.findings.length - control.shown.length),
      ...(topic.source === 'framework' ? ['', `It is the only control mapped to ${escapeMarkdown(topic.label)}.`] : []),
    ];
    return grounded(told, lines, cite.findings);
  }
  const total = controls.length + omitted;
  const inReport = `in the report for ${report.date}:`;
  const lead =
    topic.source === 'framework'
      ? `${counted(total, 'control', 'is', 'are')} mapped to ${escapeMarkdown(topic.label)} ${inReport}`
      : topic.source === 'search'
        ? `${plural(total, 'control')} match ${quoted(topic.label)} ${inReport}`
        : `In the report for ${report.date}:`;
  return grounded(told, [lead, '', ...controlList(controls, omitted)]);
}

type PerControl = QuestionOf<'objective' | 'frameworks' | 'evidence' | 'fix' | 'why'>;

/** An answer of one block per control (at most `findings` findings each), blank lines between, citing what `citing` gives of each. */
const perControl =
  (findings: number, citing: Citing, block: (control: ShownControl, single: boolean) => string[]) =>
  (question: PerControl, index: ReportIndex): ComposedAnswer => {
    const { controls, omitted } = shownOf(entriesOf(index, question.topic), listLimit, findings);
    const lines = paragraphs(controls.map((control) => block(control, controls.length === 1)));
    return grounded({ kind: question.kind, report: index.report, controls }, [...lines, ...more(omitted)], citing);
  };

const problemsOf = (control: ShownControl) => control.shown.filter((finding) => finding.outcome !== 'pass');

export const why = perControl(5, cite.findings, (control) => {
  const problems = problemsOf(control);
  const shown = problems.length > 0 ? problems : control.shown;
  const passing = shown.length > 0 ? 'because its checks hold:' : 'because its evidence is current and nothing in it fails.';
  const because: Partial<Record<ControlStatus, string>> = { passing, not_applicable: 'because it is scoped out:' };
  return [
    `${controlName(control)} is **${statusLabel[control.status]}** ${because[control.status] ?? 'because:'}`,
    ...findingLines(shown),
  ];
});

export const objective = perControl(1, cite.statement, (control) => {
  // Catalog Markdown, as escaped paragraphs with blank lines between: shown as text, like everything else.
  const text = (control.control?.objectiveMarkdown ?? '')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => [escapeMarkdown(paragraph)]);
  const state = `(${statusLabel[control.status]}, ${control.severity} severity)`;
  if (text.length === 0) return [`The catalog states no objective for ${controlName(control)} ${state}.`];
  return [`The objective of ${controlName(control)} ${state}, as the catalog states it:`, '', ...paragraphs(text)];
});

const frameworkNames = Object.entries(frameworkShortNames) as [keyof typeof frameworkShortNames, string][];

export const frameworks = perControl(1, cite.statement, (control) => {
  const mappings = control.control?.frameworks;
  const mapped = frameworkNames.flatMap(([key, name]) => (mappings?.[key].length ? [{ name, ids: mappings[key] }] : []));
  if (mapped.length === 0) return [`${controlName(control)} is not mapped to any framework requirement in the catalog.`];
  const lines = mapped.map(({ name, ids }) => `- ${name}: ${ids.map(escapeMarkdown).join(', ')}`);
  return [`${controlName(control)} (${statusLabel[control.status]}) maps to:`, '', ...lines];
});

export const evidence = perControl(8, cite.evidence, (control) => {
  const ids = control.evidence;
  const items = ids.length === 0 ? 'no evidence yet.' : `${plural(ids.length, 'evidence item')}:`;
  const lead = `${controlName(control)} (${statusLabel[control.status]}) rests on ${items}`;
  if (control.shown.length > 0 || ids.length === 0) return [lead, ...findingLines(control.shown, true)];
  const listed = ids.slice(0, evidenceWithoutFindings).map((id) => `- ${escapeMarkdown(id)}`);
  return [lead, '', ...listed, ...more(ids.length - listed.length)];
});

const nothingToFix: Partial<Record<ControlStatus, string>> = {
  passing: 'is **passing**; nothing needs fixing.',
  not_applicable: 'is **not applicable**, so nothing needs fixing.',
};

export const fix = perControl(5, cite.findings, (control, single) => {
  const { status } = control;
  const verdict = nothingToFix[status] ?? `is **${statusLabel[status]}**. What to fix:`;
  const lines = [`${controlName(control)} ${verdict}`, ...(status === 'passing' ? [] : findingLines(problemsOf(control)))];
  const bullets = guidanceBullets(control.control?.guidanceMarkdown ?? '');
  if (bullets.length === 0) return lines;
  // For several controls, only the catalog's own "to fix a failure" advice, to keep the answer short.
  const advice = single ? bullets : bullets.filter((bullet) => /^To fix/i.test(bullet)).slice(0, 1);
  const intro = status === 'passing' && single ? 'To keep it that way, the catalog advises:' : 'The catalog advises:';
  return [...lines, '', intro, '', ...(advice.length > 0 ? advice : bullets.slice(0, 1)).map((bullet) => `- ${bullet}`)];
});
