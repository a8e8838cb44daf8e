/**
 * Bad input, through Hosting on the emulators: each row is a request a careless or hostile
 * client might send, with the exact problem it must get back. Nothing may answer 5xx.
 * Every row carries a valid token, so the answer is about the input, not about access.
 */
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectedProblem } from '../support/problems.ts';
import { bearer, hosting, signUp } from '../support/emulator.ts';
import type { ProblemCode } from '@evident/contract/problems';
import {
  auditPackageIdPattern,
  collectionRunIdPattern,
  collectionRunLimits,
  connectorIdPattern,
  datePattern,
  pageLimits,
  slugPattern,
} from '@evident/contract';
import { encodeCursor, type Listing } from '../../functions/src/families/paging.ts';
import { apiVersion } from '../../functions/src/generated/api-version.ts';

interface Row {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer> | (() => FormData);
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
/** Every listing refuses a cursor it did not give out the same way. */
const unknownCursor = (listing: Listing, cursor: string, what: string): Row => ({
  name: `${listing}: ${what} as the cursor`,
  path: `/api/${listing}?cursor=${encodeURIComponent(cursor)}`,
  instance: `/api/${listing}`,
  status: 400,
  code: 'invalid_request',
  detail: 'The query parameter "cursor" is not a cursor this API gave out.',
  errors: [{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }],
});
/** A well-formed place in a newest-first index (storage/newest-first.ts), for forged cursors. */
const somePlace = (id: string) => `000000000000000-${id}`;
const notAllowed = (method: string, path: string): Row => ({
  name: `${method} ${path}`,
  method,
  path,
  status: 405,
  code: 'method_not_allowed',
  detail: `${method} is not allowed on ${path}; use GET, HEAD, OPTIONS.`,
  allow: 'GET, HEAD, OPTIONS',
});

const malformedJson = '{"message": tru';
function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parses`);
}

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
    path: '/api/chat',
    headers: { 'Content-Type': 'application/json' },
    body: malformedJson,
    status: 400,
    code: 'malformed_json',
    detail: `The body is not valid JSON: ${parseError(malformedJson)}.`,
  },
  {
    name: 'malformed JSON body to an operation that takes none (never parsed)',
    method: 'POST',
    path: '/api/auth/config',
    headers: { 'Content-Type': 'application/json' },
    body: malformedJson,
    status: 405,
    code: 'method_not_allowed',
    detail: 'POST is not allowed on /api/auth/config; use GET, HEAD, OPTIONS.',
    allow: 'GET, HEAD, OPTIONS',
  },
  {
    name: 'body in an unsupported charset',
    method: 'POST',
    path: '/api/docs/index',
    headers: { 'Content-Type': 'application/json; charset=ebcdic' },
    body: '{}',
    status: 415,
    code: 'unsupported_media_type',
    detail: 'The body\'s charset "ebcdic" is not accepted; send UTF-8.',
  },
  {
    name: 'body over the function limit (8 MiB to a function that takes no body)',
    method: 'POST',
    path: '/api/docs/index',
    headers: { 'Content-Type': 'application/json' },
    body: new Uint8Array(8 * 1024 * 1024).fill(0x20),
    status: 413,
    code: 'payload_too_large',
    detail: `The body is ${8 * 1024 * 1024} bytes; this function accepts at most ${64 * 1024}.`,
  },
  {
    name: 'gzip body that inflates past the function limit',
    method: 'POST',
    path: '/api/evidence',
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    body: new Uint8Array(gzipSync(Buffer.from(`[${'{},'.repeat(6_000_000)}{}]`))),
    status: 413,
    code: 'payload_too_large',
    // The evidence function's largest body is a scanner's output (16 MiB).
    detail: `The body inflates (gzip) to more than ${16 * 1024 * 1024} bytes, the most this function accepts.`,
  },
  {
    name: 'form data to a function that takes only JSON',
    method: 'POST',
    path: '/api/chat',
    headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    body: '--x--\r\n',
    status: 415,
    code: 'unsupported_media_type',
    detail: 'The body is "multipart/form-data"; send application/json.',
  },
  ...['/api/evidence', '/api/chat', '/api/analyses', '/api/mcp'].map((path): Row => ({
    name: `JSON nested 5,000 deep to POST ${path}`,
    method: 'POST',
    path,
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'deep-json-0001' },
    body: `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    status: 400,
    code: 'invalid_request',
    detail: 'The body (root) nests objects and arrays deeper than 64 levels.',
    errors: [{ in: 'body', pointer: '', message: 'nests objects and arrays deeper than 64 levels' }],
  })),
  { ...notAllowed('POST', '/api/auth/config'), headers: { 'Content-Type': 'application/json' }, body: '{"authRequired":false}' },
  notAllowed('PUT', '/api/docs/index'),
  notAllowed('DELETE', '/api/auth/me'),
  { name: 'unknown family', path: '/api/nope', status: 404, code: 'not_found', detail: 'No operation exists at /api/nope.' },
  ...evidenceRows(),
  ...reportRows(),
  ...analysisRows(),
  ...chatRows(),
  ...mcpRows(),
  ...submissionRows(),
  ...exceptionRows(),
  ...auditRequestRows(),
  ...webhookRows(),
  ...settingsRows(),
  ...runRows(),
  ...connectorRows(),
  ...auditPackageRows(),
];

function auditPackageRows(): Row[] {
  const unknown = 'pkg-20260101-20260102-000000000000-000000';
  const json = { 'Content-Type': 'application/json' };
  return [
    {
      name: 'audit packages: one that does not exist',
      path: `/api/audit/packages/${unknown}/download`,
      status: 404,
      code: 'audit_package_not_found',
      detail: `There is no audit package ${unknown}; GET /api/audit/packages lists them.`,
    },
    {
      name: 'audit packages: an id that is not one',
      path: '/api/audit/packages/..%2Fevidence',
      status: 400,
      code: 'invalid_request',
      detail: `The path parameter "id" must match pattern "${auditPackageIdPattern}".`,
      errors: [{ in: 'path', name: 'id', message: `must match pattern "${auditPackageIdPattern}"` }],
    },
    {
      name: 'audit packages: a period longer than a year',
      method: 'POST',
      path: '/api/audit/packages',
      headers: json,
      body: JSON.stringify({ from: '2020-01-01', to: '2021-06-30' }),
      status: 400,
      code: 'invalid_request',
      detail: 'The body /from makes a period longer than 366 days.',
      errors: [{ in: 'body', pointer: '/from', message: 'makes a period longer than 366 days' }],
    },
    {
      name: 'audit packages: a period with no report',
      method: 'POST',
      path: '/api/audit/packages',
      headers: json,
      body: JSON.stringify({ from: '2020-01-01', to: '2020-01-31' }),
      status: 404,
      code: 'report_not_found',
      detail: 'No report exists from 2020-01-01 to 2020-01-31; GET /api/report lists the days that have one.',
    },
    {
      name: 'audit packages: a body that is not the period',
      method: 'POST',
      path: '/api/audit/packages',
      headers: json,
      body: JSON.stringify({ from: '2020-01-01', to: '2020-01-31', format: 'tar' }),
      status: 400,
      code: 'invalid_request',
      detail: 'The body /format is not a known property.',
      errors: [{ in: 'body', pointer: '/format', message: 'is not a known property' }],
    },
  ];
}

