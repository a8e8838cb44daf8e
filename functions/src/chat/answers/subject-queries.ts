/**
 * Questions about the subjects of the evidence: what the catalog checks the reader matched fail ("which laptops aren't
 * patched"), the subjects behind some controls, and what the findings say of one subject ("what does priya.patel fail?",
 * "is ACME-XPS-004 ok?"), check by check when the question named checks; and one subject over past days ("is
 * image/reports-worker still carrying a critical vulnerability?"). Today's report may no longer name it, so it is looked
 * for in the findings of the span's reports (as a path or dotted name, or as today's report names it).
 */
import type { Check, ControlResult, Finding } from '../../assessment/model.js';
import { isOpenStatus, plural } from '@evident/contract';
import { answered, controlLine, controlName, counted, escapeMarkdown, isOpenFinding, resultsIn, statusLabel } from './compose.js';
import type { ComposedAnswer } from './compose.js';
import { checkOf, failed, matchedChecks, openFindingsOf, rankByRisk, type ReportIndex } from '../report-index.js';
import { isOpenOnSomeDay, namesSubject, subjectFindings, type ReportDays } from '../report-days.js';
import type { CheckMatch, QuestionOf } from '../question.js';

/** A finding of the check: its outcome, or, for evidence that is stale or missing (no check's outcome), one of its kind. */
const ofCheck = (finding: Finding, check: Check) => (finding.check ? finding.check === check.id : finding.kind === check.kind);

const mentions = (finding: Finding, keys: readonly string[]) =>
  keys.some((key) => finding.subject?.toLowerCase() === key || finding.message.toLowerCase().includes(key));

/** The questions to ask next about the riskiest control an answer names that needs attention. */
function nextQuestions(results: readonly ControlResult[], any = false): string[] {
  const first = rankByRisk(results).find((result) => any || isOpenStatus(result.status));
  return first ? [`Why is ${first.id} ${statusLabel[first.status]}?`, `How do we fix ${first.id}?`] : [];
}

export function answerSubject(query: QuestionOf<'subject'>, index: ReportIndex): ComposedAnswer {
  // What the checks asked about say of it, when any of their findings name it; else everything that does.
  // A check met strongly ("enrolled a second factor") is answered for the subject even when only a count of passes names it.
  const onChecks = query.checks?.some((match) => (match.score ?? 0) >= 4 || namedOn(index, match, query.keys));
  if (query.checks && onChecks) return subjectOnChecks(query, query.checks, index);
  const named = index.controls.flatMap(({ result }) =>
    result.findings.filter((finding) => mentions(finding, query.keys)).map((finding) => ({ result, finding })),
  );
  const openOnes = named.filter(({ finding }) => isOpenFinding(finding));
  const cited = resultsIn(openOnes);
  const name = escapeMarkdown(query.name);
  if (cited.length > 0) {
    const lines = cited.flatMap((result) => [
      controlLine(result, `, ${result.severity}`),
      ...openOnes.filter((entry) => entry.result === result).map(({ finding }) => `  - ${escapeMarkdown(finding.message)}`),
    ]);
    const lead = `In the report for ${index.report.date}, ${counted(openOnes.length, 'open finding', 'names', 'name')} ${name}:`;
    return answered([lead, '', ...lines], cited, nextQuestions(cited, true));
  }
  const lead = `No failing, stale or missing finding names ${name} in the report for ${index.report.date}.`;
  // Nothing open: what the findings that name it say (a pass, a muted scanner finding), or which controls its evidence counts for.
  if (named.length > 0) {
    const lines = named.map(({ result, finding }) => {
      const outcome = finding.outcome === 'info' ? 'shown, decides nothing' : finding.outcome.replace('_', ' ');
      return controlLine(result, ` (${outcome}): ${escapeMarkdown(finding.message)}`);
    });
    return answered([`${lead} The findings that name it:`, '', ...lines], resultsIn(named));
  }
  const supports = index.report.controls.filter((result) =>
    (result.expiring ?? []).some((item) => query.keys.includes(item.subject.toLowerCase())),
  );
  if (supports.length === 0) return answered([lead], []);
  return answered([`${lead} Its evidence counts for:`, '', ...supports.map((result) => controlLine(result))], supports);
}

