/**
 * The HTTP core through real requests: routing from path templates, 404/405/OPTIONS/HEAD,
 * validation of every input location with the exact problems, request ids, conditional
 * requests, CORS, and unexpected errors that become a 500 leaking nothing.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkBearerToken } from '../../../functions/src/http/bearer-token.ts';
import { createFamily, type FamilyOptions } from '../../../functions/src/http/create-family.ts';
import { ApiProblem } from '../../../functions/src/http/problem.ts';
import { apiVersion } from '../../../functions/src/generated/api-version.ts';
import { logEntries, logs } from '../../../functions/src/logs.ts';
import { rereadSettings } from '../../../functions/src/config.ts';
import { fakeTokens, fakeVerifier, setMode, setSetting, bearer, tableOf } from '../../support/families.ts';
import { keyEndpointStandIn, newSigningKey, signedIdToken, type KeyEndpoint } from '../../support/google-keys.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';
import { widgetsDocument } from './widgets-spec.ts';

type Handlers = Record<string, (input: Record<string, unknown>, context: Record<string, unknown>) => unknown>;

const seen: { input?: Record<string, unknown>; context?: Record<string, unknown> } = {};
let failWith: unknown;

const handlers: Handlers = {
  createWidget: (input, context) => {
    seen.context = context;
    return { status: 201, body: input.body };
  },
  getWidget: (input, context) => {
    seen.input = input;
    seen.context = context;
    if (failWith) throw failWith;
    return {
      status: 200,
      body: { name: 'w', size: (input.path as { id: number }).id },
      etag: '"v1"',
      cacheControl: 'public, max-age=60',
    };
  },
  listWidgetParts: (input) => {
    seen.input = input;
    return { status: 200, body: { name: 'w', size: 1 } };
  },
  getSecret: (_input, context) => {
    (context.protect as () => void)();
    return { status: 200, body: { name: 'secret', size: 1 } };
  },
};

const verifier = fakeVerifier();
let server: Served;

function widgets(options: FamilyOptions = {}) {
  return createFamily('widgets' as never, handlers as never, {
    loadTable: tableOf('widgets', widgetsDocument()),
    verifyToken: verifier,
    ...options,
  });
}

beforeAll(async () => {
  server = await serve(widgets());
});
afterAll(() => server.close());
beforeEach(() => {
  setMode('public');
  setSetting('CORS_ORIGINS', undefined);
  failWith = undefined;
  verifier.calls = 0;
});
afterEach(() => vi.restoreAllMocks());

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(server.url + path, init);
  const text = await response.text();
  return { response, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

function problemOf(
  result: Awaited<ReturnType<typeof call>>,
  ...args: Parameters<typeof expectedProblem> extends [infer C, infer D, infer I, unknown, ...infer R] ? [C, D, I, ...R] : never
) {
  const [code, detail, instance, extra] = args;
  expect(result.response.headers.get('content-type')).toBe('application/problem+json');
  expect(result.response.headers.get('cache-control')).toBe('no-store');
  const requestId = result.response.headers.get('x-request-id')!;
  expect(result.json).toEqual(expectedProblem(code, detail, instance, requestId, extra));
}

describe('routing', () => {
  it('passes validated, typed path, query and header values to the handler', async () => {
    const result = await call('/api/widgets/7?verbose=true&tag=red&tag=blue', { headers: { 'X-Trace': 'abc' } });
    expect(result.response.status).toBe(200);
    expect(result.json).toEqual({ name: 'w', size: 7 });
    expect(seen.input).toEqual({
      path: { id: 7 },
      query: { verbose: true, tag: ['red', 'blue'] },
      headers: { 'X-Trace': 'abc' },
      body: undefined,
    });
  });

  it('accepts comma-separated values for an array query parameter', async () => {
    await call('/api/widgets/7?tag=red,blue');
    expect(seen.input?.query).toEqual({ tag: ['red', 'blue'] });
  });

  it('gives a query parameter the request leaves out its default, and keeps one it sends', async () => {
    await call('/api/widgets/1/parts');
    expect(seen.input?.query).toEqual({ limit: 20, order: 'newest' });
    await call('/api/widgets/1/parts?limit=5');
    expect(seen.input?.query).toEqual({ limit: 5, order: 'newest' });
    await call('/api/widgets/1/parts?order=oldest&limit=100');
    expect(seen.input?.query).toEqual({ limit: 100, order: 'oldest' });
  });

  it('validates a query parameter it sends against the schema whose default it would otherwise get', async () => {
    const result = await call('/api/widgets/1/parts?limit=0');
    expect(result.response.status).toBe(400);
    expect((result.json?.errors as { name: string }[]).map((error) => error.name)).toEqual(['limit']);
  });

  it('answers 404 not_found for a path no operation has', async () => {
    const result = await call('/api/widgets/7/nope');
    expect(result.response.status).toBe(404);
    problemOf(result, 'not_found', 'No operation exists at /api/widgets/7/nope.', '/api/widgets/7/nope');
  });

  it('answers 405 with Allow for a method the path does not have', async () => {
    const result = await call('/api/widgets/7', { method: 'DELETE' });
    expect(result.response.status).toBe(405);
    expect(result.response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    problemOf(
      result,
      'method_not_allowed',
      'DELETE is not allowed on /api/widgets/{id}; use GET, HEAD, OPTIONS.',
      '/api/widgets/7',
    );
  });

  it('answers OPTIONS with 204 and the allowed methods', async () => {
    const result = await call('/api/widgets', { method: 'OPTIONS' });
    expect(result.response.status).toBe(204);
    expect(result.response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(result.text).toBe('');
  });

  it('answers HEAD like GET without a body', async () => {
    const result = await call('/api/widgets/7', { method: 'HEAD' });
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get('content-type')).toBe('application/json');
    expect(result.response.headers.get('content-length')).toBe(String('{"name":"w","size":7}'.length));
    expect(result.text).toBe('');
  });

  it('gives every response its own request id', async () => {
    const first = await call('/api/widgets/7');
    const second = await call('/api/widgets/7');
    const ids = [first, second].map((result) => result.response.headers.get('x-request-id'));
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('sends one request id and the API version on every kind of answer, with or without CORS headers set before it', async () => {
    setSetting('CORS_ORIGINS', 'https://app.example.com');
    const cors = { Origin: 'https://app.example.com' };
    const answers = {
      ok: await call('/api/widgets/7'),
      notModified: await call('/api/widgets/7', { headers: { 'If-None-Match': '"v1"' } }),
      options: await call('/api/widgets', { method: 'OPTIONS' }),
      problem: await call('/api/widgets/7/nope'),
      crossOrigin: await call('/api/widgets/7', { headers: cors }),
      preflight: await call('/api/widgets', {
        method: 'OPTIONS',
        headers: { ...cors, 'Access-Control-Request-Method': 'POST' },
      }),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([kind, result]) => [kind, result.response.status]));
    expect(statuses).toEqual({ ok: 200, notModified: 304, options: 204, problem: 404, crossOrigin: 200, preflight: 204 });
    for (const result of Object.values(answers)) {
      expect(result.response.headers.get('evident-api-version')).toBe(apiVersion);
      // Sent twice, a header reaches fetch as "a, b", which this would not match.
      expect(result.response.headers.get('x-request-id')).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
    const crossOrigin = answers.crossOrigin.response.headers;
    expect([crossOrigin.get('access-control-allow-origin'), crossOrigin.get('cache-control'), crossOrigin.get('etag')]).toEqual([
      'https://app.example.com',
      'public, max-age=60',
      '"v1"',
    ]);
    expect(answers.notModified.response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('deprecation', () => {
  it('marks every answer of a deprecated operation with Deprecation and Sunset, from its x-deprecation', async () => {
    const answer = await call('/api/widgets/7/secret');
    expect(answer.response.status).toBe(200);
    expect([answer.response.headers.get('deprecation'), answer.response.headers.get('sunset')]).toEqual([
      `@${Date.UTC(2026, 10, 1) / 1000}`,
      'Tue, 01 Jun 2027 00:00:00 GMT',
    ]);
  });

  it('leaves the answers of other operations unmarked', async () => {
    const answer = await call('/api/widgets/7');
    expect([answer.response.headers.get('deprecation'), answer.response.headers.get('sunset')]).toEqual([null, null]);
  });
});

describe('validation', () => {
  it('answers 400 invalid_request for a path parameter of the wrong type', async () => {
    const result = await call('/api/widgets/abc');
    expect(result.response.status).toBe(400);
    problemOf(result, 'invalid_request', 'The path parameter "id" must be integer.', '/api/widgets/abc', {
      errors: [{ in: 'path', name: 'id', message: 'must be integer' }],
    });
  });

  it('answers 400 invalid_request for malformed percent-encoding in a path parameter', async () => {
    const result = await call('/api/widgets/%E0%A4%A');
    problemOf(result, 'invalid_request', 'The path parameter "id" is not valid percent-encoding.', '/api/widgets/%E0%A4%A', {
      errors: [{ in: 'path', name: 'id', message: 'is not valid percent-encoding' }],
    });
  });

  // `__proto__` too: parameters are plain data, never an object's prototype.
  it.each(['colour', '__proto__'])('answers 400 invalid_request for the unknown query parameter %s', async (name) => {
    const result = await call(`/api/widgets/7?${name}=red`);
    problemOf(
      result,
      'invalid_request',
      `The query parameter "${name}" is not a query parameter of this operation.`,
      '/api/widgets/7',
      {
        errors: [{ in: 'query', name, message: 'is not a query parameter of this operation' }],
      },
    );
  });

  it('answers 400 invalid_request for a scalar query parameter given twice', async () => {
    const result = await call('/api/widgets/7?verbose=true&verbose=false');
    problemOf(result, 'invalid_request', 'The query parameter "verbose" must be given once.', '/api/widgets/7', {
      errors: [{ in: 'query', name: 'verbose', message: 'must be given once' }],
    });
  });

  it('lists every mismatch at once', async () => {
    const result = await call('/api/widgets/0?verbose=maybe&tag=green', { headers: { 'X-Trace': 'toolong' } });
    problemOf(
      result,
      'invalid_request',
      '4 parts of the request do not match the API description; see errors.',
      '/api/widgets/0',
      {
        errors: [
          { in: 'path', name: 'id', message: 'must be >= 1' },
          { in: 'query', name: 'verbose', message: 'must be boolean' },
          { in: 'query', name: 'tag', message: 'must be equal to one of the allowed values' },
          { in: 'header', name: 'X-Trace', message: 'must NOT have more than 5 characters' },
        ],
      },
    );
  });
});

describe('request bodies', () => {
  const post = (body: string, contentType = 'application/json') =>
    call('/api/widgets', { method: 'POST', body, headers: { 'Content-Type': contentType } });

  it('passes a valid JSON body to the handler', async () => {
    const result = await post('{"name":"bolt","size":3}');
    expect(result.response.status).toBe(201);
    expect(result.json).toEqual({ name: 'bolt', size: 3 });
  });

  it('answers 400 malformed_json for a body that is not JSON', async () => {
    const result = await post('{"name":');
    expect(result.response.status).toBe(400);
    problemOf(result, 'malformed_json', 'The body is not valid JSON: Unexpected end of JSON input.', '/api/widgets');
  });

  it('answers 400 invalid_request with JSON pointers for a body that breaks the schema', async () => {
    const result = await post('{"name":"","size":"3","extra":1}');
    problemOf(result, 'invalid_request', '3 parts of the request do not match the API description; see errors.', '/api/widgets', {
      errors: [
        { in: 'body', pointer: '/extra', message: 'is not a known property' },
        { in: 'body', pointer: '/name', message: 'must NOT have fewer than 1 characters' },
        { in: 'body', pointer: '/size', message: 'must be integer' },
      ],
    });
  });

  it('answers 400 invalid_request when a required body is missing', async () => {
    const result = await call('/api/widgets', { method: 'POST' });
    problemOf(result, 'invalid_request', 'The body (root) is required.', '/api/widgets', {
      errors: [{ in: 'body', pointer: '', message: 'is required' }],
    });
  });

  it('answers 415 unsupported_media_type for a body that is not JSON by type', async () => {
    const result = await post('name=bolt', 'text/plain');
    expect(result.response.status).toBe(415);
    problemOf(result, 'unsupported_media_type', 'The body is "text/plain"; send application/json.', '/api/widgets');
  });

  it("answers 413 payload_too_large above the operation's limit", async () => {
    const body = JSON.stringify({ name: 'x'.repeat(60), size: 1 });
    const result = await post(body);
    expect(result.response.status).toBe(413);
    problemOf(
      result,
      'payload_too_large',
      `The body is ${body.length} bytes; this operation accepts at most 64.`,
      '/api/widgets',
    );
  });
});

describe('conditional requests', () => {
  it('answers 304 without a body when If-None-Match matches the ETag', async () => {
    const result = await call('/api/widgets/7', { headers: { 'If-None-Match': 'W/"v0", "v1"' } });
    expect(result.response.status).toBe(304);
    expect(result.response.headers.get('etag')).toBe('"v1"');
    expect(result.response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(result.text).toBe('');
  });

  it('answers 200 when If-None-Match does not match', async () => {
    const result = await call('/api/widgets/7', { headers: { 'If-None-Match': '"v0"' } });
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get('etag')).toBe('"v1"');
  });
});

describe('unexpected errors', () => {
  it('answers 500 internal that discloses nothing, and logs the error without the token', async () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl';
    failWith = new Error(`database exploded near Bearer ${token}`);
    const failures = vi.spyOn(logs, 'requestFailed').mockImplementation(() => undefined);
    const result = await call('/api/widgets/7', { headers: bearer(token) });
    expect(result.response.status).toBe(500);
    problemOf(result, 'internal', 'The server failed to answer this request.', '/api/widgets/7');
    expect(result.text).not.toContain('exploded');
    expect(failures).toHaveBeenCalledOnce();
    const [facts, error] = failures.mock.calls[0]!;
    expect(facts).toEqual({
      requestId: result.response.headers.get('x-request-id'),
      method: 'GET',
      path: '/api/widgets/7',
      operationId: 'getWidget',
    });
    expect(error).toBe(failWith);
    const written = JSON.stringify(logEntries.requestFailed(facts, error));
    expect(written).toContain('database exploded near Bearer [redacted]');
    expect(written).not.toContain(token);
  });

  it('answers a thrown ApiProblem with its own status, code and headers', async () => {
    failWith = new ApiProblem('method_not_allowed', 'Not today.', { headers: { Allow: 'GET' } });
    const result = await call('/api/widgets/7');
    expect(result.response.status).toBe(405);
    expect(result.response.headers.get('allow')).toBe('GET');
    problemOf(result, 'method_not_allowed', 'Not today.', '/api/widgets/7');
  });

  it('answers 500 and logs the family as broken when the description has an operation it does not handle', async () => {
    const loadFailures = vi.spyOn(logs, 'familyLoadFailed').mockImplementation(() => undefined);
    const { getSecret: _unhandled, ...partial } = handlers;
    const broken = await serve(
      createFamily('widgets' as never, partial as never, { loadTable: tableOf('widgets', widgetsDocument()) }),
    );
    try {
      const response = await fetch(`${broken.url}/api/widgets/7`);
      expect(response.status).toBe(500);
      expect(((await response.json()) as { code: string }).code).toBe('internal');
      expect(loadFailures).toHaveBeenCalledWith('widgets', new Error('no handler for getSecret'));
    } finally {
      await broken.close();
    }
  });

  it('answers 500 for every request while the route table cannot load, and recovers when it can', async () => {
    let attempts = 0;
    const loadFailures = vi.spyOn(logs, 'familyLoadFailed').mockImplementation(() => undefined);
    const flaky = await serve(
      widgets({
        loadTable: async () => {
          attempts += 1;
          if (attempts === 1) throw new Error('not built');
          return tableOf('widgets', widgetsDocument())();
        },
      }),
    );
    try {
      expect((await fetch(`${flaky.url}/api/widgets/7`)).status).toBe(500);
      expect(loadFailures).toHaveBeenCalledOnce();
      expect((await fetch(`${flaky.url}/api/widgets/7`)).status).toBe(200);
    } finally {
      await flaky.close();
    }
  });
});

describe('access', () => {
  it('never verifies a token on a public operation, whatever the mode', async () => {
    setMode('protected');
    const result = await call('/api/widgets/7', { headers: bearer('garbage') });
    expect(result.response.status).toBe(200);
    expect(verifier.calls).toBe(0);
    expect(seen.context?.caller).toBeUndefined();
  });

  it('in protected mode answers 401 unauthenticated with a Bearer challenge when no token is sent', async () => {
    setMode('protected');
    const result = await call('/api/widgets', {
      method: 'POST',
      body: '{"name":"a","size":1}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(result.response.status).toBe(401);
    expect(result.response.headers.get('www-authenticate')).toBe('Bearer realm="evident"');
    problemOf(
      result,
      'unauthenticated',
      'This operation needs "Authorization: Bearer <Firebase ID token>" in protected mode.',
      '/api/widgets',
    );
  });

  it('in protected mode answers 401 invalid_token for a rejected token, before looking at the body', async () => {
    setMode('protected');
    const result = await call('/api/widgets', {
      method: 'POST',
      body: 'not json',
      headers: { ...bearer(fakeTokens.invalid), 'Content-Type': 'application/json' },
    });
    expect(result.response.status).toBe(401);
    expect(result.response.headers.get('www-authenticate')).toBe(
      'Bearer realm="evident", error="invalid_token", error_description="The token is invalid"',
    );
    problemOf(
      result,
      'invalid_token',
      'The bearer token could not be verified for this project; sign in again to get a valid ID token.',
      '/api/widgets',
    );
  });

  it('in protected mode answers 401 token_expired for an expired token', async () => {
    setMode('protected');
    const result = await call('/api/widgets', { method: 'POST', headers: bearer(fakeTokens.expired) });
    expect(result.response.headers.get('www-authenticate')).toBe(
      'Bearer realm="evident", error="invalid_token", error_description="The token expired"',
    );
    problemOf(result, 'token_expired', 'The ID token has expired; refresh it and retry.', '/api/widgets');
  });

  it('in protected mode lets a valid token through', async () => {
    setMode('protected');
    const result = await call('/api/widgets', {
      method: 'POST',
      body: '{"name":"a","size":1}',
      headers: { ...bearer(fakeTokens.valid), 'Content-Type': 'application/json' },
    });
    expect(result.response.status).toBe(201);
  });

  it('in public mode never answers 401, even for a rejected token', async () => {
    for (const token of [undefined, fakeTokens.invalid, fakeTokens.expired]) {
      const result = await call('/api/widgets', {
        method: 'POST',
        body: '{"name":"a","size":1}',
        headers: { ...(token ? bearer(token) : {}), 'Content-Type': 'application/json' },
      });
      expect(result.response.status).toBe(201);
    }
  });

  it('protect() answers 401 only in protected mode and only without a valid token', async () => {
    setMode('protected');
    expect((await call('/api/widgets/1/secret')).response.status).toBe(401);
    expect((await call('/api/widgets/1/secret', { headers: bearer(fakeTokens.expired) })).json?.code).toBe('token_expired');
    expect((await call('/api/widgets/1/secret', { headers: bearer(fakeTokens.valid) })).response.status).toBe(200);
    setMode('public');
    expect((await call('/api/widgets/1/secret', { headers: bearer(fakeTokens.invalid) })).response.status).toBe(200);
  });
});

describe('access when the token check is the real one', () => {
  const key = newSigningKey();
  let endpoint: KeyEndpoint;
  let real: Served;
  /** Where firebase-admin's key fetches go: the stand-in for Google's key endpoint, or nowhere. */
  let keys: 'stand-in' | 'closed port';
  const signed = () => bearer(signedIdToken('demo-unit', key.privateKey));
  const post = (headers: Record<string, string>) =>
    fetch(`${real.url}/api/widgets`, {
      method: 'POST',
      body: '{"name":"a","size":1}',
      headers: { ...headers, 'Content-Type': 'application/json' },
    });
  const read = async (response: Response) => ({ response, text: '', json: (await response.json()) as Record<string, unknown> });

  beforeAll(async () => {
    vi.stubEnv('FIREBASE_AUTH_EMULATOR_HOST', '');
    endpoint = await keyEndpointStandIn('demo-unit', () => ({ keys: { 'key-1': key.publicKey } }));
    real = await serve(
      widgets({
        verifyToken: async (authorization, project) => checkBearerToken(authorization, project, await endpoint.verifier(keys)),
      }),
    );
  });
  afterAll(async () => {
    await real.close();
    await endpoint.close();
    vi.unstubAllEnvs();
  });
  beforeEach(() => {
    keys = 'stand-in';
    endpoint.fetches = 0;
    delete seen.context;
  });

  it('in protected mode lets a token firebase-admin verifies through, as the caller it names', async () => {
    setMode('protected');
    expect((await post(signed())).status).toBe(201);
    expect(seen.context?.caller).toEqual({
      uid: 'user-1',
      email: 'ada@example.com',
      emailVerified: true,
      signInProvider: 'password',
    });
  });

  it('in protected mode answers 401 unauthenticated with a bare Bearer challenge for "Authorization: Basic …"', async () => {
    setMode('protected');
    const result = await read(await post({ Authorization: 'Basic dXNlcjpwYXNz' }));
    expect(result.response.status).toBe(401);
    expect(result.response.headers.get('www-authenticate')).toBe('Bearer realm="evident"');
    problemOf(
      result,
      'unauthenticated',
      'This operation needs "Authorization: Bearer <Firebase ID token>" in protected mode.',
      '/api/widgets',
    );
    expect(endpoint.fetches).toBe(0);
  });

  it('in protected mode answers 400 invalid_request with an invalid_request challenge for "Bearer " without a token', async () => {
    setMode('protected');
    const result = await read(await post({ Authorization: 'Bearer ' }));
    expect(result.response.status).toBe(400);
    expect(result.response.headers.get('www-authenticate')).toBe('Bearer realm="evident", error="invalid_request"');
    const message = 'is "Bearer" without a token, or with a malformed one';
    problemOf(result, 'invalid_request', `The header parameter "Authorization" ${message}.`, '/api/widgets', {
      errors: [{ in: 'header', name: 'Authorization', message }],
    });
  });

  it("in protected mode answers 503 auth_unavailable with Retry-After, and logs a warning, when firebase-admin cannot reach Google's keys", async () => {
    setMode('protected');
    keys = 'closed port';
    const warnings = vi.spyOn(logs, 'verifierTrouble').mockImplementation(() => undefined);
    const rejections = vi.spyOn(logs, 'tokenRejected').mockImplementation(() => undefined);
    const result = await read(await post(signed()));
    expect(result.response.status).toBe(503);
    expect(result.response.headers.get('retry-after')).toBe('30');
    expect(result.response.headers.get('www-authenticate')).toBeNull();
    problemOf(
      result,
      'auth_unavailable',
      'ID tokens cannot be verified right now; retry in 30 seconds. Signing in again will not help.',
      '/api/widgets',
    );
    expect(rejections).not.toHaveBeenCalled();
    expect(warnings).toHaveBeenCalledOnce();
    const [facts, trouble] = warnings.mock.calls[0]!;
    expect(facts).toEqual({
      requestId: result.response.headers.get('x-request-id'),
      method: 'POST',
      path: '/api/widgets',
      operationId: 'createWidget',
    });
    expect(trouble).toMatchObject({
      code: 'auth/argument-error',
      message: expect.stringMatching(/^Error while making request: /),
    });
    expect(logEntries.verifierTrouble(facts, trouble)).toMatchObject({ severity: 'WARNING', event: 'verifier_trouble' });
  });

  it('in protected mode answers 500 internal, and logs an error, when no identity project is configured', async () => {
    setMode('protected');
    vi.stubEnv('IDP_PROJECT_ID', '');
    vi.stubEnv('GCLOUD_PROJECT', '');
    vi.stubEnv('GOOGLE_CLOUD_PROJECT', '');
    rereadSettings();
    const errors = vi.spyOn(logs, 'verifierMisconfigured').mockImplementation(() => undefined);
    try {
      const result = await read(await post(signed()));
      expect(result.response.status).toBe(500);
      problemOf(result, 'internal', 'The server failed to answer this request.', '/api/widgets');
      expect(errors).toHaveBeenCalledOnce();
      const [facts, trouble] = errors.mock.calls[0]!;
      expect(logEntries.verifierMisconfigured(facts, trouble)).toMatchObject({
        severity: 'ERROR',
        event: 'verifier_misconfigured',
        error: 'Error: No identity project is configured: set IDP_PROJECT_ID or run inside a project.',
      });
    } finally {
      vi.unstubAllEnvs();
      vi.stubEnv('FIREBASE_AUTH_EMULATOR_HOST', '');
      rereadSettings();
    }
  });

  it("in public mode serves a request without a caller while Google's keys are out of reach", async () => {
    keys = 'closed port';
    const warnings = vi.spyOn(logs, 'verifierTrouble').mockImplementation(() => undefined);
    expect((await post(signed())).status).toBe(201);
    expect(seen.context).toBeDefined();
    expect(seen.context?.caller).toBeUndefined();
    expect(warnings).toHaveBeenCalledOnce();
  });
});