function connectorRows(): Row[] {
  const unknownRun = 'run-000000000-000000000000';
  return [
    {
      name: 'connectors: one that does not exist',
      path: '/api/connectors/salesforce',
      status: 404,
      code: 'connector_not_found',
      detail: 'There is no connector "salesforce". GET /api/connectors lists them.',
    },
    {
      name: 'connectors: an id with path characters',
      method: 'POST',
      path: '/api/connectors/..%2Fanalyses/runs',
      status: 400,
      code: 'invalid_request',
      detail: `The path parameter "connector" must match pattern "${connectorIdPattern}".`,
      errors: [{ in: 'path', name: 'connector', message: `must match pattern "${connectorIdPattern}"` }],
    },
    {
      name: 'connectors: a run that does not exist',
      path: `/api/connectors/okta/runs/${unknownRun}`,
      status: 404,
      code: 'connector_run_not_found',
      detail: `Okta has no run "${unknownRun}".`,
    },
    {
      name: 'connectors: cancelling a run that does not exist',
      method: 'POST',
      path: `/api/connectors/github/runs/${unknownRun}/cancel`,
      status: 404,
      code: 'connector_run_not_found',
      detail: `GitHub has no run "${unknownRun}".`,
    },
    {
      name: 'connectors: a run id that is not one',
      path: '/api/connectors/okta/runs/an-20250101000000000-00000000/events',
      status: 400,
      code: 'invalid_request',
      detail: `The path parameter "id" must match pattern "${collectionRunIdPattern}".`,
      errors: [{ in: 'path', name: 'id', message: `must match pattern "${collectionRunIdPattern}"` }],
    },
  ];
}

/**
 * Settings that must not be saved, each refused at its place. Nothing is stored, so the version
 * they are based on never matters: the body is checked first.
 */
/**
 * Collection runs: a run that does not exist, a declared count past the bound (checked before the
 * run is looked up), and a cursor of the runs listing sent to the sources listing.
 */
function runRows(): Row[] {
  const unknown = 'run-000000000-000000000000';
  const item = {
    kind: 'idp.user',
    source: 'okta',
    subject: 'ada@example.com',
    collectedAt: '2026-11-20T04:00:00Z',
    data: { email: 'ada@example.com', active: true, mfaEnabled: true, admin: false, employmentStatus: 'active' },
  };
  const json = { 'Content-Type': 'application/json' };
  return [
    {
      name: 'runs: completing a run that does not exist',
      method: 'POST',
      path: `/api/runs/${unknown}/complete`,
      headers: json,
      body: JSON.stringify({ counts: { 'idp.user': 1 } }),
      status: 404,
      code: 'run_not_found',
      detail: `No collection run has the id "${unknown}".`,
    },
    {
      name: 'runs: acknowledging a drop of a run that does not exist',
      method: 'POST',
      path: `/api/runs/${unknown}/drops/idp.user/acknowledge`,
      headers: json,
      body: JSON.stringify({ reason: 'A reorganisation' }),
      status: 404,
      code: 'run_not_found',
      detail: `No collection run has the id "${unknown}".`,
    },
    {
      name: 'runs: a batch under a run that does not exist',
      method: 'POST',
      path: `/api/evidence?run=${unknown}`,
      instance: '/api/evidence',
      headers: json,
      body: JSON.stringify(item),
      status: 404,
      code: 'run_not_found',
      detail: `No collection run has the id "${unknown}".`,
    },
    {
      name: 'runs: a declared count of ten million',
      method: 'POST',
      path: `/api/runs/${unknown}/complete`,
      headers: json,
      body: JSON.stringify({ counts: { 'idp.user': 10_000_000 } }),
      status: 400,
      code: 'invalid_request',
      detail: `The body /counts/idp.user must be <= ${collectionRunLimits.declaredPerKind}.`,
      errors: [{ in: 'body', pointer: '/counts/idp.user', message: `must be <= ${collectionRunLimits.declaredPerKind}` }],
    },
    {
      name: 'runs: a runs cursor sent to the sources listing',
      method: 'GET',
      path: `/api/runs/sources?cursor=${Buffer.from(JSON.stringify({ of: 'runs', after: 'v-okta' })).toString('base64url')}`,
      instance: '/api/runs/sources',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "cursor" is not a cursor this API gave out.',
      errors: [{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }],
    },
    {
      name: 'runs: populations without a source',
      method: 'GET',
      path: '/api/runs/populations?kind=idp.user',
      instance: '/api/runs/populations',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "source" is required.',
      errors: [{ in: 'query', name: 'source', message: 'is required' }],
    },
    {
      name: 'runs: populations of a kind that does not exist',
      method: 'GET',
      path: '/api/runs/populations?source=okta&kind=no.such.kind',
      instance: '/api/runs/populations',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "kind" must be equal to one of the allowed values.',
      errors: [{ in: 'query', name: 'kind', message: 'must be equal to one of the allowed values' }],
    },
    {
      name: 'runs: populations since a day that is not one',
      method: 'GET',
      path: '/api/runs/populations?source=okta&kind=idp.user&since=2026-02-30',
      instance: '/api/runs/populations',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "since" must match format "date".',
      errors: [{ in: 'query', name: 'since', message: 'must match format "date"' }],
    },
    {
      name: 'runs: a page of populations over the maximum',
      method: 'GET',
      path: `/api/runs/populations?source=okta&kind=idp.user&limit=${pageLimits.populations.maximum + 1}`,
      instance: '/api/runs/populations',
      status: 400,
      code: 'invalid_request',
      detail: `The query parameter "limit" must be <= ${pageLimits.populations.maximum}.`,
      errors: [{ in: 'query', name: 'limit', message: `must be <= ${pageLimits.populations.maximum}` }],
    },
    {
      name: 'runs: a sources cursor sent to the populations listing',
      method: 'GET',
      path: `/api/runs/populations?source=okta&kind=idp.user&cursor=${Buffer.from(JSON.stringify({ of: 'sources', after: 'v-okta' })).toString('base64url')}`,
      instance: '/api/runs/populations',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "cursor" is not a cursor this API gave out.',
      errors: [{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }],
    },
  ];
}

