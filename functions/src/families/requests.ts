/**
 * The `requests` family: the auditor's request list (requests/request-model.ts says what a
 * request is and how each step changes it; requests/request-store.ts keeps them; docs/
 * audit-requests.md tells the workflow). Authorization is flat: anyone who may sign in takes any
 * step, and each step records who and when. A step names the version it was based on, and the
 * store refuses it when the request changed meanwhile, so no answer is ever overwritten unseen.
 */
import { auditRequestIdPattern, auditRequestLimits } from '@evident/contract';
import { dayIn } from '../assessment/dates.js';
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import type { OperationInput, RequestContext } from '../http/operation-types.js';
import { ApiProblem, invalidRequest, type RequestError } from '../http/problem.js';
import { requestListCsv } from '../requests/request-csv.js';
import {
  answered,
  decided,
  edited,
  newRequest,
  periodFault,
  reopened,
  type AuditRequest,
  type Period,
} from '../requests/request-model.js';
import { AuditRequestStore, newRequestId } from '../requests/request-store.js';
import { answerErrors } from './request-answers.js';
import { importRequestList } from './request-import.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type RequestsFamilyOptions = FamilyOptions & ServiceOptions;

interface Context {
  s: Services;
  store: AuditRequestStore;
  today: string;
}

const notFound = (id: string) => new ApiProblem('audit_request_not_found', `No request of the list has the id "${id}".`);

/** What the schema cannot check of a new or edited request: a control of the catalog, a period of at most a year. */
function inputErrors(s: Services, input: { controlId?: string; period?: Period }): RequestError[] {
  const errors: RequestError[] = [];
  if (input.controlId !== undefined && !s.catalog.controls.some((control) => control.id === input.controlId))
    errors.push({ in: 'body', pointer: '/controlId', message: 'names no control in the catalog' });
  const fault = input.period && periodFault(input.period);
  if (fault) errors.push({ in: 'body', pointer: `/period/${fault.field}`, message: fault.message });
  return errors;
}

const blank = (text: string | undefined) => text !== undefined && text.trim() === '';

/** A step on the request `id` as of `basedOn`: 404 without it, 409 when it changed meanwhile. */
async function stepOn({ store }: Context, id: string, basedOn: number, change: (request: AuditRequest) => AuditRequest) {
  const next = await store.update(id, basedOn, change);
  if (!next) throw notFound(id);
  return { status: 200, body: next } as const;
}

const stepBy = (c: Context, request: RequestContext) => ({ by: actorOf(request.caller), at: c.s.now().toISOString() });

async function create(c: Context, { body }: OperationInput<'createAuditRequest'>, request: RequestContext) {
  const errors = inputErrors(c.s, body);
  if (blank(body.description)) errors.push({ in: 'body', pointer: '/description', message: 'is blank' });
  if (errors.length > 0) throw invalidRequest(errors);
  const made = newRequest({ ...body, id: body.id ?? newRequestId(c.today) }, stepBy(c, request));
  await c.store.createAll([made]);
  return { status: 201, body: made, headers: { Location: `/api/requests/${made.id}` } } as const;
}

async function edit(c: Context, { path, body }: OperationInput<'editAuditRequest'>, request: RequestContext) {
  const errors = inputErrors(c.s, body);
  if (blank(body.description)) errors.push({ in: 'body', pointer: '/description', message: 'is blank' });
  if (errors.length > 0) throw invalidRequest(errors);
  return stepOn(c, path.id, body.basedOn, (stored) => edited(stored, body, stepBy(c, request)));
}

async function answer(c: Context, { path, body }: OperationInput<'answerAuditRequest'>, request: RequestContext) {
  const stored = await c.store.get(path.id);
  if (!stored) throw notFound(path.id);
  const add = (body.add ?? []).map((given) => ({ kind: given.kind, ref: given.ref, note: given.note?.trim() || null }));
  const errors = await answerErrors(c.s, stored.controlId, c.today, add);
  if (errors.length > 0) throw invalidRequest(errors);
  const comment = body.comment?.trim();
  return stepOn(c, path.id, body.basedOn, (current) =>
    answered(current, { add, remove: body.remove ?? [] }, { ...stepBy(c, request), ...(comment ? { comment } : {}) }),
  );
}

/** A comment that must say something: present and not blank. */
function needComment(comment: string): string {
  const trimmed = comment.trim();
  if (!trimmed) throw invalidRequest([{ in: 'body', pointer: '/comment', message: 'is blank: say why' }]);
  return trimmed;
}

async function exportCsv(c: Context) {
  const csv = requestListCsv(await c.store.list());
  return {
    status: 200,
    body: Buffer.from(csv),
    contentType: 'text/csv; charset=utf-8',
    headers: { 'Content-Disposition': 'attachment; filename="requests.csv"' },
  } as const;
}

export function createRequestsFamily(options: RequestsFamilyOptions = {}) {
  const services = servicesFrom(options);
  const context = async (): Promise<Context> => {
    const s = await services();
    return { s, store: new AuditRequestStore(s.store), today: dayIn(s.timeZone(), s.now()) };
  };
  return createFamily(
    'requests',
    {
      createAuditRequest: async (input, request) => create(await context(), input, request),
      listAuditRequests: async ({ query }) => {
        const items = await (await context()).store.list(query);
        return { status: 200, body: { items, limit: auditRequestLimits.requests } };
      },
      getAuditRequest: async ({ path }) => {
        const found = await (await context()).store.get(path.id);
        if (!found) throw notFound(path.id);
        return { status: 200, body: found };
      },
      editAuditRequest: async (input, request) => edit(await context(), input, request),
      answerAuditRequest: async (input, request) => answer(await context(), input, request),
      acceptAuditRequest: async ({ path, body }, request) => {
        const c = await context();
        const comment = body.comment?.trim();
        const step = { ...stepBy(c, request), ...(comment ? { comment } : {}) };
        return stepOn(c, path.id, body.basedOn, (stored) => decided(stored, 'accepted', step));
      },
      returnAuditRequest: async ({ path, body }, request) => {
        const c = await context();
        const step = { ...stepBy(c, request), comment: needComment(body.comment) };
        return stepOn(c, path.id, body.basedOn, (stored) => decided(stored, 'returned', step));
      },
      reopenAuditRequest: async ({ path, body }, request) => {
        const c = await context();
        const step = { ...stepBy(c, request), comment: needComment(body.comment) };
        return stepOn(c, path.id, body.basedOn, (stored) => reopened(stored, step));
      },
      importAuditRequests: async ({ body }, request) => {
        const c = await context();
        return importRequestList(c, body, { ...stepBy(c, request), idShape: new RegExp(auditRequestIdPattern) });
      },
      exportAuditRequests: async () => exportCsv(await context()),
    },
    options,
  );
}

export const handler = createRequestsFamily();
