/**
 * What every answer of the API carries, whoever writes it (a result, a problem, a 204, a CORS
 * preflight, an event stream): the request's id, which finds it in the logs, and the version of
 * the API that answered. As name, value, name, value…, the list `writeHead` takes at once.
 */
import type { ServerResponse } from 'node:http';
import { apiVersionHeader } from '@evident/contract';
import { apiVersion } from '../generated/api-version.js';

export function answerHeaders(requestId: string): string[] {
  return ['X-Request-Id', requestId, apiVersionHeader, apiVersion];
}

/** Sets name, value, name, value… one by one, on a response that may already hold headers. */
export function setHeaders(res: ServerResponse, headers: readonly string[]): void {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
}
