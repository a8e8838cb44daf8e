/**
 * The factory that turns one route family of the OpenAPI description into an HTTP handler for
 * `onRequest`. Every family gets the same routing, 404/405, CORS, auth, validation, conditional
 * requests and problem handling; a family module supplies only its operations' handlers.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as config from '../config.js';
import { logs } from '../logs.js';
import { checkBearerToken, type Caller, type TokenCheck } from './bearer-token.js';
import { EventStream } from './event-stream.js';
import { answerHeaders, setHeaders } from './answer-headers.js';
import { applyCors } from './cors.js';
import { problemFor } from './domain-problems.js';
import { andThen, isPromise, loadOnce, type MaybePromise } from '../common/maybe-async.js';
import type {
  Family,
  FamilyHandlers,
  OperationHandler,
  OperationId,
  OperationInput,
  RequestContext,
  ResultOptions,
} from './operation-types.js';
import { ApiProblem, internalProblem, writeProblem } from './problem.js';
import { readInput, type RequestWithBody } from './request-input.js';
import {
  compilePaths,
  loadRouteTable,
  matchPath,
  type CompiledPaths,
  type RouteOperation,
  type RouteTable,
} from './route-table.js';

export interface IncomingRequest extends RequestWithBody {
  /** Set by Express: the URL before any router rewrote `url`. */
  originalUrl?: string;
}

export type HttpHandler = (req: IncomingRequest, res: ServerResponse) => MaybePromise<void>;

export interface FamilyOptions {
  /** Where the route table comes from; tests pass one compiled in memory from a description. */
  loadTable?: () => Promise<RouteTable>;
  /** How bearer tokens are checked; firebase-admin's `verifyIdToken` unless a test says otherwise. */
  verifyToken?: typeof checkBearerToken;
}

const realm = 'Bearer realm="evident"';

interface RequestFacts {
  requestId: string;
  method: string;
  path: string;
  operationId: string | undefined;
}

/**
 * What a handler knows of its request besides its input. A class rather than an object literal
 * with arrow functions, so a request allocates no closures for methods most handlers never call.
 */
class CallContext implements RequestContext {
  readonly requestId: string;
  readonly authRequired: boolean;
  readonly caller: Caller | undefined;
  readonly #token: TokenCheck;
  readonly #req: IncomingRequest;

  constructor(requestId: string, authRequired: boolean, token: TokenCheck, req: IncomingRequest) {
    this.requestId = requestId;
    this.authRequired = authRequired;
    this.caller = token.outcome === 'valid' ? token.caller : undefined;
    this.#token = token;
    this.#req = req;
  }

