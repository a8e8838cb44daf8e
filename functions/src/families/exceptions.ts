/**
 * The `exceptions` family: requesting, reviewing (approving or refusing), listing and revoking
 * risk acceptances (exceptions/exception-store.ts keeps them; assessment/exceptions.ts applies
 * the approved ones). Who may review a request is the four-eyes rule (common/four-eyes.ts),
 * judged in the server's mode. States are judged by today in the report time zone: an approved
 * exception is active before its expiry day. The store refuses an exception past the cap
 * (`too_many_exceptions`, worded in http/domain-problems.ts); the listing pages with the shared
 * cursors (paging.ts).
 */
import { maxExceptionDays } from '@evident/contract';
import { addDays, dayIn, isCalendarDate } from '../assessment/dates.js';
import { reviewVerdict } from '../common/four-eyes.js';
import { actorOf, type Caller } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem, invalidRequest, type RequestError } from '../http/problem.js';
import { ExceptionStore, newExceptionId, type Review, type StoredException } from '../exceptions/exception-store.js';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type ExceptionsFamilyOptions = FamilyOptions & ServiceOptions;

function stateOf({ record, review, revocation }: StoredException, today: string) {
  if (revocation) return 'revoked';
  if (review?.decision === 'refused') return 'refused';
  if (today >= record.expiresOn) return 'expired';
  return review ? 'active' : 'requested';
}

function view(stored: StoredException, today: string) {
  const { record, review, revocation } = stored;
  return {
    id: record.id,
    controlId: record.controlId,
    subject: record.subject,
    justification: record.justification,
    expiresOn: record.expiresOn,
    createdAt: record.createdAt,
    requestedBy: record.requestedBy,
    approver: review?.decision === 'approved' ? review.by : record.requestedBy,
    state: stateOf(stored, today),
    review: review ?? null,
    revoked: revocation ?? null,
  } as const;
}

const nameOf = (actor: { uid: string; email?: string }) => actor.email ?? actor.uid;

/** Why an exception awaits no review, as a problem's detail; undefined when it awaits one. */
function notPending({ record, review, revocation }: StoredException, today: string): string | undefined {
  if (review) return `The exception ${record.id} was ${review.decision} at ${review.at} by ${nameOf(review.by)}.`;
  if (revocation) return `The exception ${record.id} was revoked at ${revocation.at} by ${nameOf(revocation.by)}.`;
  if (today >= record.expiresOn) return `The exception ${record.id} expired on ${record.expiresOn} without a review.`;
  return undefined;
}

/** What the schema cannot check: a control of the catalog, a subject its findings name, an expiry within a year. */
async function inputErrors(
  s: Services,
  input: { controlId: string; subject?: string | null | undefined; expiresOn: string },
  today: string,
): Promise<RequestError[]> {
  const errors: RequestError[] = [];
  if (!s.catalog.controls.some((control) => control.id === input.controlId)) {
    errors.push({ in: 'body', pointer: '/controlId', message: 'names no control in the catalog' });
  } else if (input.subject !== undefined && input.subject !== null) {
    const latest = await s.reports.latestOnOrBefore(today);
    const result = latest?.report.controls.find((control) => control.id === input.controlId);
    if (!result?.findings.some((finding) => finding.subject === input.subject)) {
      errors.push({
        in: 'body',
        pointer: '/subject',
        message: latest
          ? `is not a subject of ${input.controlId}'s findings in the report of ${latest.date}`
          : 'cannot be checked: there is no report yet',
      });
    }
  }
  const latestExpiry = addDays(today, maxExceptionDays);
  if (!isCalendarDate(input.expiresOn)) {
    errors.push({ in: 'body', pointer: '/expiresOn', message: 'is not a calendar date (YYYY-MM-DD)' });
  } else if (input.expiresOn <= today) {
    errors.push({ in: 'body', pointer: '/expiresOn', message: `must be after today (${today}, ${s.timeZone()})` });
  } else if (input.expiresOn > latestExpiry) {
    errors.push({
      in: 'body',
      pointer: '/expiresOn',
      message: `must be at most ${maxExceptionDays} days ahead (${latestExpiry})`,
    });
  }
  return errors;
}

/** What a review needs of its request: who calls, and in which mode. */
interface ReviewRequest {
  caller: Caller | undefined;
  authRequired: boolean;
}