/** Whether any finding of a matched check (or of its evidence kind) names the subject. */
function namedOn(index: ReportIndex, match: CheckMatch, keys: readonly string[]): boolean {
  const check = checkOf(index, match);
  return (index.byId.get(match.controlId)?.result.findings ?? []).some(
    (finding) => check !== undefined && ofCheck(finding, check) && mentions(finding, keys),
  );
}

/** "Has ravi.sharma enrolled a second factor?": what the checks asked about say of the subject, or how many they pass. */
function subjectOnChecks(query: QuestionOf<'subject'>, checks: readonly CheckMatch[], index: ReportIndex): ComposedAnswer {
  const name = escapeMarkdown(query.name);
  const matched = matchedChecks(index, checks);
  const lines = matched.map(({ result, check }) => {
    const of = result.findings.filter((finding) => ofCheck(finding, check));
    const naming = of.filter((finding) => mentions(finding, query.keys)).map((finding) => escapeMarkdown(finding.message));
    const passing = of.find((finding) => finding.outcome === 'pass' && finding.check === check.id && !finding.subject);
    const none = `no failing, stale or missing finding names ${name}${passing ? ` (${escapeMarkdown(passing.message)})` : ''}.`;
    const state = naming.length > 0 ? naming.join(' ') : none;
    return `- ${controlName(result)}, check ${escapeMarkdown(check.id)} \u2014 ${statusLabel[result.status]}: ${state}`;
  });
  const cited = resultsIn(matched);
  return answered([`What the report for ${index.report.date} says of ${name}:`, '', ...lines], cited, nextQuestions(cited));
}

/** Subjects a pass finding speaks for: "12 subjects pass mfa-enrolled." counts 12, one named subject 1. */
const subjectsIn = (message: string) => Number(/^(\d+) subjects pass\b/.exec(message)?.[1] ?? 1);

/** A control's heading line, then a line per open finding and a blank line. */
const findingBlock = (heading: string, open: Finding[]) => [heading, ...open.map((f) => `- ${escapeMarkdown(f.message)}`), ''];

export function answerChecks({ checks }: QuestionOf<'checks'>, index: ReportIndex): ComposedAnswer {
  const matched = matchedChecks(index, checks);
  const lines = matched.flatMap(({ result, check }) => {
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
    return findingBlock(heading, open);
  });
  return answered(lines, resultsIn(matched));
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

/** Per control, the days the subject had an open finding, what the last said, and whether today's report still has one. */
export async function answerSubjectHistory(question: QuestionOf<'subjectHistory'>, index: ReportIndex, days: ReportDays) {
  const found = await subjectFindings(question, days);
  const naming = namesSubject(question.names);
  const cited = [...new Set(found.map((entry) => entry.controlId))].flatMap((id) => index.byId.get(id)?.result ?? []);
  const lines = cited.map((result) => {
    const entries = found.filter((entry) => entry.controlId === result.id);
    const dates = [...new Set(entries.map((entry) => entry.date))].sort();
    const when = dates.length === 1 ? dates[0] : `${dates.length} days, ${dates[0]} to ${dates.at(-1)}`;
    const said = escapeMarkdown(entries.at(-1)!.finding.message.replace(/\.$/, ''));
    // Still open when today's report has an open finding naming it (a message's day count changes from day to day).
    const stillOpen = result.findings.some((finding) => isOpenOnSomeDay(finding) && naming(finding));
    const today = `${statusLabel[result.status]} and the finding is ${stillOpen ? 'still open' : 'gone'}.`;
    return `- ${controlName(result)}: an open finding on ${when} \u2014 \u201c${said}\u201d. Today the control is ${today}`;
  });
  const { from, to, phrase } = question.period;
  const lead = `What the reports from ${from} to ${to} (${phrase}) say of ${escapeMarkdown(question.names[0]!)}:`;
  return answered([lead, '', ...lines], cited);
}
