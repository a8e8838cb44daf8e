/**
 * CORS for browsers that call a function URL directly (through Hosting the API is same-origin
 * and needs none). Allowed origins are the `CORS_ORIGINS` setting, read per request; the
 * methods offered in a preflight are the ones the OpenAPI description gives the path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import { apiVersionHeader } from '@evident/contract';

/** `MCP-Protocol-Version`: what an MCP client in a browser sends to `/api/mcp` after `initialize`. */
const allowedHeaders = [
  'Authorization',
  'Content-Type',
  'If-None-Match',
  'Idempotency-Key',
  'Last-Event-ID',
  'MCP-Protocol-Version',
];
const exposedHeaders = [
  'X-Request-Id',
  apiVersionHeader,
  'ETag',
  'WWW-Authenticate',
  'Allow',
  'Location',
  'Retry-After',
  'Deprecation',
  'Sunset',
];

/**
 * Adds CORS headers for an allowed origin. For a preflight it also answers the request and
 * returns true; the caller must then stop. Synchronous: `cors` calls back at once when, as
 * here, its options and origin check are plain values.
 */
export function applyCors(
  req: IncomingMessage,
  res: ServerResponse,
  allowedOrigins: () => readonly string[],
  methods: string[],
): boolean {
  // Only a browser's cross-origin call sends `Origin`; the setting is not even read for the rest.
  if (req.headers.origin === undefined) return false;
  const origins = allowedOrigins();
  if (origins.length === 0) return false;
  const isPreflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  const allowAny = origins.includes('*');
  cors({
    origin: (origin, allow) => allow(null, allowAny || (origin !== undefined && origins.includes(origin))),
    methods,
    allowedHeaders,
    exposedHeaders,
    maxAge: 600,
    optionsSuccessStatus: 204,
    preflightContinue: !isPreflight,
  })(req, res, () => undefined);
  return res.writableEnded;
}
