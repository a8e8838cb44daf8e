/**
 * Defers loading a family's module until its function serves its first request.
 *
 * In production every function instance loads the whole entry file, so the entry file imports
 * nothing heavy: each function pays only for its own family, on its first request.
 */
import { randomUUID } from 'node:crypto';
import type { HttpHandler } from './create-family.js';
import { logs } from '../logs.js';
import { isPromise, loadOnce } from '../common/maybe-async.js';
import { internalProblem, writeProblem } from './problem.js';

export function lazyHandler(family: string, load: () => Promise<{ handler: HttpHandler }>): HttpHandler {
  const loaded = loadOnce(() => load().then((module) => module.handler));
  return (req, res) => {
    const handler = loaded();
    if (!isPromise(handler)) return handler(req, res);
    return handler.then(
      (ready) => ready(req, res),
      (error: unknown) => {
        logs.familyLoadFailed(family, error);
        writeProblem(res, internalProblem(), (req.url ?? '/').split('?')[0] ?? '/', randomUUID());
      },
    );
  };
}
