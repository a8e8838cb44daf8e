/**
 * What every function does before the functions runtime touches a request: read its body
 * within this function's limit (see request-body.ts), and answer what is refused there or by
 * the runtime with problem bodies instead of Express's HTML page.
 *
 * Both runtimes (functions-framework in production, firebase-tools' runtime in the emulator)
 * parse bodies ahead of user code and offer no hook for either (limits or errors;
 * GoogleCloudPlatform/functions-framework-nodejs#686). Both hand an Express app to
 * `http.createServer` after loading our module, so the listener is wrapped: the body is read
 * first, then handed over already read, which body-parser accepts as done; and Express calls
 * a `next` argument, when one is passed, instead of its own final handler.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { familyBodies } from '../generated/families.js';
import { logs } from '../logs.js';
import { ApiProblem, internalProblem, writeProblem } from './problem.js';
import { carriesBody, drainAfterAnswer, minimumBodyLimit, readLimitedBody } from './request-body.js';

// Not `import http from 'node:http'`: importing a built-in as a module builds its namespace by
// reading every export, and `node:http`'s WebSocket exports are getters that load undici, which
// cost every cold start tens of milliseconds before any request. This is the same object.
const http = process.getBuiltinModule('node:http');

type ListenerWithNext = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The bodies a function accepts: at most `limit` bytes, of these media types (any when absent). */
export interface BodyPolicy {
  limit: number;
  mediaTypes?: readonly string[];
  /** The largest body of each media type, when the family's operations take several. */
  limits?: Readonly<Record<string, number>>;
  /**
   * The function is not a family: its SDK (the task queue's, the blocking functions') reads
   * `body` and can only answer a parse failure with a 500, so a JSON body is parsed here and a
   * malformed one answered 400. At most `limit` (64 KiB), so parsing it up front costs little.
   */
  parsesJson?: true;
}

export interface RuntimeGuardOptions {
  /** The bodies this process accepts, asked per request. */
  bodies: () => BodyPolicy;
}

let installed = false;

export function installRuntimeGuard(options: RuntimeGuardOptions): void {
  if (installed) return;
  installed = true;
  const createServer = http.createServer;
  const wrapped = (...args: unknown[]) => {
    const index = args.findIndex((arg) => typeof arg === 'function');
    if (index !== -1) {
      const listener = args[index] as ListenerWithNext;
      args[index] = ((req, res) => {
        const next = (error?: unknown) => answer(req, res, error);
        if (!carriesBody(req)) return listener(req, res, next);
        const policy = options.bodies();
        const refused = refusedBody(req, policy);
        if (refused) {
          drainAfterAnswer(req);
          return answer(req, res, refused);
        }
        readLimitedBody(req, limitOf(req, policy)).then(
          (raw) => {
            const unreadable = presentBody(req, raw, policy.parsesJson === true);
            if (unreadable) return answer(req, res, unreadable);
            listener(req, res, next);
          },
          (error: unknown) => {
            drainAfterAnswer(req);
            answer(req, res, error);
          },
        );
      }) satisfies RequestListener;
    }
    return (createServer as (...params: unknown[]) => Server)(...args);
  };
  http.createServer = wrapped as typeof http.createServer;
}

/**
 * The bodies an exported function accepts: its family's largest (`x-body-limit`) of the media
 * types its operations take, or, for a family that takes none and for any other function, a
 * small body of any type, so a stray one still gets the family's own answer (405, 400). A
 * function that is not a family has its JSON parsed here; without a target (a test mounting a
 * family directly) the family is assumed.
 */
export function bodyPolicyFor(target: string | undefined): BodyPolicy {
  const family = target !== undefined && Object.hasOwn(familyBodies, target) ? familyBodies[target] : undefined;
  if (!family) return target === undefined ? { limit: minimumBodyLimit } : { limit: minimumBodyLimit, parsesJson: true };
  if (family.limit === 0) return { limit: minimumBodyLimit };
  return { limit: Math.max(minimumBodyLimit, family.limit), mediaTypes: family.mediaTypes, limits: family.limits };
}

