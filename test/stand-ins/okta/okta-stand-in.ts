/**
 * A stand-in for Okta's Management API, for tests and the bench: a local HTTP server on 127.0.0.1
 * that answers exactly the calls the Okta connector makes, as Okta does — `Link` headers with
 * rel="self" and rel="next" carrying `after`, `X-Rate-Limit-*` headers, and Okta's error bodies —
 * and is held to Okta's published description (okta-description.ts): a request the description does
 * not allow, or a body that does not fit its schema, is answered with an error and recorded in
 * `violations`. It is not Okta: it implements only the filters the connector sends.
 *
 * Credentials: its API token (`SSWS <token>`), or, when given a service app, the access tokens its
 * org authorization server grants at `POST /oauth2/v1/token` (org-authorization-server.ts, held to
 * Okta's OAuth description in oauth-description.ts) as `Bearer <access token>`: an operation none of
 * whose scopes (the description's `oauth2` security) the token carries answers 403 E0000006 with
 * Okta's `WWW-Authenticate: Bearer ... error="insufficient_scope"`.
 *
 * Faults: a 429 at call k (X-Rate-Limit-Reset is this second and Date says so, so the SDK waits
 * 1 s), a 500 from call k on, 401 E0000011 for any credential but its own, 403 E0000006 on every
 * operation that needs a withheld scope (the role behind the credential lacks the permission).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { tokenRequestErrors, tokenResponseErrors } from './oauth-description.ts';
import { operationOf, queryErrors, responseErrors, type DescribedOperation } from './okta-description.ts';
import { buildOktaOrg, type Json, type OktaOrg, type OrgOptions } from './okta-fixtures.ts';
import { OrgAuthorizationServer, type ServiceApp } from './org-authorization-server.ts';

export interface OktaStandInOptions extends OrgOptions {
  users: number;
  /** Charged on every call before it is answered. */
  latencyMs?: number;
  /** The API token it accepts (as `SSWS <token>`). */
  token?: string;
  rateLimitAtCall?: number;
  failFromCall?: number;
  /** An OAuth scope the credential lacks: every operation that needs it answers 403. */
  withheldScope?: string;
  /** The OAuth service app whose access tokens it accepts besides its API token. */
  serviceApp?: ServiceApp;
}

export interface OktaStandIn {
  url: string;
  token: string;
  org: OktaOrg;
  /** Every request answered, faults and retries included. */
  readonly calls: number;
  /** Requests answered, by the described path template (`/api/v1/users/{userId}/factors`, `/oauth2/v1/token`). */
  readonly callsTo: ReadonlyMap<string, number>;
  readonly maxInFlight: number;
  readonly violations: readonly string[];
  close(): Promise<void>;
}

const tokenPath = '/oauth2/v1/token';

const oktaError = (errorCode: string, errorSummary: string): Json => ({
  errorCode,
  errorSummary,
  errorLink: errorCode,
  errorId: `oae${randomUUID().replaceAll('-', '').slice(0, 19)}`,
  errorCauses: [],
});

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** One page of `items` after the cursor `after` (the last id of the previous page), and Okta's Link header. */
function paged(base: URL, items: Json[], query: URLSearchParams, defaultLimit: number, maxLimit: number): Answer {
  const limit = Math.min(Number(query.get('limit') ?? defaultLimit), maxLimit);
  const after = query.get('after');
  const start = after === null ? 0 : items.findIndex((item) => String(item.id) > after);
  const page = start < 0 ? [] : items.slice(start, start + limit);
  const self = new URL(base);
  const links = [`<${self.href}>; rel="self"`];
  if (start >= 0 && start + limit < items.length) {
    const next = new URL(base);
    next.searchParams.set('after', String(page.at(-1)!.id));
    next.searchParams.set('limit', String(limit));
    links.push(`<${next.href}>; rel="next"`);
  }
  return { status: 200, body: page, headers: { link: links.join(', ') } };
}

