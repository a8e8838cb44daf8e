/**
 * How the pages word and send exceptions (accepted risks, `/api/exceptions`): the query of a
 * page of them, the expiry as seen on the list's own `today` (the report time zone's day, never
 * the browser's clock), who requested and who reviewed one, the form's body, and the server's
 * field errors placed under the fields they name. Pure, so it is unit tested without a browser.
 */
import { maxExceptionDays, plural } from '@evident/contract';
import type { Problem } from './api.ts';
import type { Exception, ExceptionInput, Finding, QueryOf } from './api-types.ts';
import { addDays, daysBetween } from './due-dates.ts';

/** The window the exceptions page calls "Expiring soon", in days. */
export const soonDays = 30;

/** What `GET /api/exceptions` lists: in force today, awaiting review, refused, expired or revoked, or every one. */
export type ExceptionState = NonNullable<QueryOf<'listExceptions'>['state']>;

export interface ExceptionsQuery {
  state?: ExceptionState;
  control?: string;
  /** Only those expiring within this many days. */
  expiringWithin?: number;
  /** The previous page's `nextCursor`. */
  cursor?: string;
}

/** The query of a page of exceptions: active ones unless `state` says otherwise, the first page without a cursor. */
export function exceptionsQueryOf(options: ExceptionsQuery = {}): QueryOf<'listExceptions'> {
  return {
    state: options.state === 'active' ? undefined : options.state,
    control: options.control || undefined,
    expiringWithin: options.expiringWithin,
    cursor: options.cursor || undefined,
  };
}

/** The page's own filter, from its address: `?state=all` shows expired and revoked ones too. */
export const stateFrom = (query: URLSearchParams): 'active' | 'all' => (query.get('state') === 'all' ? 'all' : 'active');

/** The dates the form's date input offers: from tomorrow to the furthest the API allows. */
export const expiryBounds = (today: string): { min: string; max: string } => ({
  min: addDays(today, 1),
  max: addDays(today, maxExceptionDays),
});

/**
 * "expires in 12 days", "expires tomorrow", "expires today", "expired 3 days ago": the day the
 * finding counts again as seen on `today`; a revoked exception says so instead.
 */
export function expiryText(exception: Pick<Exception, 'expiresOn' | 'state'>, today: string): string {
  if (exception.state === 'revoked' || exception.state === 'refused') return exception.state;
  const days = daysBetween(today, exception.expiresOn);
  if (days < 0) return `expired ${plural(-days, 'day')} ago`;
  if (days === 0) return 'expires today';
  if (days === 1) return 'expires tomorrow';
  return `expires in ${plural(days, 'day')}`;
}

/** What an exception covers, as a person reads it. */
export const subjectText = (subject: string | null): string => subject ?? 'Whole control';

/** Who an actor is, as a person reads it: the email, else the name, else the account id. */
export const actorText = (actor: Exception['requestedBy']): string => actor.email ?? actor.name ?? actor.uid;

/**
 * What the page says next to Approve in public mode, where the server cannot tell the requester
 * and the approver apart (the API records such a review as not independent).
 */
export const publicReviewNote =
  'This server runs in public mode: nobody needs to sign in, so it cannot tell who requested this from who approves ' +
  'it. An approval here is recorded as not independent.';

/** "Approved by bo@example.com" or "Refused by bo@example.com: Migrate first.", from the review. */
export function reviewText(review: NonNullable<Exception['review']>): string {
  const verb = review.decision === 'approved' ? 'Approved' : 'Refused';
  return `${verb} by ${actorText(review.by)}${review.comment ? `: ${review.comment}` : ''}`;
}

/** The subjects the control's findings name, failing ones first, each once: what an exception may cover. */
export function subjectsOf(findings: readonly Pick<Finding, 'subject' | 'outcome'>[]): string[] {
  const named = findings.filter((finding) => finding.subject !== undefined);
  const failing = named.filter((finding) => finding.outcome === 'fail' || finding.outcome === 'error');
  return [...new Set([...failing, ...named].map((finding) => finding.subject!))];
}

export interface ExceptionValues {
  /** A subject from `subjectsOf`, or empty for the whole control. */
  subject: string;
  justification: string;
  /** `YYYY-MM-DD` from the date input, or empty. */
  expiresOn: string;
}

export const emptyExceptionValues = (): ExceptionValues => ({ subject: '', justification: '', expiresOn: '' });

/** The body of `POST /api/exceptions`; the server judges it, so nothing is checked here. */
export const exceptionBody = (controlId: string, values: ExceptionValues): ExceptionInput => ({
  controlId,
  subject: values.subject === '' ? null : values.subject,
  justification: values.justification.trim(),
  expiresOn: values.expiresOn,
});

export const exceptionFields = ['subject', 'justification', 'expiresOn'] as const;
export type ExceptionField = (typeof exceptionFields)[number];

export const exceptionFieldLabels: Record<ExceptionField, string> = {
  subject: 'Subject',
  justification: 'Justification',
  expiresOn: 'Expiry date',
};

export interface ExceptionProblems {
  /** Messages under each field, in the server's words after the field's label. */
  byField: Partial<Record<ExceptionField, string[]>>;
  /** What to say at the top of the form. */
  summary: string;
}

/**
 * Places a problem answer on the form: a body error whose pointer names a field goes under it
 * ("Expiry date must be after today (2026-11-24, UTC)"); anything else stays in the summary.
 */
export function exceptionProblemsOf(problem: Problem): ExceptionProblems {
  const byField: Partial<Record<ExceptionField, string[]>> = {};
  for (const error of problem.errors ?? []) {
    const name = error.in === 'body' ? error.pointer?.split('/')[1] : undefined;
    if (!(exceptionFields as readonly string[]).includes(name ?? '')) continue;
    const field = name as ExceptionField;
    (byField[field] ??= []).push(`${exceptionFieldLabels[field]} ${error.message}`);
  }
  return { byField, summary: problem.detail ?? problem.title };
}
