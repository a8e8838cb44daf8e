/**
 * The offline reader: a question's words read once (asked.ts), then the first reading that fits: what the report can
 * never speak to, declined; a subject's past; the questions over the history and other records (parse-query.ts); and
 * what it asks of one control topic's state, a list or changes (intents.ts), which declines what it cannot place.
 */
import type { ChatTurn, DeclineReason, Query, Question } from '../question.js';
import { historyFrom, type ReportDays } from '../report-days.js';
import type { ReportIndex } from '../report-index.js';
import { askedOf, type Asked } from './asked.js';
import { emailPattern, entitiesOf } from './entities.js';
import { daysIn } from './days.js';
import { refusal, topicQuestion } from './intents.js';
import { parseQuery } from './parse-query.js';
import { asksNotInReport, otherFramework } from './question-cues.js';
import { subjectHistoryQuestion } from './subject-history.js';
import { unknownSubject } from './subjects.js';

/** Declines no other reading can overturn: off-topic requests, names the report never mentions, dates it cannot read. */
const refusedOutright = new Set<DeclineReason>([
  'off_topic',
  'action',
  'prediction',
  'unknown_subject',
  'invalid_date',
  'date_format',
]);

/** Kinds answered from the history: without one, the question's topic reading is answered instead. */
const fromHistory = new Set<Question['kind']>(['trend', 'controlHistory', 'day', 'biggestMove', 'throughout', 'compare']);

/** Whether the report and history at hand can answer `query` (a report from before readiness has none). */
function answerable(query: Query, index: ReportIndex, days: ReportDays | undefined): boolean {
  if (fromHistory.has(query.kind)) return days !== undefined;
  if (query.kind === 'readiness') return index.report.frameworks?.some((entry) => entry.framework === query.framework) ?? false;
  return true;
}

/** "The first report", "when the reports started": the first day of the history kept (`historyDays`) with a report. */
const firstReport =
  /\b(?:the (?:very )?first (?:daily )?report(?: in the history| of the period| we have| on record)?|when (?:the )?reports (?:started|began)|(?<=since )(?:the )?reports (?:started|began)|the (?:start|beginning) of the (?:history|reports|period))\b/i;

/** The question with the first report's day written as its date, so every reading reads it as a day named. */
async function withFirstReportDated(message: string, index: ReportIndex, days: ReportDays | undefined): Promise<string> {
  if (!days?.dates || !firstReport.test(message)) return message;
  // "Since the first report on Nov 8" names its day already.
  const today = index.report.date;
  if (daysIn(message.toLowerCase(), today).some((day) => day.date !== today)) return message;
  const [first] = await days.dates(historyFrom(today), today);
  return first ? message.replace(firstReport, first) : message;
}

/** "Everything he's failed in the last two weeks": the question, with the person the conversation named before. */
function withPersonReferredTo({ text, last, history, index }: Asked): string {
  if (!/\b(?:he|him|his|she|her|hers)\b/.test(text)) return text;
  const answer = history.findLast((turn) => turn.role === 'assistant')?.content.toLowerCase() ?? '';
  // The person's address, as the subject named says it ("ravi.sharma@acme.example/security-awareness" is a record of theirs).
  const [person] = [last, answer]
    .flatMap((said) => entitiesOf(index).mentions(said))
    .flatMap(({ entity }) => (entity.kind === 'subject' ? (entity.display.match(emailPattern) ?? []) : []));
  return person ? `${text} ${person.toLowerCase()}` : text;
}

export async function readQuestion(
  written: string,
  history: readonly ChatTurn[],
  index: ReportIndex,
  days: ReportDays | undefined,
): Promise<Question> {
  const message = await withFirstReportDated(written, index, days);
  const asked = askedOf(message, history, index);
  const { text } = asked;
  const refused = refusal(asked);
  if (refused && refusedOutright.has(refused.reason)) return refused;
  // Who did what is not in the report, unless a named control's own findings say (a scoping attestation names who signed it).
  if (asksNotInReport(text) && asked.ids.length === 0) return { kind: 'decline', reason: 'no_match' };
  const elsewhere = otherFramework.exec(text)?.[0] ?? unknownSubject(text, index);
  if (elsewhere) return { kind: 'decline', reason: 'unknown_subject', subject: elsewhere };
  // A control named by id is what the question is about, whatever subject it also names.
  const past = days && asked.ids.length === 0 && (await subjectHistoryQuestion(withPersonReferredTo(asked), index, days));
  if (past) return past;
  const query = parseQuery(asked);
  if (query && answerable(query, index, days)) return query;
  return refused ?? topicQuestion(asked);
}
