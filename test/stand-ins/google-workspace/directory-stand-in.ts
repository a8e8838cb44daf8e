/**
 * A stand-in for the Google Workspace APIs the connector calls, on one loopback root URL, for
 * driving the real `@googleapis/admin` and `@googleapis/cloudidentity` SDKs in tests and the
 * bench: the Admin SDK Directory API's users.list, and the Cloud Identity Policy API's
 * policies.list (policy-stand-in.ts). It speaks users.list as Google's discovery document
 * describes it (admin-directory-v1.subset.json): every request is checked against the method's
 * HTTP method, path and declared query parameters, every body it answers is validated against
 * the `Users` schema (the fixtures in full by a unit test); a violation is recorded in
 * `violations` and answered 400, so a test sees it. Pages follow the API: `maxResults` (default
 * 100, at most 500), an opaque `nextPageToken` on every page but the last, `projection` (basic
 * leaves out custom schemas) and `fields` (a partial response).
 *
 * Not Google: one customer (`my_customer` or its ID), users built by index
 * (workspace-fixtures.ts), policies from workspace-policies.ts, one bearer token. Faults, by the
 * number of the call to either API (from 1, retries included): a 429 with `Retry-After: 1` at
 * one call, a 500 from one call on, a revoked token (401), and a delegation without one scope
 * (403 on every method that scope would allow, in the discovery documents' `scopes`), in the
 * error shapes Google answers.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as wait } from 'node:timers/promises';
import { requestProblems, schemaValidator, type DiscoveryDocument } from './discovery.ts';
import { parseFields, selectFields } from './partial-response.ts';
import { answerPolicies, policiesList } from './policy-stand-in.ts';
import { fixtureCustomerId, workspaceUser } from './workspace-fixtures.ts';
import { workspacePolicies, type Policy } from './workspace-policies.ts';

export const directoryDiscovery = JSON.parse(
  readFileSync(new URL('./admin-directory-v1.subset.json', import.meta.url), 'utf8'),
) as DiscoveryDocument;

const usersList = directoryDiscovery.resources.users!.methods.list!;
const validUsers = schemaValidator(directoryDiscovery, 'Users');

export interface DirectoryFaults {
  /** This call answers 429 with `Retry-After: 1`. */
  rateLimitAtCall?: number;
  /** This call and every later one answer 500. */
  failFromCall?: number;
  /** The token has been revoked: every call answers 401. */
  revoked?: boolean;
  /** The delegation lacks this scope: every call to a method it would allow answers 403 insufficient scopes. */
  missingScope?: string;
}

export interface DirectoryStandInOptions {
  users: number;
  /** The customer's policies; by default workspacePolicies()'s strong top-level ones. */
  policies?: readonly Policy[];
  /** The clock the users' sign-ins are relative to. */
  now: Date;
  latencyMs?: number;
  token?: string;
  faults?: DirectoryFaults;
}

export interface DirectoryStandIn {
  /** The SDK's `rootUrl`, e.g. `http://127.0.0.1:1234/`. */
  endpoint: string;
  token: string;
  /** Requests answered, to either API (retries included). */
  readonly calls: number;
  /** Of them, the requests to policies.list. */
  readonly policyCalls: number;
  /** The most requests in flight at once. */
  readonly peakInFlight: number;
  /** Each users.list request's query, in order. */
  readonly queries: URLSearchParams[];
  /** Each policies.list request's query, in order. */
  readonly policyQueries: URLSearchParams[];
  /** Requests or answers that broke the description. */
  readonly violations: string[];
  close(): Promise<void>;
}

function googleError(code: number, message: string, reason: string, status: string, extra: Record<string, unknown> = {}) {
  return { error: { code, message, errors: [{ message, domain: 'global', reason }], status, ...extra } };
}

/** The answers Google gives for each fault, bodies and headers as the API words them. */
const faultAnswers = {
  revoked: {
    status: 401,
    headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
    body: googleError(
      401,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      'authError',
      'UNAUTHENTICATED',
    ),
  },
  missingScope: (scope: string) => ({
    status: 403,
    headers: {
      'www-authenticate': `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${scope}"`,
    },
    body: googleError(403, 'Request had insufficient authentication scopes.', 'insufficientPermissions', 'PERMISSION_DENIED', {
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
          domain: 'googleapis.com',
        },
      ],
    }),
  }),
  rateLimited: {
    status: 429,
    headers: { 'retry-after': '1' },
    body: googleError(
      429,
      "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user' of service 'admin.googleapis.com'.",
      'rateLimitExceeded',
      'RESOURCE_EXHAUSTED',
    ),
  },
  failed: { status: 500, headers: {}, body: googleError(500, 'Internal error encountered.', 'backendError', 'INTERNAL') },
};

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Writes an answer whose body is already serialised. */
function send(response: http.ServerResponse, { status, headers }: Answer, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  response.end(body);
}

function pageToken(offset: number, customer: string): string {
  return Buffer.from(JSON.stringify({ offset, customer })).toString('base64url');
}

