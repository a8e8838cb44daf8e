/**
 * The one error type of the HTTP core and the writer that turns it into an RFC 9457 body.
 *
 * Handlers throw `ApiProblem` for an expected failure they find themselves; the errors of
 * stores and checks are mapped to it in one place (domain-problems.ts). Anything else thrown
 * is a bug, logged by the core and answered as a bare `internal` problem that leaks nothing.
 */
import type { ServerResponse } from 'node:http';
import { answerHeaders, setHeaders } from './answer-headers.js';
import { problemCatalog, problemTypeBase, type ProblemCode } from '@evident/contract/problems';

export interface RequestError {
  in: 'path' | 'query' | 'header' | 'body';
  name?: string;
  pointer?: string;
  /** For a body that is a file: the line the value at fault starts on. */
  line?: number;
  message: string;
}

export interface ProblemOptions {
  errors?: RequestError[];
  headers?: Record<string, string>;
}

export class ApiProblem extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly errors: RequestError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ProblemCode, detail: string, options: ProblemOptions = {}) {
    super(detail);
    this.name = 'ApiProblem';
    this.code = code;
    this.status = problemCatalog[code].status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

/** The problem for anything unexpected: it says nothing about the cause. */
/**
 * The `invalid_request` problem for input that does not hold: from the schemas (the HTTP core)
 * or from a rule only a handler can check (a control id in the catalog, a cursor it gave out).
 * One error is spelt out in `detail`; several are summarised there and listed in `errors`.
 */
export function invalidRequest(errors: RequestError[]): ApiProblem {
  const first = errors[0]!;
  const where = first.in === 'body' ? `body ${first.pointer || '(root)'}` : `${first.in} parameter "${first.name}"`;
  const detail =
    errors.length === 1
      ? `The ${where} ${first.message}.`
      : `${errors.length} parts of the request do not match the API description; see errors.`;
  return new ApiProblem('invalid_request', detail, { errors });
}

export function internalProblem(): ApiProblem {
  return new ApiProblem('internal', 'The server failed to answer this request.');
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  requestId: string;
  errors?: RequestError[];
}

export function problemBody(problem: ApiProblem, instance: string, requestId: string): ProblemBody {
  const body: ProblemBody = {
    type: problemTypeBase + problem.code,
    title: problemCatalog[problem.code].title,
    status: problem.status,
    detail: problem.message,
    instance,
    code: problem.code,
    requestId,
  };
  if (problem.errors) body.errors = problem.errors;
  return body;
}

/** Writes a problem unless a response is already under way, in which case the socket is ended. */
export function writeProblem(res: ServerResponse, problem: ApiProblem, instance: string, requestId: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const payload = JSON.stringify(problemBody(problem, instance, requestId));
  res.statusCode = problem.status;
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/problem+json');
  res.setHeader('Cache-Control', 'no-store');
  setHeaders(res, answerHeaders(requestId));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(payload);
}
