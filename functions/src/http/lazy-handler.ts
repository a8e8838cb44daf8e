/**
 * Defers loading a family's module until its function serves its first request.
 *
 * In production every function instance loads the whole entry file, so the entry file imports
 * nothing heavy: each function pays only for its own family, on its first request.
 */
import { randomUUID } from 'node:crypto';
import type { HttpHandler } from './create-family.js';
import { logs } from '../logs.js';
import { ApiProblem, writeProblem } from './problem.js';

export function lazyHandler(family: string, load: () => Promise<{ handler: HttpHandler }>): HttpHandler {
  let handler: HttpHandler | undefined;
  let loading: Promise<HttpHandler> | undefined;
  return (req, res) => {
    if (handler) return handler(req, res);
    loading ??= load().then((module) => (handler = module.handler));
    return loading.then(
      (loaded) => loaded(req, res),
      (error: unknown) => {
        loading = undefined; // try again on the next request
        logs.familyLoadFailed(family, error);
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        writeProblem(res, new ApiProblem('internal', 'The server failed to answer this request.'), path, randomUUID());
      },
    );
  };
}