function answer(org: OktaOrg, url: URL, described: DescribedOperation, pathParameters: Record<string, string>): Answer {
  const query = url.searchParams;
  switch (described.template) {
    case '/api/v1/users': {
      const filter = query.get('filter');
      const since = filter === null ? undefined : /^lastUpdated gt "([^"]+)"$/.exec(filter)?.[1];
      if (filter !== null && since === undefined) return { status: 400, body: oktaError('E0000031', 'Invalid search criteria.') };
      // Without a filter or search Okta leaves DEPROVISIONED users out.
      const users = org.users.filter((user) =>
        since === undefined ? user.status !== 'DEPROVISIONED' : String(user.lastUpdated) > since,
      );
      return paged(url, users, query, 200, 200);
    }
    case '/api/v1/users/{userId}/factors': {
      const factors = org.factors.get(pathParameters.userId!);
      if (!factors)
        return { status: 404, body: oktaError('E0000007', `Not found: Resource not found: ${pathParameters.userId} (User)`) };
      return { status: 200, body: factors };
    }
    case '/api/v1/iam/assignees/users': {
      const limit = Number(query.get('limit') ?? 100);
      const after = query.get('after');
      const start = after === null ? 0 : org.adminIds.findIndex((id) => id > after);
      const ids = start < 0 ? [] : org.adminIds.slice(start, start + limit);
      const next = new URL('/api/v1/iam/assignees/users', url);
      next.searchParams.set('after', ids.at(-1) ?? '');
      next.searchParams.set('limit', String(limit));
      const more = start >= 0 && start + limit < org.adminIds.length;
      const value = ids.map((id) => ({ id, orn: `orn:okta:directory:00o1acme:users:${id}`, _links: {} }));
      return { status: 200, body: { value, ...(more ? { _links: { next: { href: next.href } } } : {}) } };
    }
    case '/api/v1/policies':
      return { status: 200, body: org.policies.filter((policy) => policy.type === query.get('type')) };
    case '/api/v1/policies/{policyId}/rules': {
      const rules = org.rules.get(pathParameters.policyId!);
      if (!rules)
        return { status: 404, body: oktaError('E0000007', `Not found: Resource not found: ${pathParameters.policyId} (Policy)`) };
      return { status: 200, body: rules };
    }
    case '/api/v1/apps': {
      const filter = query.get('filter');
      if (filter !== null && filter !== 'status eq "ACTIVE"')
        return { status: 400, body: oktaError('E0000031', 'Invalid search criteria.') };
      const apps = filter === null ? org.apps : org.apps.filter((app) => app.status === 'ACTIVE');
      return paged(url, apps, query, 20, 200);
    }
    default:
      return { status: 404, body: oktaError('E0000022', 'The endpoint does not support the provided HTTP method') };
  }
}