function offsetOf(token: string | null, customer: string): number | undefined {
  if (token === null) return 0;
  try {
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { offset?: unknown; customer?: unknown };
    return decoded.customer === customer && typeof decoded.offset === 'number' ? decoded.offset : undefined;
  } catch {
    return undefined;
  }
}

/** The page users.list answers, validated, or the problems that make it invalid. */
function usersPage(url: URL, options: DirectoryStandInOptions, offset: number): { body: unknown; problems: string[] } {
  const customer = url.searchParams.get('customer') as string;
  const size = Number(url.searchParams.get('maxResults') ?? '100');
  const end = Math.min(offset + size, options.users);
  const users = [];
  for (let index = offset; index < end; index += 1) {
    const { customSchemas, ...basic } = workspaceUser(index, options.now);
    users.push(url.searchParams.get('projection') === 'full' ? { ...basic, customSchemas } : basic);
  }
  const page = {
    kind: 'admin#directory#users',
    etag: `"page-${offset}"`,
    users,
    ...(end < options.users ? { nextPageToken: pageToken(end, customer) } : {}),
  };
  const fields = url.searchParams.get('fields');
  const body = fields ? selectFields(page, parseFields(fields)) : page;
  const problems = validUsers(body) ? [] : [`response: ${JSON.stringify(validUsers.errors)}`];
  return { body, problems };
}

export async function startDirectoryStandIn(options: DirectoryStandInOptions): Promise<DirectoryStandIn> {
  const token = options.token ?? 'stand-in-access-token';
  const faults = options.faults ?? {};
  const policies = options.policies ?? workspacePolicies();
  const state = {
    calls: 0,
    policyCalls: 0,
    inFlight: 0,
    peakInFlight: 0,
    queries: [] as URLSearchParams[],
    policyQueries: [] as URLSearchParams[],
    violations: [] as string[],
  };

  function answer(request: http.IncomingMessage, call: number): Answer {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const policyCall = url.pathname === '/v1/policies';
    if (policyCall) state.policyCalls += 1;
    (policyCall ? state.policyQueries : state.queries).push(url.searchParams);
    const method = policyCall ? policiesList : usersList;
    const fault = faults.revoked
      ? faultAnswers.revoked
      : faults.missingScope && method.scopes?.includes(faults.missingScope)
        ? faultAnswers.missingScope(faults.missingScope)
        : faults.rateLimitAtCall === call
          ? faultAnswers.rateLimited
          : faults.failFromCall !== undefined && call >= faults.failFromCall
            ? faultAnswers.failed
            : undefined;
    if (fault) return fault;
    if (request.headers.authorization !== `Bearer ${token}`)
      return { status: 401, body: faultAnswers.revoked.body, headers: faultAnswers.revoked.headers };
    if (policyCall) {
      const reply = answerPolicies(request.method ?? '', url, policies);
      state.violations.push(...reply.problems.map((problem) => `policies.list: ${problem}`));
      return reply;
    }
    const problems = requestProblems(directoryDiscovery, usersList, request.method ?? '', url);
    const customer = url.searchParams.get('customer');
    if (customer === null && !url.searchParams.has('domain')) problems.push('neither customer nor domain');
    if (problems.length > 0) {
      state.violations.push(...problems.map((problem) => `request: ${problem}`));
      return { status: 400, body: googleError(400, 'Invalid Input', 'invalid', 'INVALID_ARGUMENT') };
    }
    if (customer !== 'my_customer' && customer !== fixtureCustomerId) {
      return { status: 404, body: googleError(404, 'Resource Not Found: customer', 'notFound', 'NOT_FOUND') };
    }
    const offset = offsetOf(url.searchParams.get('pageToken'), customer);
    if (offset === undefined)
      return { status: 400, body: googleError(400, 'Invalid Input: pageToken', 'invalid', 'INVALID_ARGUMENT') };
    const page = usersPage(url, options, offset);
    if (page.problems.length > 0) {
      state.violations.push(...page.problems);
      return { status: 400, body: googleError(400, 'Stand-in answer broke the description', 'invalid', 'INVALID_ARGUMENT') };
    }
    return { status: 200, body: page.body };
  }

  const server = http.createServer((request, response) => {
    state.calls += 1;
    const call = state.calls;
    state.inFlight += 1;
    state.peakInFlight = Math.max(state.peakInFlight, state.inFlight);
    void (async () => {
      // The latency is the time to an answer: the stand-in's own work is inside it, not added to it.
      const arrived = performance.now();
      const reply = answer(request, call);
      const body = JSON.stringify(reply.body);
      await wait(Math.max(0, (options.latencyMs ?? 0) - (performance.now() - arrived)));
      send(response, reply, body);
      state.inFlight -= 1;
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/`,
    token,
    get calls() {
      return state.calls;
    },
    get policyCalls() {
      return state.policyCalls;
    },
    get peakInFlight() {
      return state.peakInFlight;
    },
    queries: state.queries,
    policyQueries: state.policyQueries,
    violations: state.violations,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
