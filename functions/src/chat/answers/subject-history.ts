/**
 * One subject over past days ("is image/reports-worker still carrying a critical vulnerability?"). Today's report may no
 * longer name it, so it is looked for in the findings of the span's reports (as a path or dotted name, or as today's
 * report names it); the answer gives, per control, the days it had an open finding and where it stands today.
 */
import { answered, controlName, escapeMarkdown, statusLabel, type ComposedAnswer } from './compose.js';
import type { QuestionOf } from '../question.js';
import type { ReportIndex } from '../report-index.js';
import { isOpenOnSomeDay, namesSubject, subjectFindings, type ReportDays } from '../report-days.js';

type Asked = QuestionOf<'subjectHistory'>;

/** Per control, the days the subject had an open finding, what the last said, and whether today's report still has one. */
export async function answerSubjectHistory(question: Asked, index: ReportIndex, days: ReportDays): Promise<ComposedAnswer> {
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
