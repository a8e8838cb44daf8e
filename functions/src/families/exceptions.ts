/**
 * The `exceptions` family: recording, listing and revoking risk acceptances
 * (exceptions/exception-store.ts keeps them; assessment/exceptions.ts applies them). States are
 * judged by today in the report time zone: an exception is active before its expiry day. The
 * store refuses an exception past the cap (`too_many_exceptions`, worded in
 * http/domain-problems.ts); the listing pages with the shared cursors (paging.ts).
 */
import { maxExceptionDays } from '@evident/contract';
import { addDays, dayIn, isCalendarDate } from '../assessment/dates.js';
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem, invalidRequest, type RequestError } from '../http/problem.js';
import { ExceptionStore, newExceptionId, type StoredException } from '../exceptions/exception-store.js';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type ExceptionsFamilyOptions = FamilyOptions & ServiceOptions;

function view({ record, revocation }: StoredException, today: string) {
  const state = revocation ? 'revoked' : today < record.expiresOn ? 'active' : 'expired';
  return {
    id: record.id,
    controlId: record.controlId,
    subject: record.subject,
    justification: record.justification,
    expiresOn: record.expiresOn,
    createdAt: record.createdAt,
    approver: record.approver,
    state,
    revoked: revocation ?? null,
  } as const;
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

export function createExceptionsFamily(options: ExceptionsFamilyOptions = {}) {
  const services = servicesFrom(options);
  const context = async () => {
    const s = await services();
    return { s, store: new ExceptionStore(s.store), today: dayIn(s.timeZone(), s.now()) };
  };
  const notFound = (id: string) => new ApiProblem('exception_not_found', `No exception has the id "${id}".`);

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
          approver: actorOf(request.caller),
        };
        await store.create(record, today);
        return {
          status: 201,
          body: view({ record, revocation: undefined }, today),
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
        return { status: 200, body: view({ record: stored.record, revocation }, today) };
      },
    },
    options,
  );
}

export const handler = createExceptionsFamily();
