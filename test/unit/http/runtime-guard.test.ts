/**
 * Requests the functions runtime rejects before any handler runs get problem bodies too.
 * Runs the production runtime itself: functions-framework's Express server, with its body
 * parsers, serving a real family.
 */
import type { AddressInfo } from 'node:net';
import http, { type Server } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import * as functions from '@google-cloud/functions-framework';
import { getTestServer } from '@google-cloud/functions-framework/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bodyPolicyFor, installRuntimeGuard, type BodyPolicy } from '../../../functions/src/http/runtime-guard.ts';
import { createAuthFamily } from '../../../functions/src/families/auth.ts';
import { logs } from '../../../functions/src/logs.ts';
import { setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';

let server: Server;
let url: string;
/** A function that answers the body it was handed, as it was handed over. */
let echo: Server;
let echoUrl: string;
/** The policy the guard applies; a family's unless a test stands in another function. */
let policy: BodyPolicy = bodyPolicyFor(undefined);

beforeAll(async () => {
  installRuntimeGuard({ bodies: () => policy });
  setMode('public');
  functions.http('auth', createAuthFamily({ loadTable: tableOf('auth') }));
  server = getTestServer('auth');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  functions.http('echo', (req, res) => {
    res.json({ rawBody: (req as { rawBody?: Buffer }).rawBody?.toString('utf8') ?? null, body: req.body });
  });
  echo = getTestServer('echo');
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

describe('under functions-framework', () => {
  it("never parses a body itself: malformed JSON on a GET-only path gets the family's 405, not a runtime error page", async () => {
    const response = await fetch(`${url}/api/auth/config`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"broken":',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toEqual(
      expectedProblem(
        'method_not_allowed',
        'POST is not allowed on /api/auth/config; use GET, HEAD, OPTIONS.',
        '/api/auth/config',
        response.headers.get('x-request-id')!,
      ),
    );
  });

  it('parses the JSON of a function that is not a family itself, answering a malformed body 400 rather than the SDK 500', async () => {
    vi.spyOn(logs, 'frameworkRejected').mockImplementation(() => undefined);
    policy = bodyPolicyFor('analysisWorker');
    try {
      const response = await fetch(`${url}/api/auth/config`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"broken":',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(
        expectedProblem(
          'malformed_json',
          `The body is not valid JSON: ${jsonError('{"broken":')}.`,
          '/api/auth/config',
          response.headers.get('x-request-id')!,
        ),
      );
    } finally {
      policy = bodyPolicyFor(undefined);
    }
  });

  it('answers an unsupported body charset with unsupported_media_type', async () => {
    vi.spyOn(logs, 'frameworkRejected').mockImplementation(() => undefined);
    const response = await fetch(`${url}/api/auth/config`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=klingon' },
      body: '{}',
    });
    expect(response.status).toBe(415);
    expect((await response.json()).code).toBe('unsupported_media_type');
  });

  it('answers a path with malformed percent-encoding with invalid_request, not a 500', async () => {
    vi.spyOn(logs, 'frameworkRejected').mockImplementation(() => undefined);
    const response = await fetch(`${url}/api/auth/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      expectedProblem(
        'invalid_request',
        'The runtime could not read the request.',
        '/api/auth/%E0%A4%A',
        response.headers.get('x-request-id')!,
      ),
    );
  });

  it('still serves well-formed requests through the family', async () => {
    const response = await fetch(`${url}/api/auth/config`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ authRequired: false });
  });

  it('answers a well-formed body on a GET-only path with 405, from the family', async () => {
    const response = await fetch(`${url}/api/auth/config`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(405);
    expect((await response.json()).code).toBe('method_not_allowed');
  });

  describe('bodies, read within the limit before the runtime parses them', () => {
    const { limit } = bodyPolicyFor(undefined);

    it('answers a declared length over the limit with 413 before the body is sent', async () => {
      vi.spyOn(logs, 'frameworkRejected').mockImplementation(() => undefined);
      // The request announces 1 GB and sends nothing: only an answer from the headers can arrive.
      const answer = await rawRequest('/api/auth/config', {
        'Content-Type': 'application/json',
        'Content-Length': String(2 ** 30),
      });
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual(
        expectedProblem(
          'payload_too_large',
          `The body is ${2 ** 30} bytes; this function accepts at most ${limit}.`,
          '/api/auth/config',
          answer.headers['x-request-id'] as string,
        ),
      );
    });

    it('reads a body only as far as its media type may go in the function, whatever the largest body is', async () => {
      vi.spyOn(logs, 'frameworkRejected').mockImplementation(() => undefined);
      policy = {
        limit: 1024 * 1024,
        mediaTypes: ['multipart/form-data', 'application/json'],
        limits: { 'application/json': 64 * 1024 },
      };
      try {
        const answer = await rawRequest('/api/auth/config', {
          'Content-Type': 'application/json',
          'Content-Length': String(512 * 1024),
        });
        expect(answer.status).toBe(413);
        expect((answer.body as { detail: string }).detail).toBe(
          `The body is ${512 * 1024} bytes; this function accepts at most ${64 * 1024}.`,
        );
      } finally {
        policy = bodyPolicyFor(undefined);
      }
    });

    it('answers a chunked body that passes the limit with 413', async () => {
      vi.spyOn(logs, 'frameworkRejected').mockImplementation(() => undefined);
      const answer = await rawRequest('/api/auth/config', { 'Content-Type': 'application/json' }, [
        Buffer.alloc(limit, ' '),
        Buffer.from('{}'),
      ]);
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({
        code: 'payload_too_large',
        detail: `The body is more than ${limit} bytes, the most this function accepts.`,
      });
    });

    it('answers a gzip bomb with 413 once what it inflates to passes the limit', async () => {
      const rejected = vi.spyOn(logs, 'frameworkRejected').mockImplementation(() => undefined);
      const bomb = gzipSync(Buffer.from(`[${'{},'.repeat(1_000_000)}{}]`), { level: 9 });
      expect(bomb.length).toBeLessThan(limit);
      const answer = await rawRequest('/api/auth/config', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, [
        bomb,
      ]);
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({
        code: 'payload_too_large',
        detail: `The body inflates (gzip) to more than ${limit} bytes, the most this function accepts.`,
      });
      expect(rejected).toHaveBeenCalledWith(expect.objectContaining({ path: '/api/auth/config' }), 413, 'body:payload_too_large');
    });

    it('inflates a compressed body within the limit and hands it over read, as bytes and as parsed JSON', async () => {
      const sent = '{"controls":["IAM-01"]}';
      for (const [encoding, compress] of [
        ['gzip', gzipSync],
        ['deflate', deflateSync],
        ['br', brotliCompressSync],
        ['zstd', zstdCompressSync],
      ] as const) {
        const answer = await rawRequest(
          '/',
          { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
          [compress(Buffer.from(sent))],
          echoUrl,
        );
        expect([encoding, answer.status, answer.body]).toEqual([encoding, 200, { rawBody: sent, body: JSON.parse(sent) }]);
      }
    });

    it('answers an unknown content coding with 415 and a body that is not its coding with 400', async () => {
      vi.spyOn(logs, 'frameworkRejected').mockImplementation(() => undefined);
      const unknown = await rawRequest(
        '/api/auth/config',
        { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' },
        [Buffer.from('{}')],
      );
      expect(unknown.status).toBe(415);
      expect(unknown.body).toMatchObject({
        code: 'unsupported_media_type',
        detail:
          'The body\'s Content-Encoding "compress" is not accepted; send it uncompressed or as gzip, x-gzip, deflate, br, zstd.',
      });
      const corrupt = await rawRequest('/api/auth/config', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, [
        Buffer.from('not gzip at all'),
      ]);
      expect(corrupt.status).toBe(400);
      expect(corrupt.body).toMatchObject({ code: 'invalid_request', detail: 'The body is not valid gzip data.' });
    });
  });
});

describe('bodyPolicyFor', () => {
  it("gives a family's function its largest operation body of its media types, and any other function a small body of any type", () => {
    // Uploads are large, a review's JSON small: each type is read only as far as it may go.
    expect(bodyPolicyFor('submissions')).toEqual({
      limit: 5 * 10 * 1024 * 1024 + 1024 * 1024,
      mediaTypes: ['multipart/form-data', 'application/json'],
      limits: { 'multipart/form-data': 5 * 10 * 1024 * 1024 + 1024 * 1024, 'application/json': 8 * 1024 },
    });
    // Scanner output (POST /api/evidence/imports/ocsf) is the evidence function's largest body.
    expect(bodyPolicyFor('evidence')).toEqual({
      limit: 16 * 1024 * 1024,
      mediaTypes: ['application/json', 'application/x-ndjson'],
      limits: { 'application/json': 16 * 1024 * 1024, 'application/x-ndjson': 16 * 1024 * 1024 },
    });
    expect(bodyPolicyFor('analyses')).toEqual({
      limit: 64 * 1024,
      mediaTypes: ['application/json'],
      limits: { 'application/json': 64 * 1024 },
    });
    expect(bodyPolicyFor('auth')).toStrictEqual({ limit: 64 * 1024 });
    expect(bodyPolicyFor('analysisWorker')).toStrictEqual({ limit: 64 * 1024, parsesJson: true });
    expect(bodyPolicyFor('toString')).toStrictEqual({ limit: 64 * 1024, parsesJson: true });
    expect(bodyPolicyFor(undefined)).toStrictEqual({ limit: 64 * 1024 });
  });
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/**
 * A POST written chunk by chunk (chunked unless a Content-Length is given), read to its answer
 * even when the server answers and closes before the body is all sent.
 */
function rawRequest(path: string, headers: Record<string, string>, chunks: Buffer[] = [], base = url): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${path}`, { method: 'POST', headers }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        request.destroy(); // a body announced but never sent would otherwise hold the connection open
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          body: JSON.parse(Buffer.concat(parts).toString('utf8')),
        });
      });
    });
    request.on('error', (error) => (request.writableEnded || headers['Content-Length'] ? undefined : reject(error)));
    for (const chunk of chunks) request.write(chunk);
    if (!headers['Content-Length']) request.end();
    else request.flushHeaders();
  });
}

/** What `JSON.parse` says about `text`, as the problem's detail quotes it. */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}
