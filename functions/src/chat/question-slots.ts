/**
 * A question filled in by someone other than the offline reader — a language model's function
 * call, another assistant's MCP call — checked against the report it is asked of before anything
 * answers it. A control, check, owner, requirement, evidence kind or subject the report does not
 * hold, or a day after the report's, becomes a decline naming it: never a guess, never an answer
 * about something else. Names are taken in the report's own spelling (an owner's case).
 */
import { evidenceKindNames } from '@evident/contract';
import type { ReportIndex } from './report-index.js';
import type { Question, QuestionOf } from './question.js';

type Declined = QuestionOf<'decline'>;

const unknown = (subject: string): Declined => ({ kind: 'decline', reason: 'unknown_subject', subject });
const kinds = new Set<string>(evidenceKindNames);

/** Every control id a question names, wherever its kind keeps them. */
function controlIdsOf(question: Question): string[] {
  const ids: string[] = [];
  if ('topic' in question && question.topic) ids.push(...question.topic.controlIds);
  if ('controlIds' in question && question.controlIds) ids.push(...question.controlIds);
  if ('among' in question && question.among) ids.push(...question.among);
  if ('checks' in question && question.checks) ids.push(...question.checks.map((match) => match.controlId));
  return ids;
}

/** The days a question names, and whether each may be the report's own day. */
function daysOf(question: Question): string[] {
  switch (question.kind) {
    case 'list':
      return question.on?.date ? [question.on.date] : [];
    case 'changes':
      return question.since.date ? [question.since.date] : [];
    case 'trend':
    case 'throughout':
    case 'controlHistory':
    case 'subjectHistory':
      return [question.period.from, question.period.to];
    case 'day':
      return [question.date];
    case 'compare':
      return [question.earlier, question.later];
    default:
      return [];
  }
}

/** Every subject the report's findings and expiring evidence name, lower-cased. */
function subjectsOf(index: ReportIndex): Set<string> {
  const subjects = new Set<string>();
  for (const { result } of index.controls) {
    for (const finding of result.findings) if (finding.subject) subjects.add(finding.subject.toLowerCase());
    for (const item of result.expiring ?? []) subjects.add(item.subject.toLowerCase());
  }
  return subjects;
}

function namedSubjects(question: Question): string[] {
  if (question.kind === 'subject') return [question.name];
  if (question.kind === 'subjectHistory') return question.names;
  if (question.kind === 'expiring') return question.subjects ?? [];
  return [];
}

/** The first thing `question` names that the report does not hold, as a decline; undefined when it holds all. */
function firstUnknown(question: Question, index: ReportIndex): Declined | undefined {
  const missingControl = controlIdsOf(question).find((id) => !index.byId.has(id));
  if (missingControl) return unknown(missingControl);
  if (question.kind === 'checks' || question.kind === 'subject') {
    for (const match of question.checks ?? []) {
      const checks = index.byId.get(match.controlId)?.control?.checks ?? [];
      if (!checks.some((check) => check.id === match.checkId)) return unknown(`${match.controlId} ${match.checkId}`);
    }
  }
  if (question.kind === 'readiness') {
    const missing = (question.requirements ?? []).find((id) => !requirementKnown(id, index));
    if (missing) return unknown(missing);
  }
  const evidenceKinds = question.kind === 'evidenceKinds' || question.kind === 'expiring' ? (question.kinds ?? []) : [];
  const missingKind = evidenceKinds.find((name) => !kinds.has(name));
  if (missingKind) return unknown(missingKind);
  const subjects = subjectsOf(index);
  const missingSubject = namedSubjects(question).find((name) => !subjects.has(name.toLowerCase()));
  if (missingSubject) return unknown(missingSubject);
  return undefined;
}

/** A requirement id or series the catalog maps a control to: `CC6.1`, or `CC6` for the series. */
function requirementKnown(id: string, index: ReportIndex): boolean {
  const wanted = id.toLowerCase();
  return [...index.byFramework.keys()].some((key) => key === wanted || key.startsWith(`${wanted}.`));
}

/** The owner as the report spells it, matched without regard to case. */
function ownerAsReported(owner: string, index: ReportIndex): string | undefined {
  const wanted = owner.trim().toLowerCase();
  return index.controls.map(({ result }) => result.owner).find((name) => name?.toLowerCase() === wanted);
}

/** `question` if the report can answer what it names (owners in the report's spelling), else a decline naming what it cannot. */
export function checkedQuestion(question: Question, index: ReportIndex): Question {
  const declined = firstUnknown(question, index);
  if (declined) return declined;
  const reportDate = index.report.date;
  const late = daysOf(question).find((day) => day > reportDate);
  if (late) return { kind: 'decline', reason: 'not_earlier', subject: late };
  if ('owner' in question && question.owner !== undefined) {
    const owner = ownerAsReported(question.owner, index);
    return owner === undefined ? unknown(question.owner) : { ...question, owner };
  }
  return question;
}
