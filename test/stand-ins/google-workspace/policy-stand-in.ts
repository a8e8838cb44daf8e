/**
 * The Cloud Identity Policy API's policies.list, as the Google Workspace stand-in serves it
 * (directory-stand-in.ts routes `/v1/policies` here, so both APIs answer at one root URL, as
 * the connector's single stand-in address requires). Held to cloudidentity-v1.subset.json: the
 * request's method, path and query parameters are checked against it, and every page it answers
 * is validated against `ListPoliciesResponse` before it leaves.
 *
 * Not Google: the `filter` is read as the API documents it — at most one
 * `customer == "customers/{customer}"` clause and one `setting.type.matches('<RE2>')` clause,
 * joined by `&&`, anything else refused 400 and recorded — and the regular expression is run by
 * JavaScript's engine, which agrees with RE2 on the expressions used here. Pages follow the API:
 * `pageSize` default 50, values above 100 taken as 100, a `nextPageToken` on every page but the
 * last, which only the same filter may use.
 */
import { readFileSync } from 'node:fs';
import { requestProblems, schemaValidator, type DiscoveryDocument } from './discovery.ts';
import { parseFields, selectFields } from './partial-response.ts';
import { fixtureCustomerId } from './workspace-fixtures.ts';
import type { Policy } from './workspace-policies.ts';

export const cloudIdentityDiscovery = JSON.parse(
  readFileSync(new URL('./cloudidentity-v1.subset.json', import.meta.url), 'utf8'),
) as DiscoveryDocument;

export const policiesList = cloudIdentityDiscovery.resources.policies!.methods.list!;
const validPage = schemaValidator(cloudIdentityDiscovery, 'ListPoliciesResponse');

export interface PolicyAnswer {
  status: number;
  body: unknown;
  /** What broke the description: the request's problems or the answer's. */
  problems: string[];
}

interface Filter {
  customer: string;
  settingType?: RegExp;
}

/** A CEL string literal's text, its escapes undone (`\\` → `\`, `\'` → `'`, `\"` → `"`). */
function unquoted(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, '$1');
}

export function parseFilter(text: string | null): Filter | string {
  const filter: Filter = { customer: 'my_customer' };
  if (text === null || text.trim() === '') return filter;
  let customers = 0;
  for (const clause of text.split('&&').map((part) => part.trim())) {
    const customer = /^customer\s*==\s*("customers\/[^"]+"|'customers\/[^']+')$/.exec(clause)?.[1];
    const pattern = /^setting\.type\.matches\(('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\)$/.exec(clause)?.[1];
    if (customer !== undefined && customers++ === 0) filter.customer = unquoted(customer).slice('customers/'.length);
    else if (pattern !== undefined && !filter.settingType) filter.settingType = new RegExp(unquoted(pattern));
    else return `filter clause not allowed: ${clause}`;
  }
  return filter;
}

function pageToken(offset: number, filter: string): string {
  return Buffer.from(JSON.stringify({ offset, filter })).toString('base64url');
}

function offsetOf(token: string | null, filter: string): number | undefined {
  if (token === null) return 0;
  try {
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { offset?: unknown; filter?: unknown };
    return decoded.filter === filter && typeof decoded.offset === 'number' ? decoded.offset : undefined;
  } catch {
    return undefined;
  }
}

const invalid = (message: string) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } });

/** The answer to one policies.list request for a customer holding `policies`. */
export function answerPolicies(httpMethod: string, url: URL, policies: readonly Policy[]): PolicyAnswer {
  const problems = requestProblems(cloudIdentityDiscovery, policiesList, httpMethod, url);
  const filter = parseFilter(url.searchParams.get('filter'));
  if (typeof filter === 'string') problems.push(filter);
  const size = Number(url.searchParams.get('pageSize') ?? '0');
  if (size < 0) problems.push(`pageSize=${size} is negative`);
  if (problems.length > 0 || typeof filter === 'string') {
    return { status: 400, body: invalid('Request contains an invalid argument.'), problems };
  }
  if (filter.customer !== 'my_customer' && filter.customer !== fixtureCustomerId) {
    return { status: 404, body: { error: { code: 404, message: 'Customer not found.', status: 'NOT_FOUND' } }, problems: [] };
  }
  const filterText = url.searchParams.get('filter') ?? '';
  const offset = offsetOf(url.searchParams.get('pageToken'), filterText);
  if (offset === undefined) return { status: 400, body: invalid('Invalid page token.'), problems: [] };
  const matching = policies.filter((policy) => !filter.settingType || filter.settingType.test(policy.setting?.type ?? ''));
  const end = Math.min(offset + (size === 0 ? 50 : Math.min(size, 100)), matching.length);
  const page = {
    policies: matching.slice(offset, end),
    ...(end < matching.length ? { nextPageToken: pageToken(end, filterText) } : {}),
  };
  const fields = url.searchParams.get('fields');
  const body = fields ? selectFields(page, parseFields(fields)) : page;
  if (!validPage(body)) {
    return { status: 500, body: invalid('Stand-in answer broke the description'), problems: [JSON.stringify(validPage.errors)] };
  }
  return { status: 200, body, problems: [] };
}
