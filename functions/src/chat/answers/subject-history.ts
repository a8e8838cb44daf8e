/**
 * One subject over past days ("is image/reports-worker still carrying a critical vulnerability?"). Today's report may no
 * longer name it, so it is looked for in the findings of the span's reports (as a path or dotted name, or as today's
 * report names it); the answer gives, per control, the days it had an open finding and where it stands today.
 */
import { addDays } from '../../assessment/dates.js';
import type { Finding } from '../../assessment/model.js';
import { answered, controlName, escapeMarkdown, type ComposedAnswer } from './compose.js';
import type { QuestionOf } from '../question.js';
import type { ReportIndex } from '../report-index.js';
import { statusLabel } from './retrieve.js';
import { spanIn } from '../offline/days.js';
import type { DayFinding, ReportDays } from '../query-model.js';
import { subjectQuery } from './subject-queries.js';

const pastCue = /\b(was|were|did|had|ever|at any point|earlier|previously|before|still|happened|history|used to)\b/;
const openOutcomes = new Set<Finding['outcome']>(['fail', 'error', 'stale', 'missing', 'info']);

/** The names a question gives a subject: paths and dotted names, and what today's report calls one it names. */
function namesIn(text: string, index: ReportIndex): string[] {
  // Tried from the start of a run of name characters only (its leading `_` and `-` skipped), not
  // from each character inside it, which rescanned the rest of the run every time.
  const written = [...text.matchAll(/(?<![a-z0-9_-])[_-]*([a-z0-9][a-z0-9_-]*(?:[./@][a-z0-9_-]+)+)/g)]
    .map((match) => match[1]!)
    .filter((name) => /[a-z]/.test(name) && name.length >= 6);
  const today = subjectQuery(text, index)?.keys ?? [];
  return [...new Set([...written, ...today])];
}

/** The question, when it asks of a subject's past and the span's reports have open findings naming it. */
export async function subjectHistoryQuestion(
  text: string,
  index: ReportIndex,
  days: ReportDays,
): Promise<QuestionOf<'subjectHistory'> | undefined> {
  if (!days.findings) return undefined;
  const reportDate = index.report.date;
  const period = spanIn(text, reportDate);
  if (!period && !pastCue.test(text)) return undefined;
  const names = namesIn(text, index);
  if (names.length === 0) return undefined;
  const question: QuestionOf<'subjectHistory'> = {
    kind: 'subjectHistory',
    names,
    period: period ?? { from: addDays(reportDate, -13), to: reportDate, phrase: 'the last two weeks' },
  };
  return (await findingsOf(question, days)).length > 0 ? question : undefined;
}

type Asked = QuestionOf<'subjectHistory'>;

const namesIt = (names: readonly string[]) => (finding: Finding) =>
  names.some((name) => finding.subject?.toLowerCase().includes(name) || finding.message.toLowerCase().includes(name));

function findingsOf(question: QuestionOf<'subjectHistory'>, days: ReportDays): Promise<DayFinding[]> {
  const naming = namesIt(question.names);
  const { from, to } = question.period;
  return days.findings?.(from, to, (finding) => openOutcomes.has(finding.outcome) && naming(finding)) ?? Promise.resolve([]);
}

/** Per control, the days the subject had an open finding, what the last said, and whether today's report still has one. */
export async function answerSubjectHistory(question: Asked, index: ReportIndex, days: ReportDays): Promise<ComposedAnswer> {
  const found = await findingsOf(question, days);
  const naming = namesIt(question.names);
  const cited = [...new Set(found.map((entry) => entry.controlId))].flatMap((id) => index.byId.get(id)?.result ?? []);
  const lines = cited.map((result) => {
    const entries = found.filter((entry) => entry.controlId === result.id);
    const dates = [...new Set(entries.map((entry) => entry.date))].sort();
    const when = dates.length === 1 ? dates[0] : `${dates.length} days, ${dates[0]} to ${dates.at(-1)}`;
    const said = escapeMarkdown(entries.at(-1)!.finding.message.replace(/\.$/, ''));
    // Still open when today's report has an open finding naming it (a message's day count changes from day to day).
    const stillOpen = result.findings.some((finding) => openOutcomes.has(finding.outcome) && naming(finding));
    const today = `${statusLabel[result.status]} and the finding is ${stillOpen ? 'still open' : 'gone'}.`;
    return `- ${controlName(result)}: an open finding on ${when} \u2014 \u201c${said}\u201d. Today the control is ${today}`;
  });
  const { from, to, phrase } = question.period;
  const lead = `What the reports from ${from} to ${to} (${phrase}) say of ${escapeMarkdown(question.names[0]!)}:`;
  return answered([lead, '', ...lines], cited);
}
