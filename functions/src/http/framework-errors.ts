/**
 * Answers requests that the functions runtime rejects before any handler runs — above all
 * `body-parser` failing on malformed JSON — with problem bodies instead of Express's HTML page.
 *
 * Both runtimes (functions-framework in production, firebase-tools' runtime in the emulator)
 * parse bodies ahead of user code and offer no hook for the errors
 * (GoogleCloudPlatform/functions-framework-nodejs#686). Both hand an Express app to
 * `http.createServer` after loading our module, and Express calls a `next` argument, when one
 * is passed, instead of its own final handler. So the listener is wrapped to pass one.
 */
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { logs } from '../logs.js';
import { ApiProblem, internalProblem, writeProblem } from './problem.js';

type ListenerWithNext = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

let installed = false;

export function installFrameworkErrorHandler(): void {
  if (installed) return;
  installed = true;
  const createServer = http.createServer;
  const wrapped = (...args: unknown[]) => {
    const index = args.findIndex((arg) => typeof arg === 'function');
    if (index !== -1) {
      const listener = args[index] as ListenerWithNext;
      args[index] = ((req, res) => listener(req, res, (error) => answer(req, res, error))) satisfies RequestListener;
    }
    return (createServer as (...params: unknown[]) => http.Server)(...args);
  };
  http.createServer = wrapped as typeof http.createServer;
}

/** body-parser's error types, mapped to the problem a client should see. */
function problemFor(error: unknown): ApiProblem {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  if (type === 'entity.parse.failed') return new ApiProblem('malformed_json', 'The body is not valid JSON.');
  if (type === 'entity.too.large') return new ApiProblem('payload_too_large', 'The body is larger than the runtime accepts.');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiProblem('unsupported_media_type', 'The body uses a content encoding or charset the server does not accept.');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiProblem('invalid_request', 'The runtime could not read the request.');
  }
  return internalProblem();
}

function answer(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const requestId = randomUUID();
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const facts = { requestId, method: req.method ?? 'GET', path };
  const problem = error === undefined ? new ApiProblem('not_found', `No operation exists at ${path}.`) : problemFor(error);
  if (problem.code === 'internal') logs.requestFailed(facts, error);
  else logs.frameworkRejected(facts, problem.status, String((error as { type?: unknown } | undefined)?.type ?? 'no-route'));
  writeProblem(res, problem, path, requestId);
}
