/**
 * The auditor's request list (docs/audit-requests.md): what a request is, and each step of its
 * workflow as a pure function from the request as read to the request to write. A request is
 * open until it has answers, answered until the auditor accepts or returns it, returned until
 * its answers change, and accepted until someone reopens it. Every step appends who took it and
 * when to its history and raises its `version`, which the next change names as `basedOn`.
 */
import type { auditRequestActions } from '@evident/contract';
import { auditRequestLimits, maxPeriodDays, type AuditAnswerKind, type AuditRequestStatus } from '@evident/contract';
import { addDays, isCalendarDate } from '../assessment/dates.js';
import type { Actor } from '../assessment/model.js';

export type AuditRequestAction = (typeof auditRequestActions)[number];

export interface Period {
  from: string;
  to: string;
}

export interface Answer {
  kind: AuditAnswerKind;
  /** The evidence or submission id, or the population's or sample's key (docs/audit-requests.md). */
  ref: string;
  note: string | null;
}

export interface HistoryEntry {
  action: AuditRequestAction;
  by: Actor;
  at: string;
  comment?: string;
}

export interface AuditRequest {
  id: string;
  controlId: string;
  period: Period;
  description: string;
  status: AuditRequestStatus;
  answers: Answer[];
  history: HistoryEntry[];
  /** 1 when created, one more at each step. */
  version: number;
}

/** Who takes a step, and when. */
export interface Step {
  by: Actor;
  at: string;
}

/** A step the request's status does not allow; `detail` says why. */
export class RequestStatusRefused extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'RequestStatusRefused';
  }
}

/** A step past one of the list's bounds (auditRequestLimits). */
export class RequestLimitReached extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'RequestLimitReached';
  }
}

/** Why a period cannot be a request's, or undefined when it can: calendar days in order, at most a year. */
export function periodFault(period: Period): { field: 'from' | 'to'; message: string } | undefined {
  if (!isCalendarDate(period.from)) return { field: 'from', message: 'is not a calendar date (YYYY-MM-DD)' };
  if (!isCalendarDate(period.to)) return { field: 'to', message: 'is not a calendar date (YYYY-MM-DD)' };
  if (period.from > period.to) return { field: 'from', message: 'is after "to"' };
  if (addDays(period.from, maxPeriodDays - 1) < period.to)
    return { field: 'to', message: `makes a period longer than ${maxPeriodDays} days` };
  return undefined;
}

/** A description as kept: Windows line ends as line feeds, no spaces at either end. */
export const normalDescription = (text: string): string => text.replaceAll('\r\n', '\n').trim();

export function newRequest(
  input: { id: string; controlId: string; period: Period; description: string },
  step: Step,
): AuditRequest {
  return {
    ...input,
    description: normalDescription(input.description),
    status: 'open',
    answers: [],
    history: [{ action: 'created', ...step }],
    version: 1,
  };
}

/** The request after a step: its history one entry longer, its version one higher. */
function stepped(request: AuditRequest, changes: Partial<AuditRequest>, entry: HistoryEntry): AuditRequest {
  if (request.history.length >= auditRequestLimits.history) {
    throw new RequestLimitReached(
      `The request ${request.id} has recorded ${auditRequestLimits.history} steps, as many as one request keeps.`,
    );
  }
  return { ...request, ...changes, history: [...request.history, entry], version: request.version + 1 };
}

function refuseAccepted(request: AuditRequest, what: string): void {
  if (request.status === 'accepted')
    throw new RequestStatusRefused(`The request ${request.id} is accepted; reopen it before it is ${what}.`);
}

export function edited(request: AuditRequest, changes: { description?: string; period?: Period }, step: Step): AuditRequest {
  refuseAccepted(request, 'edited');
  const next = {
    ...(changes.description !== undefined ? { description: normalDescription(changes.description) } : {}),
    ...(changes.period ? { period: changes.period } : {}),
  };
  return stepped(request, next, { action: 'edited', ...step });
}

const sameAnswer = (a: Pick<Answer, 'kind' | 'ref'>, b: Pick<Answer, 'kind' | 'ref'>) => a.kind === b.kind && a.ref === b.ref;

/**
 * The request with answers added (an answer already there gets the new note) and removed: open
 * without answers, answered with some. A returned request answered again awaits the auditor again.
 */
export function answered(
  request: AuditRequest,
  change: { add: readonly Answer[]; remove: readonly Pick<Answer, 'kind' | 'ref'>[] },
  step: Step & { comment?: string },
): AuditRequest {
  refuseAccepted(request, 'answered');
  const kept = request.answers.filter(
    (answer) => !change.remove.some((gone) => sameAnswer(gone, answer)) && !change.add.some((added) => sameAnswer(added, answer)),
  );
  const answers = [...kept, ...change.add];
  if (answers.length > auditRequestLimits.answers) {
    throw new RequestLimitReached(
      `The request ${request.id} would have ${answers.length} answers; one request takes at most ${auditRequestLimits.answers}.`,
    );
  }
  return stepped(request, { answers, status: answers.length > 0 ? 'answered' : 'open' }, { action: 'answered', ...step });
}

/** The auditor's decision on an answered request: accepted, or returned with a comment. */
export function decided(
  request: AuditRequest,
  decision: 'accepted' | 'returned',
  step: Step & { comment?: string },
): AuditRequest {
  if (request.status !== 'answered') {
    throw new RequestStatusRefused(
      `The request ${request.id} is ${request.status}; only an answered request is accepted or returned.`,
    );
  }
  return stepped(request, { status: decision }, { action: decision, ...step });
}

/** An accepted request opened again, with why: answered once more, for the auditor to decide again. */
export function reopened(request: AuditRequest, step: Step & { comment: string }): AuditRequest {
  if (request.status !== 'accepted')
    throw new RequestStatusRefused(`The request ${request.id} is ${request.status}; only an accepted request is reopened.`);
  return stepped(request, { status: request.answers.length > 0 ? 'answered' : 'open' }, { action: 'reopened', ...step });
}