function settingsRows(): Row[] {
  const defaults = {
    owners: { controls: {}, families: {} },
    dueDays: { critical: 7, high: 30, medium: 90, low: 180 },
    freshness: { controls: {}, kinds: {} },
    scope: {
      soc2: { categories: ['security'], excluded: [] },
      iso27001: { excluded: [] },
      nist80053: { baseline: 'moderate', excluded: [] },
    },
    connectors: {},
  };
  const save = (name: string, settings: Record<string, unknown>, pointer: string, message: string): Row => ({
    name: `settings: ${name}`,
    method: 'PUT',
    path: '/api/settings',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ basedOn: null, reason: 'Trying a mistake.', settings: { ...defaults, ...settings } }),
    status: 400,
    code: 'invalid_request',
    detail: `The body ${pointer} ${message}.`,
    errors: [{ in: 'body', pointer, message }],
  });
  return [
    save(
      'an owner that is not an e-mail address',
      { owners: { controls: { 'IAM-01': [{ email: 'IT lead', role: 'Lead' }] }, families: {} } },
      '/settings/owners/controls/IAM-01/0/email',
      'must match format "email"',
    ),
    save(
      'a freshness override of zero days',
      { freshness: { controls: { 'IAM-01': 0 }, kinds: {} } },
      '/settings/freshness/controls/IAM-01',
      'must be >= 1',
    ),
    save(
      'a freshness override of ten years',
      { freshness: { controls: {}, kinds: { 'idp.user': 3650 } } },
      '/settings/freshness/kinds/idp.user',
      'must be <= 730',
    ),
    save(
      'a scope naming an unknown framework',
      { scope: { ...defaults.scope, hipaa: { excluded: [] } } },
      '/settings/scope/hipaa',
      'is not a known property',
    ),
    save(
      'an ISO exclusion that is no Annex A control',
      { scope: { ...defaults.scope, iso27001: { excluded: [{ requirement: 'A.99.1', reason: 'Not ours.' }] } } },
      '/settings/scope/iso27001/excluded/0/requirement',
      'is not a requirement of ISO/IEC 27001:2022 Annex A',
    ),
    {
      name: 'settings: a version never saved',
      path: '/api/settings/versions/999999999',
      status: 404,
      code: 'settings_version_not_found',
      detail: 'No saved version of the settings is numbered 999999999.',
    },
  ];
}

function webhookRows(): Row[] {
  const subscribe = (name: string, body: unknown, pointer: string, message: string): Row => ({
    name: `webhooks: ${name}`,
    method: 'POST',
    path: '/api/webhooks',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    status: 400,
    code: 'invalid_request',
    detail: `The body ${pointer} ${message}.`,
    errors: [{ in: 'body', pointer, message }],
  });
  const idPattern = '^wh-[0-9a-f]{12}$';
  return [
    subscribe('no event', { url: 'https://hooks.example.com/', events: [] }, '/events', 'must NOT have fewer than 1 items'),
    subscribe(
      'an unknown event',
      { url: 'https://hooks.example.com/', events: ['report.deleted'] },
      '/events/0',
      'must be equal to one of the allowed values',
    ),
    subscribe(
      'an unknown format',
      { url: 'https://hooks.example.com/', events: ['report.published'], format: 'xml' },
      '/format',
      'must be equal to one of the allowed values',
    ),
    {
      name: 'webhooks: the cloud metadata server as a target',
      method: 'POST',
      path: '/api/webhooks',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'https://169.254.169.254/computeMetadata/v1/', events: ['report.published'] }),
      status: 422,
      code: 'webhook_target_refused',
      detail: 'The webhook URL is refused: 169.254.169.254 is a link-local address (cloud metadata).',
    },
    {
      name: 'webhooks: an id with path characters',
      path: '/api/webhooks/..%2F..%2Freports',
      status: 400,
      code: 'invalid_request',
      detail: `The path parameter "id" must match pattern "${idPattern}".`,
      errors: [{ in: 'path', name: 'id', message: `must match pattern "${idPattern}"` }],
    },
    {
      name: 'webhooks: unknown id',
      path: '/api/webhooks/wh-000000000000',
      status: 404,
      code: 'webhook_not_found',
      detail: 'No webhook subscription has the id "wh-000000000000".',
    },
    {
      name: 'webhooks: a redelivery of an unknown webhook',
      method: 'POST',
      path: '/api/webhooks/wh-000000000000/deliveries/msg_000000000000000000000000/redeliver',
      status: 404,
      code: 'webhook_not_found',
      detail: 'No webhook subscription has the id "wh-000000000000".',
    },
  ];
}

/** The auditor's request list: a CSV with an unknown control, a duplicate row, a formula or a wrong encoding, and bad steps. */
function auditRequestRows(): Row[] {
  const csv = { 'Content-Type': 'text/csv' };
  const header = 'control,from,to,description\r\n';
  const refused = (
    name: string,
    body: string | Uint8Array<ArrayBuffer>,
    detail: string,
    error: Record<string, unknown>,
  ): Row => ({
    name: `requests: an import with ${name}`,
    method: 'POST',
    path: '/api/requests/import',
    headers: csv,
    body,
    status: 400,
    code: 'invalid_request',
    detail,
    errors: [{ in: 'body', ...error }],
  });
  const notUtf8 =
    'is not UTF-8 text (the file may be saved as Windows-1252 or another encoding): save it as "CSV UTF-8" and import it again';
  return [
    refused(
      'an unknown control',
      `${header}ZZZ-99,2026-01-01,2026-03-31,Access reviews\r\n`,
      'Row 1 (line 2), column "control": "ZZZ-99" names no control in the catalog. Nothing was imported.',
      { line: 2, pointer: '/control', message: 'row 1: "ZZZ-99" names no control in the catalog' },
    ),
    refused(
      'a duplicate row',
      `${header}IAM-01,2026-01-01,2026-03-31,Access reviews\r\nIAM-01,2026-01-01,2026-03-31,Access reviews\r\n`,
      'Row 2 (line 3) repeats row 1 (the same control, period and description). Nothing was imported.',
      { line: 3, message: 'row 2: repeats row 1 (the same control, period and description)' },
    ),
    refused(
      'a formula',
      `${header}IAM-01,2026-01-01,2026-03-31,=HYPERLINK(1)\r\n`,
      'Row 1 (line 2), column "description": starts like a spreadsheet formula (= + - @): write it without that first character. Nothing was imported.',
      {
        line: 2,
        pointer: '/description',
        message: 'row 1: starts like a spreadsheet formula (= + - @): write it without that first character',
      },
    ),
    refused(
      'Windows-1252 text',
      new Uint8Array([...Buffer.from(`${header}IAM-01,2026-01-01,2026-03-31,Contr`), 0xf4, ...Buffer.from('le\r\n')]),
      `Line 2 ${notUtf8}. Nothing was imported.`,
      { line: 2, message: notUtf8 },
    ),
    refused(
      'UTF-16 text',
      new Uint8Array(Buffer.from(`\ufeff${header}`, 'utf16le')),
      'Line 1 is UTF-16, not UTF-8: save the file as "CSV UTF-8" and import it again. Nothing was imported.',
      { line: 1, message: 'is UTF-16, not UTF-8: save the file as "CSV UTF-8" and import it again' },
    ),
    {
      name: 'requests: a JSON body to the import',
      method: 'POST',
      path: '/api/requests/import',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      status: 415,
      code: 'unsupported_media_type',
      detail: 'The body is "application/json"; send text/csv.',
    },
    {
      name: 'requests: a period over a year',
      method: 'POST',
      path: '/api/requests',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ controlId: 'IAM-01', period: { from: '2025-01-01', to: '2026-01-02' }, description: 'A year' }),
      status: 400,
      code: 'invalid_request',
      detail: 'The body /period/to makes a period longer than 366 days.',
      errors: [{ in: 'body', pointer: '/period/to', message: 'makes a period longer than 366 days' }],
    },
    {
      name: 'requests: accepting one that does not exist',
      method: 'POST',
      path: '/api/requests/PBC-0000/accept',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ basedOn: 1 }),
      status: 404,
      code: 'audit_request_not_found',
      detail: 'No request of the list has the id "PBC-0000".',
    },
  ];
}

