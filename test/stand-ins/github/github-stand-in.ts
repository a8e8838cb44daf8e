/**
 * A stand-in for GitHub's REST API (github.com or Enterprise Server), on loopback, for driving
 * the real `octokit` SDK (and so the GitHub connector) in tests and the bench. It is held to
 * GitHub's own description (description.ts): a request for an operation the description does not
 * list, or with a path or query parameter it does not declare or allow, is refused and recorded;
 * every body it answers is validated against the schema of its status before it is sent, and a
 * body that does not match is replaced by a 500 and recorded. Tests assert `violations` is empty.
 *
 * It speaks GitHub's protocol where the connector depends on it: `Link` headers with rel="next",
 * "prev", "first" and "last" for numbered pages and rel="next" with an opaque `after` cursor for
 * Dependabot alerts, `per_page` capped at 100 (GitHub's maximum, silently applied), a fine-grained
 * token or an App installation token (issued by POST /app/installations/{id}/access_tokens for a
 * JWT it verifies with the App's public key, RS256), and GitHub's words and headers for its
 * failures: 401 "Bad credentials", 403 "Resource not accessible by …" with
 * `x-accepted-github-permissions`, 422 "Only owners can use this filter." for a member's 2FA filter
 * asked by someone else, and the secondary rate limit's 403 or 429 with `retry-after`.
 *
 * Not GitHub: one organisation in memory, no writes, no ETags, no primary rate-limit accounting.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDescription, type MatchedOperation } from './description.ts';
import type { GitHubFixture } from './fixture.ts';
import { routes, type Answer } from './github-routes.ts';

export interface GitHubStandInOptions {
  fixture: GitHubFixture;
  /** Milliseconds each call takes before it is answered (the bench charges 50). */
  latencyMs?: number;
  /** The fine-grained personal access token it accepts. */
  token?: string;
  /** A GitHub App whose JWTs it accepts, installed on the organisation. */
  app?: { appId: number; installationId: number; publicKey: string };
  /** The secondary rate limit, answered once to call number `call` (1-based). */
  rateLimitAt?: { call: number; status: 403 | 429; retryAfter: number };
  /** A 500 to every call from number `call` on. */
  failFrom?: number;
  /** A 502 to call number `call` (1-based) alone, as a passing outage answers. */
  failAt?: number;
  /** Every credential is refused, as a revoked token is. */
  revoked?: boolean;
  /** Calls to this operation (`GET /orgs/{org}/dependabot/alerts`) lack `permission` (`vulnerability_alerts=read`). */
  missingPermission?: { operation: string; permission: string };
  /** The credential is not an organisation owner's: the members' 2FA filter is refused, as GitHub refuses it. */
  notOwner?: boolean;
}

export interface GitHubStandIn {
  /** The SDK's `baseUrl`. */
  origin: string;
  /** Calls answered, the token exchange included. */
  readonly calls: number;
  /** The most calls in flight at once. */
  readonly peakInFlight: number;
  /** Each call as `METHOD template`, in order. */
  readonly operations: string[];
  /** Requests or answers that broke GitHub's description. */
  readonly violations: string[];
  close(): Promise<void>;
}

const documentation = 'https://docs.github.com/rest';
const secondaryRateLimit =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.';

function error(status: number, message: string, headers: Record<string, string> = {}): Answer {
  return { status, body: { message, documentation_url: documentation, status: String(status) }, headers };
}

/** The claims of an RS256 JWT signed by `key`, or undefined when it is not one. */
function verifiedClaims(jwt: string, key: KeyObject): { iss?: unknown; exp?: number; iat?: number } | undefined {
  const [header = '', payload = '', signature] = jwt.split('.');
  if (signature === undefined) return undefined;
  try {
    const decoded = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (decoded(header).alg !== 'RS256') return undefined;
    const valid = verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'));
    return valid ? decoded(payload) : undefined;
  } catch {
    return undefined;
  }
}

