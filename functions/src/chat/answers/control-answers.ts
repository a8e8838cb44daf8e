/**
 * Answers that show the report's controls with their findings: the report's posture, and where the controls a question
 * names stand, why, what they are for, what they map to, what evidence they rest on and how to fix them.
 */
import type { ControlStatus } from '../../assessment/model.js';
import { frameworkShortNames, isOpenStatus, plural } from '@evident/contract';
import type { QuestionOf } from '../question.js';
import { rankByRisk } from '../offline/topics.js';
import type { ReportIndex } from '../report-index.js';
import { controlList, controlName, counted, escapeMarkdown, guidanceBullets, listLimit, more, quoted } from './compose.js';
import { statusLabel, type ComposedAnswer } from './compose.js';
import {
  cite,
  entriesOf,
  evidenceWithoutFindings,
  findingLines,
  grounded,
  paragraphs,
  shownOf,
  withEntry,
} from './shown-controls.js';
import type { Citing, ContextControl } from './shown-controls.js';

/** The report's score and counts, and the first 40 controls that need attention, riskiest first; the rest counted. */
export function posture(question: QuestionOf<'posture'>, index: ReportIndex): ComposedAnswer {
  const { report } = index;
  const open = rankByRisk(index.controls.filter(({ result }) => isOpenStatus(result.status)).map(withEntry));
  const { controls, omitted } = shownOf(
    open.map(({ entry }) => entry),
    40,
    1,
  );
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
  (findings: number, citing: Citing, block: (control: ContextControl, single: boolean) => string[]) =>
  (question: PerControl, index: ReportIndex): ComposedAnswer => {
    const { controls, omitted } = shownOf(entriesOf(index, question.topic), listLimit, findings);
    const lines = paragraphs(controls.map((control) => block(control, controls.length === 1)));
    return grounded({ kind: question.kind, report: index.report, controls }, [...lines, ...more(omitted)], citing);
  };

const problemsOf = (control: ContextControl) => control.shown.filter((finding) => finding.outcome !== 'pass');

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