const notFound = (id: string) => new ApiProblem('exception_not_found', `No exception has the id "${id}".`);

/** Approves or refuses the exception `id` once, as the four-eyes rule allows the caller. */
async function review(
  { s, store, today }: { s: Services; store: ExceptionStore; today: string },
  id: string,
  decision: Review['decision'],
  comment: string | null,
  request: ReviewRequest,
) {
  const stored = await store.get(id);
  if (!stored) throw notFound(id);
  const why = notPending(stored, today);
  if (why !== undefined) throw new ApiProblem('exception_not_pending', why);
  const reviewer = actorOf(request.caller);
  const verdict = reviewVerdict(stored.record.requestedBy, reviewer, request.authRequired ? 'protected' : 'public');
  if (verdict.outcome === 'self') {
    throw new ApiProblem('self_review', `You requested the exception ${id}; another person approves or refuses it.`);
  }
  const wanted: Review = {
    decision,
    at: s.now().toISOString(),
    by: reviewer,
    comment,
    independent: verdict.outcome === 'independent',
    caveat: verdict.outcome === 'not-independent' ? verdict.caveat : null,
  };
  const { outcome, standing } = await store.review(stored.record, wanted);
  if (outcome === 'already') throw new ApiProblem('exception_not_pending', notPending({ ...stored, review: standing }, today)!);
  return { status: 200, body: view({ ...stored, review: wanted }, today) } as const;
}

export function createExceptionsFamily(options: ExceptionsFamilyOptions = {}) {
  const services = servicesFrom(options);
  const context = async () => {
    const s = await services();
    return { s, store: new ExceptionStore(s.store), today: dayIn(s.timeZone(), s.now()) };
  };

  return createFamily(
    'exceptions',
    {
      createException: async ({ body }, request) => {
        const { s, store, today } = await context();
        const errors = await inputErrors(s, body, today);
        if (errors.length > 0) throw invalidRequest(errors);
        const record = {
          id: newExceptionId(body.expiresOn),
          controlId: body.controlId,
          subject: body.subject ?? null,
          justification: body.justification.trim(),
          expiresOn: body.expiresOn,
          createdAt: s.now().toISOString(),
          requestedBy: actorOf(request.caller),
        };
        await store.create(record, today);
        return {
          status: 201,
          body: view({ record, review: undefined, revocation: undefined }, today),
          headers: { Location: `/api/exceptions/${record.id}` },
        };
      },
      listExceptions: async ({ query }) => {
        const { store, today } = await context();
        const after = placeOf('exceptions', query.cursor);
        const page = await store.page({
          state: query.state,
          today,
          ...(query.control ? { control: query.control } : {}),
          ...(query.expiringWithin ? { expiringBy: addDays(today, query.expiringWithin) } : {}),
          ...(after !== undefined ? { after } : {}),
          limit: query.limit,
        });
        const body = pageBody('exceptions', { ...page, items: page.items.map((stored) => view(stored, today)) });
        return { status: 200, body: { today, ...body } };
      },
      getException: async ({ path }) => {
        const { store, today } = await context();
        const stored = await store.get(path.id);
        if (!stored) throw notFound(path.id);
        return { status: 200, body: view(stored, today) };
      },
      approveException: async ({ path, body }, request) =>
        review(await context(), path.id, 'approved', body?.comment?.trim() || null, request),
      refuseException: async ({ path, body }, request) => {
        const reason = body.reason.trim();
        if (!reason) throw invalidRequest([{ in: 'body', pointer: '/reason', message: 'is blank: say why the risk is refused' }]);
        return review(await context(), path.id, 'refused', reason, request);
      },
      revokeException: async ({ path, body }, request) => {
        const { s, store, today } = await context();
        const stored = await store.get(path.id);
        if (!stored) throw notFound(path.id);
        const revocation = { at: s.now().toISOString(), by: actorOf(request.caller), reason: body?.reason?.trim() || null };
        const { outcome, standing } = await store.revoke(stored.record, revocation);
        if (outcome === 'already') {
          throw new ApiProblem(
            'exception_revoked',
            `The exception ${path.id} was revoked at ${standing.at} by ${standing.by.email ?? standing.by.uid}.`,
          );
        }
        return { status: 200, body: view({ ...stored, revocation }, today) };
      },
    },
    options,
  );
}

export const handler = createExceptionsFamily();