  header(name: string): string | undefined {
    const value = this.#req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  protect(): void {
    if (this.authRequired && this.#token.outcome !== 'valid') throw refusal(this.#token);
  }
}

export function createFamily<F extends Family>(family: F, handlers: FamilyHandlers<F>, options: FamilyOptions = {}): HttpHandler {
  const served: ServedFamily = {
    byOperation: handlers as unknown as Record<string, OperationHandler<OperationId>>,
    verify: options.verifyToken ?? checkBearerToken,
  };
  const routes = routesOf(family, served.byOperation, options.loadTable ?? (() => loadRouteTable(family)));

  return function handle(req, res) {
    const url = req.originalUrl ?? req.url ?? '/';
    const queryStart = url.indexOf('?');
    const facts: RequestFacts = {
      requestId: randomUUID(),
      method: (req.method ?? 'GET').toUpperCase(),
      path: queryStart === -1 ? url : url.slice(0, queryStart),
      operationId: undefined, // set once routed; present from the start, so the object keeps one shape
    };
    const search = queryStart === -1 ? '' : url.slice(queryStart + 1);
    // Every answer carries answerHeaders: writeResult, writeProblem and the 204s each set them.
    try {
      const answered = andThen(routes(), (compiled) => serve(served, req, res, facts, search, compiled));
      if (isPromise(answered)) return answered.catch((error: unknown) => fail(res, facts, error));
    } catch (error) {
      fail(res, facts, error);
    }
  };
}

/** What every request to one family uses: its handlers by operation, and how tokens are checked. */
interface ServedFamily {
  byOperation: Record<string, OperationHandler<OperationId>>;
  verify: typeof checkBearerToken;
}

/** The family's compiled route table, loaded on the first request (and again after a failed load). */
function routesOf(
  family: Family,
  byOperation: ServedFamily['byOperation'],
  loadTable: () => Promise<RouteTable>,
): () => MaybePromise<CompiledPaths> {
  return loadOnce(() =>
    loadTable()
      .then(({ operations }) => {
        const missing = operations.filter((operation) => !byOperation[operation.operationId]);
        if (missing.length > 0) throw new Error(`no handler for ${missing.map((o) => o.operationId).join(', ')}`);
        return compilePaths(operations);
      })
      .catch((error: unknown) => {
        logs.familyLoadFailed(family, error);
        throw internalProblem();
      }),
  );
}

/** Answers a failed request: problems and domain errors as their problem; anything else is a bug, logged, and a bare 500. */
function fail(res: ServerResponse, facts: RequestFacts, error: unknown): void {
  const problem = problemFor(error);
  if (problem) return writeProblem(res, problem, facts.path, facts.requestId);
  logs.requestFailed(facts, error);
  writeProblem(res, internalProblem(), facts.path, facts.requestId);
}

/**
 * Routes a request to its operation (or answers CORS, OPTIONS, 404 or 405), checks its token
 * and input, and runs its handler. `search` is the query string without its `?`.
 */
function serve(
  served: ServedFamily,
  req: IncomingRequest,
  res: ServerResponse,
  facts: RequestFacts,
  search: string,
  compiled: CompiledPaths,
): MaybePromise<void> {
  const { method, path: pathname } = facts;
  const match = matchPath(compiled, pathname);
  const allow = match?.path.allow ?? [];
  if (req.headers.origin !== undefined) {
    // CORS adds its headers one by one and may answer a preflight itself.
    setHeaders(res, answerHeaders(facts.requestId));
    if (applyCors(req, res, config.corsOrigins, allow)) return;
  }
  if (!match) throw new ApiProblem('not_found', `No operation exists at ${pathname}.`);
  if (method === 'OPTIONS') {
    res.writeHead(204, [...answerHeaders(facts.requestId), 'Allow', allow.join(', ')]);
    res.end();
    return;
  }
  const operation = match.path.operations.get(method === 'HEAD' ? 'GET' : method);
  if (!operation) {
    throw new ApiProblem('method_not_allowed', `${method} is not allowed on ${match.path.template}; use ${allow.join(', ')}.`, {
      headers: { Allow: allow.join(', ') },
    });
  }
  facts.operationId = operation.operationId;
  const authRequired = config.authRequired();

  return andThen(checkToken(operation, req, facts, served.verify), (token) => {
    if (operation.access === 'protected' && authRequired && token.outcome !== 'valid') throw refusal(token);
    const context = new CallContext(facts.requestId, authRequired, token, req);
    const handler = served.byOperation[operation.operationId]!;
    return andThen(readInput(operation, match.rawParams, search, req), (input) =>
      andThen(handler(input as OperationInput<OperationId>, context), (result) =>
        writeResult(req, res, result, facts, operation.deprecationHeaders),
      ),
    );
  });
}

/** Public operations never look at the token; others verify it when one is sent, in either mode. */
function checkToken(
  operation: RouteOperation,
  req: IncomingRequest,
  facts: RequestFacts,
  verify: typeof checkBearerToken,
): MaybePromise<TokenCheck> {
  if (operation.access === 'public' || !req.headers.authorization) return { outcome: 'absent' };
  return verify(req.headers.authorization, config.idpProjectId()).then((check) => {
    if (check.outcome === 'rejected') logs.tokenRejected(facts, check.code, check.reason);
    else if (check.outcome === 'unavailable') logs.verifierTrouble(facts, check.trouble);
    else if (check.outcome === 'misconfigured') logs.verifierMisconfigured(facts, check.trouble);
    return check;
  });
}

/**
 * Seconds a client waits before retrying while tokens cannot be verified. firebase-admin has
 * already retried Google's key endpoint for several seconds by then; half a minute spaces the
 * retries of a waiting page without keeping anyone long once the keys are back.
 */
const authRetryAfterSeconds = 30;

/**
 * The answer when an operation needs a valid token and has none. Only the client's faults are
 * 400/401; a verifier that cannot verify is the server's trouble, and a 401 would send people to
 * sign in again, which cannot help: 503 while Google's keys are out of reach (it passes), 500
 * when the server is set up wrong (it does not pass until someone fixes it; logged as an error).
 */
function refusal(token: Exclude<TokenCheck, { outcome: 'valid' }>): ApiProblem {
  switch (token.outcome) {
    case 'absent':
      return new ApiProblem(
        'unauthenticated',
        'This operation needs "Authorization: Bearer <Firebase ID token>" in protected mode.',
        { headers: { 'WWW-Authenticate': realm } },
      );
    case 'unavailable':
      return new ApiProblem(
        'auth_unavailable',
        `ID tokens cannot be verified right now; retry in ${authRetryAfterSeconds} seconds. Signing in again will not help.`,
        { headers: { 'Retry-After': String(authRetryAfterSeconds) } },
      );
    case 'misconfigured':
      return internalProblem();
    case 'rejected':
      return rejectedToken(token);
  }
}

function rejectedToken(token: Extract<TokenCheck, { outcome: 'rejected' }>): ApiProblem {
  if (token.code === 'invalid_request') {
    // RFC 6750 § 3.1: a malformed request is a 400, with the error in the challenge.
    const message = 'is "Bearer" without a token, or with a malformed one';
    return new ApiProblem('invalid_request', `The header parameter "Authorization" ${message}.`, {
      errors: [{ in: 'header', name: 'Authorization', message }],
      headers: { 'WWW-Authenticate': `${realm}, error="invalid_request"` },
    });
  }
  const detail =
    token.code === 'token_expired'
      ? 'The ID token has expired; refresh it and retry.'
      : 'The bearer token could not be verified for this project; sign in again to get a valid ID token.';
  const description = token.code === 'token_expired' ? 'The token expired' : 'The token is invalid';
  return new ApiProblem(token.code, detail, {
    headers: { 'WWW-Authenticate': `${realm}, error="invalid_token", error_description="${description}"` },
  });
}

function writeResult(
  req: IncomingRequest,
  res: ServerResponse,
  result: { status: number; body: unknown } & ResultOptions,
  facts: RequestFacts,
  deprecationHeaders: readonly string[] = [],
): MaybePromise<void> {
  const headers = answerHeaders(facts.requestId);
  if (deprecationHeaders.length > 0) headers.push(...deprecationHeaders);
  headers.push('X-Content-Type-Options', 'nosniff');
  if (result.body instanceof EventStream) {
    // The stream sets its own type and caching as it starts.
    setHeaders(res, headers);
    for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
    return result.body.serve(req, res);
  }
  // Name, value, name, value…, given to writeHead at once: with no header set before (the
  // common case; CORS sets some), Node writes them without keeping a header map.
  headers.push('Cache-Control', result.cacheControl ?? 'no-store');
  if (result.headers) for (const [name, value] of Object.entries(result.headers)) headers.push(name, value);
  if (result.etag) {
    headers.push('ETag', result.etag);
    if (etagMatches(req.headers['if-none-match'], result.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
  }
  if (result.body === undefined) {
    res.writeHead(result.status, headers);
    res.end();
    return;
  }
  if (result.body instanceof Readable) {
    headers.push('Content-Type', result.contentType ?? 'application/octet-stream');
    res.writeHead(result.status, headers);
    return streamBody(req, res, result.body, facts);
  }
  // Stored documents (reports) and files are sent as the exact bytes kept, not re-serialised.
  const payload = Buffer.isBuffer(result.body) ? result.body : JSON.stringify(result.body);
  headers.push('Content-Type', result.contentType ?? 'application/json', 'Content-Length', String(Buffer.byteLength(payload)));
  res.writeHead(result.status, headers);
  res.end(payload);
}

/**
 * Sends a body made as it is sent (the audit package), chunked. Its status is already on the
 * wire, so a failure can no longer be a problem body: the connection is cut, which leaves the
 * client a truncated body it cannot take for whole, and the failure is logged. A client that
 * goes away stops the production.
 */
async function streamBody(req: IncomingRequest, res: ServerResponse, body: Readable, facts: RequestFacts): Promise<void> {
  if (req.method === 'HEAD') {
    body.destroy();
    res.end();
    return;
  }
  try {
    await pipeline(body, res);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') logs.downloadAbandoned(facts);
    else logs.downloadFailed(facts, error);
    res.destroy();
  }
}

/** `If-None-Match` uses the weak comparison (RFC 9110 § 13.1.2). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true; // what a client sends back, as a rule
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.trim() === '*' || header.split(',').some((candidate) => opaque(candidate) === opaque(etag));
}