/** How far a body of this request's media type may be read: its type's limit, else the policy's. */
export function limitOf(req: IncomingMessage, policy: BodyPolicy): number {
  const typed = policy.limits?.[contentTypeOf(req).mediaType];
  return typed === undefined ? policy.limit : Math.max(minimumBodyLimit, typed);
}

/** The media type and charset a request's `Content-Type` names, lower-cased. */
function contentTypeOf(req: IncomingMessage): { mediaType: string; charset: string | undefined } {
  const [mediaType = '', ...parameters] = (req.headers['content-type'] ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((parameter) => parameter.startsWith('charset='));
  return { mediaType, charset: charset?.slice('charset='.length).replace(/"/g, '') };
}

const jsonType = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * A body the function would refuse whatever it holds is refused before it is read: a media
 * type none of its operations take, or JSON in a charset other than UTF-8 (the only one the
 * families decode).
 */
function refusedBody(req: IncomingMessage, policy: BodyPolicy): ApiProblem | undefined {
  const { mediaType, charset } = contentTypeOf(req);
  if (policy.mediaTypes && !policy.mediaTypes.includes(mediaType)) {
    return new ApiProblem(
      'unsupported_media_type',
      `The body is ${mediaType ? `"${mediaType}"` : 'untyped'}; send ${policy.mediaTypes.join(' or ')}.`,
    );
  }
  if (jsonType.test(mediaType) && charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return new ApiProblem('unsupported_media_type', `The body's charset "${charset}" is not accepted; send UTF-8.`);
  }
  return undefined;
}

/**
 * Hands the body over as functions-framework would: `rawBody` always, and `body` as the SDK's
 * task and identity triggers read it — parsed when it is JSON, the bytes otherwise. With
 * `parseNow` (a function that is not a family) JSON is parsed at once, and the problem for a
 * malformed body returned. Otherwise parsing waits until something reads `body`: the families
 * parse `rawBody` themselves, after the caller's token and the operation's media type are
 * checked, because parsed JSON can take thirty times the bytes it came in (`[{},{},…]`).
 */
function presentBody(req: IncomingMessage, raw: Buffer, parseNow: boolean): ApiProblem | undefined {
  const request = req as IncomingMessage & { rawBody?: Buffer; body?: unknown; _body?: boolean };
  request.rawBody = raw;
  // body-parser 2 (functions-framework) skips a request whose stream has ended; body-parser 1
  // (the emulator's runtime) looks for this flag instead.
  request._body = true;
  if (!jsonType.test(contentTypeOf(req).mediaType)) {
    request.body = raw;
    return undefined;
  }
  const parse = () => (raw.length === 0 ? {} : JSON.parse(raw.toString('utf8')));
  if (parseNow) {
    try {
      request.body = parse();
      return undefined;
    } catch (error) {
      return new ApiProblem('malformed_json', `The body is not valid JSON: ${(error as Error).message}.`);
    }
  }
  let parsed: { value: unknown } | undefined;
  Object.defineProperty(request, 'body', {
    configurable: true,
    enumerable: true,
    get: () => (parsed ??= { value: parse() }).value,
    set: (value: unknown) => (parsed = { value }),
  });
  return undefined;
}

/**
 * The problem for what the runtime refused: ours from reading the body, or one Express passes
 * on (a path it cannot decode, say). Bodies never reach the runtime's parsers any more, so none
 * of body-parser's errors can arrive here.
 */
function runtimeProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  const { status } = (error ?? {}) as { status?: unknown };
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiProblem('invalid_request', 'The runtime could not read the request.');
  }
  return internalProblem();
}

function answer(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const requestId = randomUUID();
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const facts = { requestId, method: req.method ?? 'GET', path };
  const problem = error === undefined ? new ApiProblem('not_found', `No operation exists at ${path}.`) : runtimeProblem(error);
  if (problem.code === 'internal') logs.requestFailed(facts, error);
  else logs.frameworkRejected(facts, problem.status, rejection(error));
  writeProblem(res, problem, path, requestId);
}

function rejection(error: unknown): string {
  if (error === undefined) return 'no-route';
  if (error instanceof ApiProblem) return `body:${error.code}`;
  return String((error as { type?: unknown }).type ?? 'unknown');
}