describe('CORS for direct function URLs', () => {
  const origin = 'https://app.example.com';

  it('adds no CORS headers when CORS_ORIGINS is empty', async () => {
    const result = await call('/api/widgets/7', { headers: { Origin: origin } });
    expect(result.response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows a listed origin and exposes the headers clients need', async () => {
    setSetting('CORS_ORIGINS', `https://other.example.com, ${origin}`);
    const result = await call('/api/widgets/7', { headers: { Origin: origin } });
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(result.response.headers.get('vary')).toBe('Origin');
    expect(result.response.headers.get('access-control-expose-headers')).toBe(
      'X-Request-Id,Evident-Api-Version,ETag,WWW-Authenticate,Allow,Location,Retry-After,Deprecation,Sunset',
    );
  });

  it('ignores an origin that is not listed', async () => {
    setSetting('CORS_ORIGINS', origin);
    const result = await call('/api/widgets/7', { headers: { Origin: 'https://evil.example.com' } });
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("answers a preflight with the path's methods from the description", async () => {
    setSetting('CORS_ORIGINS', origin);
    const result = await call('/api/widgets', {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(result.response.status).toBe(204);
    expect(result.response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(result.response.headers.get('access-control-allow-methods')).toBe('POST,OPTIONS');
    expect(result.response.headers.get('access-control-allow-headers')).toBe(
      'Authorization,Content-Type,If-None-Match,Idempotency-Key,Last-Event-ID,MCP-Protocol-Version',
    );
    expect(result.response.headers.get('access-control-max-age')).toBe('600');
  });
});
