/**
 * Subject-level questions ("which laptops aren't patched"), about the catalog checks the reader
 * matched (offline/checks.ts): the subjects each check fails, and how many pass; and the subjects
 * behind some controls.
 */
import type { ControlResult, Finding } from '../../assessment/model.js';
import { plural } from '@evident/contract';
import { answered, controlName, counted, escapeMarkdown, isOpenFinding, type ComposedAnswer } from './compose.js';
import { failed, matchedChecks, openFindingsOf, type ReportIndex } from '../report-index.js';
import type { QuestionOf } from '../question.js';
import { statusLabel } from './retrieve.js';

/** Subjects a pass finding speaks for: "12 subjects pass mfa-enrolled." counts 12, one named subject 1. */
const subjectsIn = (message: string) => Number(/^(\d+) subjects pass\b/.exec(message)?.[1] ?? 1);

/** A control's heading line, then a line per open finding and a blank line. */
const findingBlock = (heading: string, open: Finding[]) => [heading, ...open.map((f) => `- ${escapeMarkdown(f.message)}`), ''];

export function answerChecks({ checks }: QuestionOf<'checks'>, index: ReportIndex): ComposedAnswer {
  const lines: string[] = [];
  const cited = new Set<ControlResult>();
  for (const { result, check } of matchedChecks(index, checks)) {
    const open = openFindingsOf(result, check);
    const failing = open.filter(failed).length;
    const outdated = open.length - failing;
    const passes = result.findings.filter((finding) => finding.check === check.id && finding.outcome === 'pass');
    const passing = passes.reduce((sum, finding) => sum + subjectsIn(finding.message), 0);
    const counts = [
      ...(failing > 0 ? [counted(failing, 'subject', 'fails', 'fail')] : []),
      ...(outdated > 0 ? [`${plural(outdated, 'subject')} without fresh evidence`] : []),
      ...(passing > 0 ? [`${passing} pass`] : []),
    ];
    const none = `not evaluated in this report (the control is ${result.status.replace('_', ' ')}).`;
    const state = counts.length === 0 ? none : `${failing + outdated === 0 ? 'no subject fails; ' : ''}${counts.join('; ')}.`;
    const heading = `${controlName(result)}, check ${escapeMarkdown(check.id)} on ${check.kind} evidence: ${state}`;
    lines.push(...findingBlock(heading, open));
    cited.add(result);
  }
  return answered(lines, [...cited]);
}

/** The subjects behind controls: each one's failing findings and those without fresh evidence. */
export function answerFindings({ controlIds }: QuestionOf<'findings'>, index: ReportIndex): ComposedAnswer {
  const openOf = (result: ControlResult) => result.findings.filter(isOpenFinding);
  const results = controlIds.flatMap((id) => index.byId.get(id)?.result ?? []);
  // The controls with subjects at fault, when some have: those are what "which devices are behind that" asks after.
  const withOpen = results.filter((result) => openOf(result).length > 0);
  const shown = withOpen.length > 0 ? withOpen : results;
  const lines = shown.flatMap((result) => {
    const open = openOf(result);
    const state = open.length === 0 ? 'no subject fails.' : `${plural(open.length, 'open finding')}:`;
    return findingBlock(`${controlName(result)} (${statusLabel[result.status]}): ${state}`, open);
  });
  return answered(lines, shown);
}
