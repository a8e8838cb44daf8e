/**
 * A question filled in by someone other than the offline reader — a language model's function
 * call, another assistant's MCP call — checked against the report it is asked of before anything
 * answers it. A control, check, owner, requirement, evidence kind or subject the report does not
 * hold, or a day after the report's, becomes a decline naming it: never a guess, never an answer
 * about something else. Names are taken in the report's own spelling (an owner's case).
 */
import { evidenceKindNames } from '@evident/contract';
import { checkOf, type ReportIndex } from './report-index.js';
import type { Question } from './question.js';

const evidenceKinds = new Set<string>(evidenceKindNames);

/** Every subject the report's findings and expiring evidence name, sorted, each once. */
export const reportSubjects = (index: ReportIndex) =>
  [
    ...new Set(
      index.controls.flatMap(({ result }) => [
        ...result.findings.flatMap((finding) => (finding.subject ? [finding.subject] : [])),
        ...(result.expiring ?? []).map((item) => item.subject),
      ]),
    ),
  ].sort();

/** A requirement id or series the catalog maps a control to: `CC6.1`, or `CC6` for the series. */
const requirementKnown = (id: string, index: ReportIndex) =>
  [...index.byFramework.keys()].some((key) => key === id.toLowerCase() || key.startsWith(`${id.toLowerCase()}.`));

/** The first control, check, requirement, evidence kind or subject `q` names that the report does not hold. */
function firstUnknown(q: Question, index: ReportIndex): string | undefined {
  const checks = 'checks' in q ? (q.checks ?? []) : [];
  const controlIds = [
    ...('topic' in q && q.topic ? q.topic.controlIds : []),
    ...('controlIds' in q ? (q.controlIds ?? []) : []),
    ...('among' in q ? (q.among ?? []) : []),
    ...checks.map((match) => match.controlId),
  ];
  const missingCheck = checks.find((match) => !checkOf(index, match));
  const names = 'name' in q ? [q.name] : 'names' in q ? q.names : 'subjects' in q ? (q.subjects ?? []) : [];
  const subjects = new Set(names.length > 0 ? reportSubjects(index).map((name) => name.toLowerCase()) : []);
  return (
    controlIds.find((id) => !index.byId.has(id)) ??
    (missingCheck && `${missingCheck.controlId} ${missingCheck.checkId}`) ??
    ('requirements' in q ? (q.requirements ?? []) : []).find((id) => !requirementKnown(id, index)) ??
    ('kinds' in q ? (q.kinds ?? []) : []).find((name) => !evidenceKinds.has(name)) ??
    names.find((name) => !subjects.has(name.toLowerCase()))
  );
}

/** The days `q` names that must be the report's or earlier (a due or expiring day may be ahead). */
function daysOf(q: Question): (string | null | undefined)[] {
  if (q.kind === 'list') return [q.on?.date];
  if (q.kind === 'changes') return [q.since.date];
  if (q.kind === 'day') return [q.date];
  if (q.kind === 'compare') return [q.earlier, q.later];
  return 'period' in q ? [q.period.from, q.period.to] : [];
}

/** `question` if the report can answer what it names (owners in the report's spelling), else a decline naming what it cannot. */
export function checkedQuestion(question: Question, index: ReportIndex): Question {
  const unknown = firstUnknown(question, index);
  if (unknown !== undefined) return { kind: 'decline', reason: 'unknown_subject', subject: unknown };
  const late = daysOf(question).find((day) => day && day > index.report.date);
  if (late) return { kind: 'decline', reason: 'not_earlier', subject: late };
  if (!('owner' in question) || question.owner === undefined) return question;
  const wanted = question.owner.trim().toLowerCase();
  const owner = index.controls.map(({ result }) => result.owner).find((name) => name?.toLowerCase() === wanted);
  return owner === undefined ? { kind: 'decline', reason: 'unknown_subject', subject: question.owner } : { ...question, owner };
}
