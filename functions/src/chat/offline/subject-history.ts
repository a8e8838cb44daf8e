/**
 * A question about one subject's past ("was image/reports-worker ever carrying a critical
 * vulnerability?"): the names it gives the subject, when the span's reports have open findings
 * naming it.
 */
import { addDays } from '../../assessment/dates.js';
import type { QuestionOf } from '../question.js';
import type { ReportIndex } from '../report-index.js';
import { spanIn } from './days.js';
import { subjectFindings, type ReportDays } from '../report-days.js';
import { subjectQuery } from './subjects.js';
import { controlsNamedIn } from './topics.js';

const pastCue = /\b(was|were|did|had|ever|at any point|earlier|previously|before|still|happened|history|used to)\b/;

/** The names a question gives a subject: paths and dotted names, and what today's report calls one it names. */
function namesIn(text: string, index: ReportIndex): string[] {
  // Tried only where a run of name characters starts (past its leading `_` and `-`): inside one it would rescan the rest.
  const written = [...text.matchAll(/(?<![a-z0-9_-])[_-]*([a-z0-9][a-z0-9_-]*(?:[./@][a-z0-9_-]+)+)/g)]
    .map((match) => match[1]!)
    .filter((name) => /[a-z]/.test(name) && name.length >= 6);
  const today = subjectQuery(text, index)?.keys ?? [];
  return [...new Set([...written, ...today])];
}

/** The controls the rest of the question names outright ("did he fail MFA too?"). */
const namedByWords = (text: string, names: readonly string[], index: ReportIndex) =>
  controlsNamedIn(
    names.reduce((said, name) => said.replaceAll(name, ' '), text).replace(/\b(?:at (?:some|any) point|too|also|ever)\b/g, ' '),
    index,
  );

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
  const lastTwoWeeks = { from: addDays(reportDate, -13), to: reportDate, phrase: 'the last two weeks' };
  const question: QuestionOf<'subjectHistory'> = { kind: 'subjectHistory', names, period: period ?? lastTwoWeeks };
  const found = await subjectFindings(question, days);
  if (found.length === 0) return undefined;
  // The checks the rest of the question speaks of ("did ravi ever set up MFA"), else the controls its words name ("did
  // he fail MFA too?"), narrow it, when the subject had findings there: told from the findings already read, as each
  // span's reports are whole reports.
  const had = (ids: readonly string[]) => found.some((entry) => ids.includes(entry.controlId));
  const checks = subjectQuery(text, index)?.checks?.map((check) => check.controlId) ?? [];
  const named = had(checks) ? checks : namedByWords(text.replace(period?.phrase ?? '', ' '), names, index);
  return had(named) ? { ...question, controlIds: [...new Set(named)] } : question;
}