export async function startOktaStandIn(options: OktaStandInOptions): Promise<OktaStandIn> {
  const org = buildOktaOrg(options.users, options);
  const token = options.token ?? '00stand-in-okta-api-token-0000000000000000';
  const violations: string[] = [];
  const callsTo = new Map<string, number>();
  let calls = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let rateLimited = false;
  const authorizationServer = options.serviceApp ? new OrgAuthorizationServer(options.serviceApp) : undefined;

  function reply(
    response: ServerResponse,
    described: DescribedOperation | typeof tokenPath | undefined,
    result: Answer,
    rateLimitedNow = false,
  ): void {
    const errors =
      described === tokenPath
        ? tokenResponseErrors(result.status, result.body)
        : described
          ? responseErrors(described, result.status, result.body)
          : [];
    if (errors.length > 0) violations.push(...errors);
    const final = errors.length > 0 ? { status: 500, body: oktaError('E0000009', 'Internal Server Error') } : result;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const body = JSON.stringify(final.body);
    // A length rather than chunks: node-fetch 2 (the SDK's) can misread where a chunked body ends.
    response.writeHead(final.status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      date: new Date(nowSeconds * 1000).toUTCString(),
      'x-okta-request-id': randomUUID(),
      'x-rate-limit-limit': '600',
      'x-rate-limit-remaining': rateLimitedNow ? '0' : '599',
      'x-rate-limit-reset': String(rateLimitedNow ? nowSeconds : nowSeconds + 60),
      ...final.headers,
    });
    response.end(body);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const call = ++calls;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (options.latencyMs) await sleep(options.latencyMs);
      const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
      if (authorizationServer && request.method === 'POST' && url.pathname === tokenPath)
        return reply(response, tokenPath, await tokenAnswer(request, url));
      const found = request.method === 'GET' ? operationOf(url.pathname) : undefined;
      if (!found) {
        violations.push(`${request.method} ${url.pathname} is not an operation the description allows here`);
        return reply(response, undefined, {
          status: 404,
          body: oktaError('E0000022', 'The endpoint does not support the provided HTTP method'),
        });
      }
      const { described, pathParameters } = found;
      callsTo.set(described.template, (callsTo.get(described.template) ?? 0) + 1);
      const invalid = queryErrors(described, url.searchParams);
      if (invalid.length > 0) {
        violations.push(...invalid);
        return reply(response, described, { status: 400, body: oktaError('E0000001', 'Api validation failed') });
      }
      const scopes = grantedScopes(request.headers.authorization);
      if (!scopes) {
        return reply(response, described, { status: 401, body: oktaError('E0000011', 'Invalid token provided') });
      }
      if (scopes !== 'all' && !described.scopes.some((scope) => scopes.includes(scope))) {
        return reply(response, described, {
          status: 403,
          body: oktaError('E0000006', 'You do not have permission to perform the requested action'),
          headers: { 'www-authenticate': insufficientScope(url, described) },
        });
      }
      if (options.failFromCall !== undefined && call >= options.failFromCall) {
        return reply(response, described, { status: 500, body: oktaError('E0000009', 'Internal Server Error') });
      }
      if (options.rateLimitAtCall === call && !rateLimited) {
        rateLimited = true;
        return reply(
          response,
          described,
          { status: 429, body: oktaError('E0000047', 'API call exceeded rate limit due to too many requests.') },
          true,
        );
      }
      if (options.withheldScope && described.scopes.includes(options.withheldScope)) {
        return reply(response, described, {
          status: 403,
          body: oktaError('E0000006', 'You do not have permission to perform the requested action'),
        });
      }
      reply(response, described, answer(org, url, described, pathParameters));
    } finally {
      inFlight--;
    }
  }

  /** What a credential may do: everything (the API token), a live access token's scopes, or nothing. */
  function grantedScopes(authorization: string | undefined): 'all' | readonly string[] | undefined {
    if (authorization === `SSWS ${token}`) return 'all';
    const bearer = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    return bearer ? authorizationServer?.scopesOf(bearer, Math.floor(Date.now() / 1000)) : undefined;
  }

  /** Okta's challenge when an access token lacks the operation's scope. */
  function insufficientScope(url: URL, described: DescribedOperation): string {
    return (
      `Bearer authorization_uri="${url.origin}/oauth2/v1/authorize", realm="${url.origin}", ` +
      `scope="${described.scopes.join(' ')}", error="insufficient_scope", ` +
      `error_description="The access token provided does not contain the required scopes.", resource="${url.pathname}"`
    );
  }

  /** The org authorization server's answer to a token request (the faults are the Management API's). */
  async function tokenAnswer(request: IncomingMessage, url: URL): Promise<Answer> {
    callsTo.set(tokenPath, (callsTo.get(tokenPath) ?? 0) + 1);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const invalid = tokenRequestErrors(request.headers['content-type'], form);
    if (invalid.length > 0) {
      violations.push(...invalid);
      return { status: 400, body: { error: 'invalid_request', error_description: 'The request is malformed.' } };
    }
    return authorizationServer!.token(form, `${url.origin}${tokenPath}`, Math.floor(Date.now() / 1000));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      violations.push(`the stand-in failed: ${String(error)}`);
      response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    org,
    get calls() {
      return calls;
    },
    callsTo,
    get maxInFlight() {
      return maxInFlight;
    },
    violations,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