function exceptionRows(): Row[] {
  const today = new Date().toISOString().slice(0, 10);
  const json = { 'Content-Type': 'application/json' };
  const accept = (fields: Record<string, unknown>) =>
    JSON.stringify({
      controlId: 'IAM-01',
      justification: 'Accepted for the length of a migration.',
      expiresOn: '2099-01-01',
      ...fields,
    });
  const refused = (name: string, fields: Record<string, unknown>, pointer: string, message: string): Row => ({
    name: `exceptions: ${name}`,
    method: 'POST',
    path: '/api/exceptions',
    headers: json,
    body: accept(fields),
    status: 400,
    code: 'invalid_request',
    detail: `The body ${pointer} ${message}.`,
    errors: [{ in: 'body', pointer, message }],
  });
  return [
    refused('an expiry in the past', { expiresOn: '2020-01-01' }, '/expiresOn', `must be after today (${today}, UTC)`),
    refused(
      'an expiry more than a year ahead',
      { expiresOn: '2099-01-01' },
      '/expiresOn',
      `must be at most 366 days ahead (${new Date(Date.parse(today) + 366 * 86_400_000).toISOString().slice(0, 10)})`,
    ),
    refused(
      'an unknown control',
      { controlId: 'ZZZ-99', expiresOn: new Date(Date.parse(today) + 30 * 86_400_000).toISOString().slice(0, 10) },
      '/controlId',
      'names no control in the catalog',
    ),
    {
      name: 'exceptions: no justification',
      method: 'POST',
      path: '/api/exceptions',
      headers: json,
      body: JSON.stringify({ controlId: 'IAM-01', expiresOn: '2099-01-01' }),
      status: 400,
      code: 'invalid_request',
      detail: 'The body /justification is required.',
      errors: [{ in: 'body', pointer: '/justification', message: 'is required' }],
    },
    {
      name: 'exceptions: revoking one that does not exist',
      method: 'POST',
      path: '/api/exceptions/exc-20990101-0000000000/revoke',
      status: 404,
      code: 'exception_not_found',
      detail: 'No exception has the id "exc-20990101-0000000000".',
    },
    {
      name: 'exceptions: approving one that does not exist',
      method: 'POST',
      path: '/api/exceptions/exc-20990101-0000000000/approve',
      status: 404,
      code: 'exception_not_found',
      detail: 'No exception has the id "exc-20990101-0000000000".',
    },
    {
      name: 'exceptions: refusing without a reason',
      method: 'POST',
      path: '/api/exceptions/exc-20990101-0000000000/refuse',
      headers: json,
      body: JSON.stringify({}),
      status: 400,
      code: 'invalid_request',
      detail: 'The body /reason is required.',
      errors: [{ in: 'body', pointer: '/reason', message: 'is required' }],
    },
    {
      name: 'exceptions: refusing with a blank reason',
      method: 'POST',
      path: '/api/exceptions/exc-20990101-0000000000/refuse',
      headers: json,
      body: JSON.stringify({ reason: '   ' }),
      status: 400,
      code: 'invalid_request',
      detail: 'The body /reason is blank: say why the risk is refused.',
      errors: [{ in: 'body', pointer: '/reason', message: 'is blank: say why the risk is refused' }],
    },
    {
      name: 'exceptions: an id that is not one',
      path: '/api/exceptions/exc-1',
      status: 400,
      code: 'invalid_request',
      detail: 'The path parameter "id" must match pattern "^exc-[0-9]{8}-[0-9a-f]{10}$".',
      errors: [{ in: 'path', name: 'id', message: 'must match pattern "^exc-[0-9]{8}-[0-9a-f]{10}$"' }],
    },
  ];
}

function evidence(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'idp.user',
    source: 'bad-inputs',
    subject: 'ada@example.com',
    collectedAt: '2026-11-20T04:00:00Z',
    data: { email: 'ada@example.com', active: true, mfaEnabled: true, admin: false, employmentStatus: 'active' },
    ...overrides,
  };
}

