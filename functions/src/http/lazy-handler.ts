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
  let loading: Promise<HttpHandler> | undefined;
  return async (req, res) => {
    let handler: HttpHandler;
    try {
      loading ??= load().then((module) => module.handler);
      handler = await loading;
    } catch (error) {
      loading = undefined; // try again on the next request
      logs.familyLoadFailed(family, error);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      writeProblem(res, new ApiProblem('internal', 'The server failed to answer this request.'), path, randomUUID());
      return;
    }
    await handler(req, res);
  };
}
