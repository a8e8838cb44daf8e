/**
 * Bad input, through Hosting on the emulators: each row is a request a careless or hostile
 * client might send, with the exact problem it must get back. Nothing may answer 5xx.
 * Every row carries a valid token, so the answer is about the input, not about access.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectedProblem } from '../support/problems.ts';
import { bearer, hosting, signUp } from '../support/emulator.ts';
import type { ProblemCode } from '../../functions/src/http/problem-catalog.ts';

interface Row {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  status: number;
  code: ProblemCode;
  detail: string;
  /** The problem's `instance`, when it differs from the path (query strings are not part of it). */
  instance?: string;
  errors?: unknown[];
  allow?: string;
}

// Not here: a path with malformed percent-encoding (`/api/docs/page/a%E0%A4%A`). Both emulators
// fail on it before any Evident code runs — Hosting's static-file layer (superstatic's decodeURI)
// with a 500, the functions emulator's router with an HTML 400. The HTTP core's answer is tested
// in the unit tests, under functions-framework as production runs it.

const slugPattern = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const badSlug = (raw: string): Row => ({
  name: `slug ${raw.length > 40 ? `${raw.slice(0, 20)}… (${raw.length} chars)` : raw}`,
  path: `/api/docs/page/${raw}`,
  status: 400,
  code: 'invalid_request',
  detail: `The path parameter "slug" must match pattern "${slugPattern}".`,
  errors: [{ in: 'path', name: 'slug', message: `must match pattern "${slugPattern}"` }],
});
const unknownQuery = (path: string, name: string): Row => ({
  name: `unknown query parameter on ${path}`,
  path: `${path}?${name}=1`,
  instance: path,
  status: 400,
  code: 'invalid_request',
  detail: `The query parameter "${name}" is not a query parameter of this operation.`,
  errors: [{ in: 'query', name, message: 'is not a query parameter of this operation' }],
});
const notAllowed = (method: string, path: string): Row => ({
  name: `${method} ${path}`,
  method,
  path,
  status: 405,
  code: 'method_not_allowed',
  detail: `${method} is not allowed on ${path}; use GET, HEAD, OPTIONS.`,
  allow: 'GET, HEAD, OPTIONS',
});

const rows: Row[] = [
  unknownQuery('/api/auth/config', 'verbose'),
  unknownQuery('/api/auth/me', 'uid'),
  unknownQuery('/api/docs/index', 'page'),
  unknownQuery('/api/docs/page/getting-started', 'format'),
  badSlug('Getting-Started'),
  badSlug('..%2F..%2Fetc%2Fpasswd'),
  badSlug('%2e%2e%2fetc'),
  badSlug('..%5C..%5Cwindows%5Cwin.ini'),
  badSlug('%2Fetc%2Fpasswd'),
  badSlug('getting_started'),
  {
    name: 'slug over 100 characters',
    path: `/api/docs/page/${'a'.repeat(101)}`,
    status: 400,
    code: 'invalid_request',
    detail: 'The path parameter "slug" must NOT have more than 100 characters.',
    errors: [{ in: 'path', name: 'slug', message: 'must NOT have more than 100 characters' }],
  },
  {
    name: 'If-None-Match over 200 characters',
    path: '/api/docs/page/getting-started',
    headers: { 'If-None-Match': `"${'x'.repeat(250)}"` },
    status: 400,
    code: 'invalid_request',
    detail: 'The header parameter "If-None-Match" must NOT have more than 200 characters.',
    errors: [{ in: 'header', name: 'If-None-Match', message: 'must NOT have more than 200 characters' }],
  },
  {
    name: 'unknown slug',
    path: '/api/docs/page/no-such-page',
    status: 404,
    code: 'doc_not_found',
    detail: 'No documentation page has the slug "no-such-page".',
  },
  {
    name: 'empty slug',
    path: '/api/docs/page/',
    status: 404,
    code: 'not_found',
    detail: 'No operation exists at /api/docs/page/.',
  },
  {
    name: 'slug with a slash',
    path: '/api/docs/page/a/b',
    status: 404,
    code: 'not_found',
    detail: 'No operation exists at /api/docs/page/a/b.',
  },
  {
    name: 'malformed JSON body',
    method: 'POST',
    path: '/api/auth/config',
    headers: { 'Content-Type': 'application/json' },
    body: '{"authRequired": tru',
    status: 400,
    code: 'malformed_json',
    detail: 'The body is not valid JSON.',
  },
  {
    name: 'body in an unsupported charset',
    method: 'POST',
    path: '/api/docs/index',
    headers: { 'Content-Type': 'application/json; charset=ebcdic' },
    body: '{}',
    status: 415,
    code: 'unsupported_media_type',
    detail: 'The body uses a content encoding or charset the server does not accept.',
  },
  {
    name: 'body over the runtime limit (33 MiB)',
    method: 'POST',
    path: '/api/docs/index',
    headers: { 'Content-Type': 'application/json' },
    body: new Uint8Array(33 * 1024 * 1024).fill(0x20),
    status: 413,
    code: 'payload_too_large',
    detail: 'The body is larger than the runtime accepts.',
  },
  { ...notAllowed('POST', '/api/auth/config'), headers: { 'Content-Type': 'application/json' }, body: '{"authRequired":false}' },
  notAllowed('PUT', '/api/docs/index'),
  notAllowed('DELETE', '/api/auth/me'),
  { name: 'unknown family', path: '/api/nope', status: 404, code: 'not_found', detail: 'No operation exists at /api/nope.' },
];

let token: string;
beforeAll(async () => {
  token = (await signUp()).idToken;
});

describe('bad input through Hosting', () => {
  it.each(rows.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const response = await fetch(hosting + row.path, {
      method: row.method ?? 'GET',
      headers: { ...bearer(token), ...row.headers },
      ...(row.body !== undefined ? { body: row.body } : {}),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(row.status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('allow')).toBe(row.allow ?? null);
    const extra = row.errors ? { errors: row.errors } : {};
    expect(body).toEqual(
      expectedProblem(row.code, row.detail, row.instance ?? row.path, response.headers.get('x-request-id')!, extra),
    );
  });
});