function evidenceRows(): Row[] {
  const post = (name: string, body: unknown, rest: Omit<Row, 'name' | 'path' | 'method' | 'body'>): Row => ({
    name,
    method: 'POST',
    path: '/api/evidence',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...rest,
  });
  const invalid = (name: string, body: unknown, errors: { pointer: string; message: string }[]): Row =>
    post(name, body, {
      status: 400,
      code: 'invalid_request',
      detail:
        errors.length === 1
          ? `The body ${errors[0]!.pointer} ${errors[0]!.message}.`
          : `${errors.length} parts of the request do not match the API description; see errors.`,
      errors: errors.map((error) => ({ in: 'body', ...error })),
    });
  return [
    post('evidence: invalid JSON', '{"kind": "idp.user",', {
      status: 400,
      code: 'malformed_json',
      detail: `The body is not valid JSON: ${parseError('{"kind": "idp.user",')}.`,
    }),
    invalid('evidence: unknown kind', evidence({ kind: 'nope' }), [
      { pointer: '/kind', message: 'must be equal to one of the allowed values' },
    ]),
    invalid(
      "evidence: data failing its kind's schema",
      evidence({ data: { email: 'ada@example.com', active: true, mfaEnabled: 'yes', admin: false, employmentStatus: 'active' } }),
      [{ pointer: '/data/mfaEnabled', message: 'must be boolean' }],
    ),
    invalid(
      'evidence: data missing a required field',
      evidence({ data: { email: 'ada@example.com', active: true, admin: false, employmentStatus: 'active' } }),
      [{ pointer: '/data/mfaEnabled', message: 'is required' }],
    ),
    invalid('evidence: an id with path characters', evidence({ id: '../../reports/2026-11-20' }), [
      { pointer: '/id', message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$"' },
    ]),
    invalid('evidence: collectedAt is not a date-time', evidence({ collectedAt: '2026-11-31T04:00:00Z' }), [
      { pointer: '/collectedAt', message: 'must match format "date-time"' },
    ]),
    invalid('evidence: an unknown field', evidence({ colour: 'red' }), [
      { pointer: '/colour', message: 'is not a known property' },
    ]),
    invalid('evidence: batch too large (501 items)', { items: Array.from({ length: 501 }, () => evidence()) }, [
      { pointer: '/items', message: 'must NOT have more than 500 items' },
    ]),
    invalid('evidence: empty batch', { items: [] }, [{ pointer: '/items', message: 'must NOT have fewer than 1 items' }]),
    invalid('evidence: a bad item inside a batch', { items: [evidence(), evidence({ subject: '' })] }, [
      { pointer: '/items/1/subject', message: 'must NOT have fewer than 1 characters' },
    ]),
    invalid('evidence: duplicate ids in a batch', { items: [evidence({ id: 'dup-1' }), evidence({ id: 'dup-1' })] }, [
      { pointer: '/items/1/id', message: 'repeats the id of /items/0' },
    ]),
    // The function refuses it before routing, naming every type it takes (scanner output may be NDJSON).
    post('evidence: not JSON', 'kind=idp.user', {
      headers: { 'Content-Type': 'text/plain' },
      status: 415,
      code: 'unsupported_media_type',
      detail: 'The body is "text/plain"; send application/json or application/x-ndjson.',
    }),
    {
      name: 'evidence import: NDJSON to the operation that takes JSON items',
      method: 'POST',
      path: '/api/evidence',
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: '{}\n',
      status: 415,
      code: 'unsupported_media_type',
      detail: 'The body is "application/x-ndjson"; send application/json.',
    },
    {
      name: 'evidence import: a finding without a check, and one that is not JSON',
      method: 'POST',
      path: '/api/evidence/imports/ocsf',
      headers: { 'Content-Type': 'application/json' },
      body: '[\n{"class_uid": 2004, "status_code": "FAIL"},\n{oops}\n]',
      status: 400,
      code: 'invalid_request',
      detail: '2 findings of the file cannot be imported; see errors. Nothing was stored.',
      errors: [
        { in: 'body', pointer: '/0', line: 2, message: 'the finding names no check: expected "metadata.event_code"' },
        {
          in: 'body',
          pointer: '/1',
          line: 3,
          message: `not valid JSON: ${parseError('{oops}').replace(/ in JSON at position \d+.*$/s, '')}`,
        },
      ],
    },
    {
      name: 'evidence import: a scan cut short',
      method: 'POST',
      path: '/api/evidence/imports/ocsf',
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: '{"class_uid": 2004,\n',
      status: 400,
      code: 'invalid_request',
      detail: 'Line 1 of the file cannot be imported: the file ends inside the value that starts on line 1. Nothing was stored.',
      errors: [{ in: 'body', pointer: '', line: 1, message: 'the file ends inside the value that starts on line 1' }],
    },
    // The function takes up to 16 MiB (scanner output); this operation's own limit refuses it.
    post(
      'evidence: over 4 MiB',
      { items: [evidence({ data: { pad: 'x'.repeat(4 * 1024 * 1024) } })] },
      {
        status: 413,
        code: 'payload_too_large',
        detail: `The body is ${JSON.stringify({ items: [evidence({ data: { pad: 'x'.repeat(4 * 1024 * 1024) } })] }).length} bytes; this operation accepts at most 4194304.`,
      },
    ),
    {
      name: 'evidence: an id with path characters in the path',
      path: '/api/evidence/..%2F..%2Freports',
      status: 400,
      code: 'invalid_request',
      detail: 'The path parameter "id" must match pattern "^[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$".',
      errors: [{ in: 'path', name: 'id', message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$"' }],
    },
    {
      name: 'evidence: unknown id',
      path: '/api/evidence/no-such-item',
      status: 404,
      code: 'evidence_not_found',
      detail: 'No evidence item has the id "no-such-item".',
    },
    unknownCursor('evidence', 'bm9wZQ', 'a cursor we never gave out'),
    unknownCursor('evidence', encodeCursor('submissions', somePlace('sub-0000000000000000')), 'a submissions cursor'),
    unknownCursor('evidence', encodeCursor('evidence', '../../reports'), 'a cursor whose place is not an index key'),
    {
      name: 'evidence: unknown control filter',
      path: '/api/evidence?control=ZZZ-99',
      instance: '/api/evidence',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "control" names no control in the catalog.',
      errors: [{ in: 'query', name: 'control', message: 'names no control in the catalog' }],
    },
    {
      name: 'controls: unknown id',
      path: '/api/controls/ZZZ-99',
      status: 404,
      code: 'control_not_found',
      detail: 'No control in the catalog has the id "ZZZ-99".',
    },
    {
      name: 'controls: a sample larger than 60',
      path: '/api/controls/IAM-01/sample?size=61',
      instance: '/api/controls/IAM-01/sample',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "size" must be <= 60.',
      errors: [{ in: 'query', name: 'size', message: 'must be <= 60' }],
    },
    {
      name: 'controls: a sample of none',
      path: '/api/controls/IAM-01/sample.csv?size=0',
      instance: '/api/controls/IAM-01/sample.csv',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "size" must be >= 1.',
      errors: [{ in: 'query', name: 'size', message: 'must be >= 1' }],
    },
    {
      name: 'controls: a sample seed over 200 characters',
      path: `/api/controls/IAM-01/sample?seed=${'s'.repeat(201)}`,
      instance: '/api/controls/IAM-01/sample',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "seed" must NOT have more than 200 characters.',
      errors: [{ in: 'query', name: 'seed', message: 'must NOT have more than 200 characters' }],
    },
    {
      name: 'controls: a sample seed with a line break',
      path: '/api/controls/IAM-01/sample?seed=a%0Ab',
      instance: '/api/controls/IAM-01/sample',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "seed" must match pattern "^[^\\p{Cc}\\p{Cs}]*$".',
      errors: [{ in: 'query', name: 'seed', message: 'must match pattern "^[^\\p{Cc}\\p{Cs}]*$"' }],
    },
    {
      name: 'controls: a sample of a period over a year',
      path: '/api/controls/IAM-01/sample?from=2024-01-01&to=2025-01-01',
      instance: '/api/controls/IAM-01/sample',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "from" makes a period longer than 366 days.',
      errors: [{ in: 'query', name: 'from', message: 'makes a period longer than 366 days' }],
    },
    {
      name: 'controls: a population without its kind',
      path: '/api/controls/IAM-01/population',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "kind" is required.',
      errors: [{ in: 'query', name: 'kind', message: 'is required' }],
    },
    {
      name: 'controls: a population of a kind that is not one',
      path: '/api/controls/IAM-01/population.csv?kind=idp.users',
      instance: '/api/controls/IAM-01/population.csv',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "kind" must be equal to one of the allowed values.',
      errors: [{ in: 'query', name: 'kind', message: 'must be equal to one of the allowed values' }],
    },
    {
      name: 'controls: a population of a day that is not a calendar day',
      path: '/api/controls/IAM-01/population?kind=idp.user&date=2026-02-30',
      instance: '/api/controls/IAM-01/population',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "date" is not a calendar date (YYYY-MM-DD).',
      errors: [{ in: 'query', name: 'date', message: 'is not a calendar date (YYYY-MM-DD)' }],
    },
    {
      name: 'controls: a population page of 1001 subjects',
      path: '/api/controls/IAM-01/population?kind=idp.user&limit=1001',
      instance: '/api/controls/IAM-01/population',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "limit" must be <= 1000.',
      errors: [{ in: 'query', name: 'limit', message: 'must be <= 1000' }],
    },
    {
      name: 'controls: a population cursor we never gave out',
      path: `/api/controls/IAM-01/population?kind=idp.user&cursor=${encodeCursor('population', '2020-01-01/x/IAM-01/idp.user/5')}`,
      instance: '/api/controls/IAM-01/population',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "cursor" is not a cursor this API gave out.',
      errors: [{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }],
    },
    {
      name: 'controls: a population of a day without a report',
      path: '/api/controls/IAM-01/population?kind=idp.user&date=2020-01-01',
      instance: '/api/controls/IAM-01/population',
      status: 404,
      code: 'report_not_found',
      detail: 'There is no report for 2020-01-01. GET /api/report lists the days that have one.',
    },
    {
      name: 'controls: a sample of subjects larger than the method allows',
      path: '/api/controls/IAM-01/population/sample?kind=idp.user&size=61',
      instance: '/api/controls/IAM-01/population/sample',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "size" must be <= 60.',
      errors: [{ in: 'query', name: 'size', message: 'must be <= 60' }],
    },
    {
      name: 'controls: a sample of subjects with an unprintable seed',
      path: '/api/controls/IAM-01/population/sample.csv?kind=idp.user&seed=%07bell',
      instance: '/api/controls/IAM-01/population/sample.csv',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "seed" must match pattern "^[^\\p{Cc}\\p{Cs}]*$".',
      errors: [{ in: 'query', name: 'seed', message: 'must match pattern "^[^\\p{Cc}\\p{Cs}]*$"' }],
    },
    {
      name: 'controls: a sample of subjects of a control the catalog does not have',
      path: '/api/controls/ZZZ-99/population/sample?kind=idp.user',
      instance: '/api/controls/ZZZ-99/population/sample',
      status: 404,
      code: 'control_not_found',
      detail: 'No control in the catalog has the id "ZZZ-99".',
    },
    {
      name: 'controls: the population of a control the catalog does not have',
      path: '/api/controls/ZZZ-99/population.csv?kind=idp.user',
      instance: '/api/controls/ZZZ-99/population.csv',
      status: 404,
      code: 'control_not_found',
      detail: 'No control in the catalog has the id "ZZZ-99".',
    },
    {
      name: 'audit: a period without its last day',
      path: '/api/audit/package?from=2026-01-01',
      instance: '/api/audit/package',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "to" is required.',
      errors: [{ in: 'query', name: 'to', message: 'is required' }],
    },
    {
      name: 'audit: a period that ends after today',
      path: '/api/audit/package?from=2026-01-01&to=2999-01-01',
      instance: '/api/audit/package',
      status: 400,
      code: 'invalid_request',
      detail: `The query parameter "to" is after today (${new Date().toISOString().slice(0, 10)}, UTC).`,
      errors: [{ in: 'query', name: 'to', message: `is after today (${new Date().toISOString().slice(0, 10)}, UTC)` }],
    },
    {
      name: 'audit: a period longer than a year',
      path: '/api/audit/package?from=2024-01-01&to=2025-06-30',
      instance: '/api/audit/package',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "from" makes a period longer than 366 days.',
      errors: [{ in: 'query', name: 'from', message: 'makes a period longer than 366 days' }],
    },
    {
      name: 'audit: a period with no report',
      path: '/api/audit/package?from=2020-01-01&to=2020-01-31',
      instance: '/api/audit/package',
      status: 404,
      code: 'report_not_found',
      detail: 'No report exists from 2020-01-01 to 2020-01-31; GET /api/report lists the days that have one.',
    },
    {
      name: 'frameworks: unknown framework',
      path: '/api/frameworks/pci',
      status: 404,
      code: 'framework_not_found',
      detail: 'Evident assesses no framework "pci"; it assesses soc2, iso27001, nist80053.',
    },
    {
      name: 'frameworks: a framework id with path characters',
      path: '/api/frameworks/..%2Freports',
      status: 400,
      code: 'invalid_request',
      detail: 'The path parameter "framework" must match pattern "^[a-z0-9]{1,20}$".',
      errors: [{ in: 'path', name: 'framework', message: 'must match pattern "^[a-z0-9]{1,20}$"' }],
    },
    {
      name: 'frameworks: a date that is not a day',
      path: '/api/frameworks?date=2026-13-01',
      instance: '/api/frameworks',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "date" is not a calendar date (YYYY-MM-DD).',
      errors: [{ in: 'query', name: 'date', message: 'is not a calendar date (YYYY-MM-DD)' }],
    },
    {
      name: 'frameworks: a date in the future',
      path: '/api/frameworks/soc2?date=2999-01-01',
      instance: '/api/frameworks/soc2',
      status: 404,
      code: 'report_not_found',
      detail: `2999-01-01 is in the future; today is ${new Date().toISOString().slice(0, 10)} (UTC).`,
    },
  ];
}

function reportRows(): Row[] {
  const notCalendar = (date: string): Row => ({
    name: `report: impossible date ${date}`,
    path: `/api/report/${date}`,
    status: 400,
    code: 'invalid_request',
    detail: 'The path parameter "date" is not a calendar date (YYYY-MM-DD).',
    errors: [{ in: 'path', name: 'date', message: 'is not a calendar date (YYYY-MM-DD)' }],
  });
  const malformed = (date: string): Row => ({
    name: `report: malformed date ${date}`,
    path: `/api/report/${date}`,
    status: 400,
    code: 'invalid_request',
    detail: 'The path parameter "date" must match pattern "^\\d{4}-\\d{2}-\\d{2}$".',
    errors: [{ in: 'path', name: 'date', message: 'must match pattern "^\\d{4}-\\d{2}-\\d{2}$"' }],
  });
  return [
    notCalendar('2026-13-01'),
    notCalendar('2026-02-30'),
    notCalendar('2025-02-29'),
    malformed('2026-1-01'),
    malformed('yesterday'),
    malformed('2026-11-21T00:00:00Z'),
    {
      name: 'report: a day long before any report',
      path: '/api/report/2001-01-01',
      status: 404,
      code: 'report_not_found',
      detail: 'There is no report for 2001-01-01. GET /api/report lists the days that have one.',
    },
    {
      name: 'report: a day in the future',
      path: '/api/report/2999-01-01',
      status: 404,
      code: 'report_not_found',
      detail: `2999-01-01 is in the future; today is ${new Date().toISOString().slice(0, 10)} (UTC).`,
    },
    {
      ...notCalendar('2026-02-30'),
      name: 'report: OSCAL of an impossible date',
      path: '/api/report/2026-02-30/oscal',
    },
  ];
}

function submissionRows(): Row[] {
  const form = (fill: (form: FormData) => void) => () => {
    const body = new FormData();
    fill(body);
    return body;
  };
  const valid = (body: FormData) => {
    body.append('controls', 'PPL-06');
    body.append('statement', 'Policy approved.');
  };
  const post = (name: string, fill: (form: FormData) => void, rest: Omit<Row, 'name' | 'path' | 'method' | 'body'>): Row => ({
    name: `submission: ${name}`,
    method: 'POST',
    path: '/api/submissions',
    body: form(fill),
    ...rest,
  });
  const text = (content: string | Uint8Array<ArrayBuffer>, type: string) => new Blob([content], { type });
  return [
    post('no statement', (body) => body.append('controls', 'PPL-06'), {
      status: 400,
      code: 'invalid_request',
      detail: 'The body /statement is required.',
      errors: [{ in: 'body', pointer: '/statement', message: 'is required' }],
    }),
    post(
      'an unknown control',
      (body) => {
        body.append('controls', 'ZZZ-99');
        body.append('statement', 'x');
      },
      {
        status: 400,
        code: 'invalid_request',
        detail: 'The body /controls/0 names no control in the catalog.',
        errors: [{ in: 'body', pointer: '/controls/0', message: 'names no control in the catalog' }],
      },
    ),
    post(
      'a statement given twice',
      (body) => {
        valid(body);
        body.append('statement', 'again');
      },
      {
        status: 400,
        code: 'invalid_request',
        detail: 'The body /statement must be given once.',
        errors: [{ in: 'body', pointer: '/statement', message: 'must be given once' }],
      },
    ),
    post(
      'a file over 10 MiB',
      (body) => {
        valid(body);
        body.append('attachments', text(new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61), 'text/plain'), 'big.txt');
      },
      {
        status: 413,
        code: 'attachment_too_large',
        detail: `attachments[0] ("big.txt") is ${10 * 1024 * 1024 + 1} bytes; each file may be at most ${10 * 1024 * 1024} bytes.`,
      },
    ),
    post(
      'six files',
      (body) => {
        valid(body);
        for (let i = 0; i < 6; i++) body.append('attachments', text(`file ${i}`, 'text/plain'), `f${i}.txt`);
      },
      {
        status: 413,
        code: 'attachment_too_large',
        detail: '6 files were attached; at most 5 are accepted.',
      },
    ),
    post(
      'a disallowed type',
      (body) => {
        valid(body);
        body.append('attachments', text('PK', 'application/zip'), 'evidence.zip');
      },
      {
        status: 415,
        code: 'attachment_type_not_allowed',
        detail:
          'attachments[0] ("evidence.zip") is "application/zip"; accepted types are application/pdf, image/png, image/jpeg, text/plain, text/csv, text/markdown, application/json.',
      },
    ),
    post(
      'a "PDF" that is not one',
      (body) => {
        valid(body);
        body.append('attachments', text('just text', 'application/pdf'), 'report.pdf');
      },
      {
        status: 415,
        code: 'attachment_type_not_allowed',
        detail: 'attachments[0] ("report.pdf") claims to be "application/pdf" but its content is not.',
      },
    ),
    post(
      'an empty file',
      (body) => {
        valid(body);
        body.append('attachments', text('', 'text/plain'), 'empty.txt');
      },
      {
        status: 400,
        code: 'invalid_request',
        detail: 'attachments[0] ("empty.txt") is empty.',
        errors: [{ in: 'body', pointer: '/attachments/0', message: 'is empty' }],
      },
    ),
    {
      name: 'submission: JSON instead of a form',
      method: 'POST',
      path: '/api/submissions',
      headers: { 'Content-Type': 'application/json' },
      body: '{"controls":["PPL-06"],"statement":"x"}',
      status: 415,
      code: 'unsupported_media_type',
      detail: 'The body is "application/json"; send multipart/form-data.',
    },
    unknownCursor('submissions', 'sub-0000000000000000', 'a submission id'),
    unknownCursor('submissions', encodeCursor('analyses', somePlace('an-20200101000000000-00000000')), 'an analyses cursor'),
    {
      name: 'submission: unknown id',
      path: '/api/submissions/sub-0000000000000000',
      status: 404,
      code: 'submission_not_found',
      detail: 'No submission has the id "sub-0000000000000000".',
    },
    ...reviewRows(),
    {
      name: 'submission: attachment index out of range',
      path: '/api/submissions/sub-0000000000000000/attachments/9',
      status: 400,
      code: 'invalid_request',
      detail: 'The path parameter "index" must be <= 4.',
      errors: [{ in: 'path', name: 'index', message: 'must be <= 4' }],
    },
  ];
}

/** Reviews the HTTP core or the family refuses before looking for the submission, and one of no submission. */
function reviewRows(): Row[] {
  const path = '/api/submissions/sub-0000000000000000/review';
  const review = (name: string, body: unknown, pointer: string, message: string): Row => ({
    name: `submission review: ${name}`,
    method: 'POST',
    path,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    status: 400,
    code: 'invalid_request',
    detail: `The body ${pointer} ${message}.`,
    errors: [{ in: 'body', pointer, message }],
  });
  return [
    review('an unknown decision', { decision: 'approved' }, '/decision', 'must be equal to one of the allowed values'),
    review(
      'a rejection without a reason',
      { decision: 'rejected' },
      '/reason',
      'is required to reject: say why, for the submitter',
    ),
    {
      name: 'submission review: unknown submission',
      method: 'POST',
      path,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ decision: 'accepted' }),
      status: 404,
      code: 'submission_not_found',
      detail: 'No submission has the id "sub-0000000000000000".',
    },
  ];
}