export async function startGitHubStandIn(options: GitHubStandInOptions): Promise<GitHubStandIn> {
  const description = loadDescription();
  const installationTokens = new Set<string>();
  const appKey = options.app === undefined ? undefined : createPublicKey(options.app.publicKey);
  const state = { calls: 0, inFlight: 0, peakInFlight: 0, operations: [] as string[], violations: [] as string[] };
  let origin = '';

  function credentialAnswer(authorization: string | undefined, matched: MatchedOperation): Answer | undefined {
    const [, credential = ''] = /^(?:token|bearer) (.+)$/i.exec(authorization ?? '') ?? [];
    if (options.revoked) return error(401, 'Bad credentials');
    if (matched.operation.template === '/app/installations/{installation_id}/access_tokens') {
      const claims = appKey === undefined ? undefined : verifiedClaims(credential, appKey);
      if (claims === undefined) return error(401, 'A JSON web token could not be decoded');
      const now = Date.now() / 1000;
      if (String(claims.iss) !== String(options.app?.appId) || (claims.exp ?? 0) < now || (claims.iat ?? now) > now + 60) {
        return error(
          401,
          "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
        );
      }
      return undefined;
    }
    if (credential === options.token || installationTokens.has(credential)) return undefined;
    return error(401, 'Bad credentials');
  }

  function answer(method: string, url: URL, authorization: string | undefined): Answer {
    const call = ++state.calls;
    const matched = description.match(method, url.pathname);
    if (matched === undefined) {
      state.violations.push(`${method} ${url.pathname}: not an operation of the description`);
      return error(404, 'Not Found');
    }
    const { operation, pathParameters } = matched;
    state.operations.push(`${method} ${operation.template}`);
    const parameters: Record<string, unknown> = { ...pathParameters, ...Object.fromEntries(url.searchParams) };
    if (!operation.validateParameters(parameters)) {
      state.violations.push(`${method} ${operation.template}: ${JSON.stringify(operation.validateParameters.errors)}`);
      return error(422, 'Invalid request.');
    }
    const refused = credentialAnswer(authorization, matched);
    if (refused) return refused;
    if (options.rateLimitAt?.call === call) {
      return error(options.rateLimitAt.status, secondaryRateLimit, { 'retry-after': String(options.rateLimitAt.retryAfter) });
    }
    if (options.failFrom !== undefined && call >= options.failFrom) return error(500, 'Server Error');
    if (options.failAt === call) return error(502, 'Server Error');
    if (options.missingPermission?.operation === `${method} ${operation.template}`) {
      const by = installationTokens.size > 0 ? 'integration' : 'personal access token';
      return error(403, `Resource not accessible by ${by}`, {
        'x-accepted-github-permissions': options.missingPermission.permission,
      });
    }
    if (options.notOwner && operation.template === '/orgs/{org}/members' && url.searchParams.get('filter') === '2fa_disabled')
      return error(422, 'Only owners can use this filter.');
    const route = routes[`${method} ${operation.template}`];
    if (route === undefined) {
      state.violations.push(`${method} ${operation.template}: described but not served by the stand-in`);
      return error(501, 'Not Implemented');
    }
    const routed = route({
      fixture: options.fixture,
      origin,
      url,
      parameters: pathParameters,
      installationTokens,
      app: options.app,
    });
    const validate = operation.validateBody(routed.status);
    if (validate !== undefined && !validate(routed.body)) {
      state.violations.push(`${method} ${operation.template} ${routed.status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      return error(500, 'The stand-in answered outside the description');
    }
    return routed;
  }

  const server = http.createServer((req, res) => {
    state.inFlight++;
    state.peakInFlight = Math.max(state.peakInFlight, state.inFlight);
    req.resume();
    req.on('end', () => {
      const answered = answer(req.method ?? 'GET', new URL(req.url ?? '/', origin), req.headers.authorization);
      setTimeout(() => {
        state.inFlight--;
        res.writeHead(answered.status, {
          'content-type': 'application/json; charset=utf-8',
          'x-github-api-version-selected': '2022-11-28',
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '4999',
          'x-ratelimit-resource': 'core',
          ...answered.headers,
        });
        res.end(answered.status === 204 ? undefined : JSON.stringify(answered.body));
      }, options.latencyMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    get calls() {
      return state.calls;
    },
    get peakInFlight() {
      return state.peakInFlight;
    },
    operations: state.operations,
    violations: state.violations,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