let token: string;
beforeAll(async () => {
  token = (await signUp()).idToken;
});

describe('bad input through Hosting', () => {
  it.each(rows.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const response = await fetch(hosting + row.path, {
      method: row.method ?? 'GET',
      headers: { ...bearer(token), ...row.headers },
      ...(row.body !== undefined ? { body: typeof row.body === 'function' ? row.body() : row.body } : {}),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(row.status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('allow')).toBe(row.allow ?? null);
    expect(response.headers.get('evident-api-version')).toBe(apiVersion);
    const extra = row.errors ? { errors: row.errors } : {};
    expect(body).toEqual(
      expectedProblem(row.code, row.detail, row.instance ?? row.path, response.headers.get('x-request-id')!, extra),
    );
  });
});

function analysisRows(): Row[] {
  const json = { 'Content-Type': 'application/json' };
  const oversized = JSON.stringify({ controls: ['IAM-01'], pad: 'x'.repeat(64 * 1024) });
  return [
    {
      name: 'analyses: invalid JSON',
      method: 'POST',
      path: '/api/analyses',
      headers: json,
      body: '{"controls": [',
      status: 400,
      code: 'malformed_json',
      detail: `The body is not valid JSON: ${parseError('{"controls": [')}.`,
    },
    {
      name: 'analyses: not JSON',
      method: 'POST',
      path: '/api/analyses',
      headers: { 'Content-Type': 'text/plain' },
      body: 'all',
      status: 415,
      code: 'unsupported_media_type',
      detail: 'The body is "text/plain"; send application/json.',
    },
    {
      name: 'analyses: over 64 KiB',
      method: 'POST',
      path: '/api/analyses',
      headers: json,
      body: oversized,
      status: 413,
      code: 'payload_too_large',
      detail: `The body is ${oversized.length} bytes; this function accepts at most 65536.`,
    },
    {
      name: 'analyses: publish is not a boolean',
      method: 'POST',
      path: '/api/analyses',
      headers: json,
      body: '{"publish":"yes"}',
      status: 400,
      code: 'invalid_request',
      detail: 'The body /publish must be boolean.',
      errors: [{ in: 'body', pointer: '/publish', message: 'must be boolean' }],
    },
    unknownCursor('analyses', 'zzz', 'text'),
    unknownCursor('analyses', 'an-20200101000000000-00000000', 'a run id'),
    unknownCursor(
      'analyses',
      encodeCursor('analyses', somePlace('an-20200101000000000-00000000')),
      'a place that is not the run\u2019s',
    ),
    {
      name: 'analyses: limit 0',
      path: '/api/analyses?limit=0',
      instance: '/api/analyses',
      status: 400,
      code: 'invalid_request',
      detail: 'The query parameter "limit" must be >= 1.',
      errors: [{ in: 'query', name: 'limit', message: 'must be >= 1' }],
    },
    {
      name: 'GET /api/analyses/{id}/cancel',
      path: '/api/analyses/an-20200101000000000-00000000/cancel',
      status: 405,
      code: 'method_not_allowed',
      detail: 'GET is not allowed on /api/analyses/{id}/cancel; use POST, OPTIONS.',
      allow: 'POST, OPTIONS',
    },
    {
      name: 'cancel an unknown run',
      method: 'POST',
      path: '/api/analyses/an-20200101000000000-00000000/cancel',
      status: 404,
      code: 'analysis_not_found',
      detail: 'There is no analysis an-20200101000000000-00000000. GET /api/analyses lists recent runs.',
    },
  ];
}

function mcpRows(): Row[] {
  /** What an MCP client sends with every message. */
  const json = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
  const oversized = JSON.stringify({ ...ping(1), params: { pad: 'x'.repeat(64 * 1024) } });
  const versions = '2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07';
  const message = (rest: Omit<Row, 'method' | 'path'>): Row => ({ method: 'POST', path: '/api/mcp', ...rest });
  return [
    message({
      name: 'mcp: invalid JSON',
      headers: json,
      body: '{"jsonrpc": "2.0", "id": 1, "method": "tools/li',
      status: 400,
      code: 'malformed_json',
      detail: `The body is not valid JSON: ${parseError('{"jsonrpc": "2.0", "id": 1, "method": "tools/li')}.`,
    }),
    message({
      name: 'mcp: not JSON',
      headers: { 'Content-Type': 'text/plain' },
      body: 'tools/list',
      status: 415,
      code: 'unsupported_media_type',
      detail: 'The body is "text/plain"; send application/json.',
    }),
    message({
      name: 'mcp: no body',
      status: 400,
      code: 'invalid_request',
      detail: 'The body (root) is required.',
      errors: [{ in: 'body', pointer: '', message: 'is required' }],
    }),
    message({
      name: 'mcp: JSON-RPC 1.0',
      headers: json,
      body: JSON.stringify({ ...ping(1), jsonrpc: '1.0' }),
      status: 400,
      code: 'invalid_request',
      detail: 'The body /jsonrpc must be equal to constant.',
      errors: [{ in: 'body', pointer: '/jsonrpc', message: 'must be equal to constant' }],
    }),
    message({
      name: 'mcp: an empty batch',
      headers: json,
      body: '[]',
      status: 400,
      code: 'invalid_request',
      detail: 'The body (root) must NOT have fewer than 1 items.',
      errors: [{ in: 'body', pointer: '', message: 'must NOT have fewer than 1 items' }],
    }),
    message({
      name: 'mcp: a batch of 21 messages',
      headers: json,
      body: JSON.stringify(Array.from({ length: 21 }, (_, id) => ping(id))),
      status: 400,
      code: 'invalid_request',
      detail: 'The body (root) must NOT have more than 20 items.',
      errors: [{ in: 'body', pointer: '', message: 'must NOT have more than 20 items' }],
    }),
    message({
      name: 'mcp: neither a request, a notification nor a response',
      headers: json,
      body: JSON.stringify({ jsonrpc: '2.0', id: 3 }),
      status: 400,
      code: 'invalid_request',
      detail: 'The body (root) is not a message the MCP server reads (Parse error: Invalid JSON-RPC message).',
      errors: [
        { in: 'body', pointer: '', message: 'is not a message the MCP server reads (Parse error: Invalid JSON-RPC message)' },
      ],
    }),
    message({
      name: 'mcp: a protocol version the server does not speak',
      headers: { ...json, 'MCP-Protocol-Version': '2024-01-01' },
      body: JSON.stringify(ping(2)),
      status: 400,
      code: 'invalid_request',
      detail: `The header parameter "MCP-Protocol-Version" is not a protocol version this server speaks (${versions}).`,
      errors: [
        {
          in: 'header',
          name: 'MCP-Protocol-Version',
          message: `is not a protocol version this server speaks (${versions})`,
        },
      ],
    }),
    message({
      name: 'mcp: a protocol version that is not a date',
      headers: { ...json, 'MCP-Protocol-Version': 'latest' },
      body: JSON.stringify(ping(2)),
      status: 400,
      code: 'invalid_request',
      detail: `The header parameter "MCP-Protocol-Version" must match pattern "${datePattern}".`,
      errors: [{ in: 'header', name: 'MCP-Protocol-Version', message: `must match pattern "${datePattern}"` }],
    }),
    message({
      name: 'mcp: over 64 KiB',
      headers: json,
      body: oversized,
      status: 413,
      code: 'payload_too_large',
      detail: `The body is ${oversized.length} bytes; this function accepts at most 65536.`,
    }),
    // The server opens no event stream and holds no session (docs/mcp.md).
    ...['GET', 'DELETE'].map((method): Row => ({
      name: `${method} /api/mcp`,
      method,
      path: '/api/mcp',
      status: 405,
      code: 'method_not_allowed',
      detail: `${method} is not allowed on /api/mcp; use POST, OPTIONS.`,
      allow: 'POST, OPTIONS',
    })),
  ];
}

function chatRows(): Row[] {
  /** A question about the report of `date`: found, and refused, as `GET /api/report/{date}` finds and refuses it. */
  const askAbout = (date: string, rest: Omit<Row, 'name' | 'path' | 'method' | 'body' | 'headers'>): Row => ({
    name: `chat: the report of ${date}`,
    method: 'POST',
    path: '/api/chat',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ message: 'What is failing?', date }),
    ...rest,
  });
  return [
    askAbout('2999-01-01', {
      status: 404,
      code: 'report_not_found',
      detail: `2999-01-01 is in the future; today is ${new Date().toISOString().slice(0, 10)} (UTC).`,
    }),
    askAbout('2001-01-01', {
      status: 404,
      code: 'report_not_found',
      detail: 'There is no report for 2001-01-01. GET /api/report lists the days that have one.',
    }),
    askAbout('2026-02-30', {
      status: 400,
      code: 'invalid_request',
      detail: 'The body /date is not a calendar date (YYYY-MM-DD).',
      errors: [{ in: 'body', pointer: '/date', message: 'is not a calendar date (YYYY-MM-DD)' }],
    }),
    askAbout('yesterday', {
      status: 400,
      code: 'invalid_request',
      detail: 'The body /date must match pattern "^\\d{4}-\\d{2}-\\d{2}$".',
      errors: [{ in: 'body', pointer: '/date', message: 'must match pattern "^\\d{4}-\\d{2}-\\d{2}$"' }],
    }),
    {
      name: 'chat: invalid JSON',
      method: 'POST',
      path: '/api/chat',
      headers: { 'Content-Type': 'application/json' },
      body: '{"message": "why',
      status: 400,
      code: 'malformed_json',
      detail: `The body is not valid JSON: ${parseError('{"message": "why')}.`,
    },
    {
      name: 'chat: not JSON',
      method: 'POST',
      path: '/api/chat',
      headers: { 'Content-Type': 'text/plain' },
      body: 'what is failing?',
      status: 415,
      code: 'unsupported_media_type',
      detail: 'The body is "text/plain"; send application/json.',
    },
    {
      name: 'chat: no body',
      method: 'POST',
      path: '/api/chat',
      status: 400,
      code: 'invalid_request',
      detail: 'The body (root) is required.',
      errors: [{ in: 'body', pointer: '', message: 'is required' }],
    },
    {
      name: 'GET /api/chat',
      path: '/api/chat',
      status: 405,
      code: 'method_not_allowed',
      detail: 'GET is not allowed on /api/chat; use POST, OPTIONS.',
      allow: 'POST, OPTIONS',
    },
  ];
}
