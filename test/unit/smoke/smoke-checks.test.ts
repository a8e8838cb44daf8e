/**
 * The smoke test against sites deployed wrong, each a scripted origin that serves the real
 * description: it fails exactly the checks a misconfiguration breaks, names what it saw, and
 * goes on to the rest.
 */
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runSmoke } from '../../../scripts/lib/smoke/checks.ts';
import { operationsOf } from '../../../scripts/lib/smoke/operations.ts';
import { specDocument } from '../../support/families.ts';
import { startScriptedOrigin, type ScriptedOrigin, type SeenRequest } from '../../support/scripted-origin.ts';

const version = specDocument().info.version;
const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res
    .writeHead(status, { 'Content-Type': 'application/json', 'Evident-Api-Version': version, ...headers })
    .end(JSON.stringify(body));

/** A protected site that answers the bootstrap endpoints well; `protectedAnswer` decides the rest. */
function protectedSite(protectedAnswer: (request: SeenRequest, res: http.ServerResponse) => void) {
  return (request: SeenRequest, res: http.ServerResponse) => {
    const path = request.path.split('?')[0]!;
    if (path === '/api/auth/config') return json(res, 200, { authRequired: true });
    if (path === '/api/openapi.json') return json(res, 200, specDocument());
    if (path === '/api/docs/index') return json(res, 200, { pages: [{ slug: 'getting-started', gated: false }] });
    if (path === '/api/docs/page/getting-started') return json(res, 200, { slug: 'getting-started' });
    if (path === '/api/swagger')
      return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<script src="/api/swagger-ui/a.js"></script>');
    if (path === '/api/swagger-ui/a.js') return res.writeHead(200).end('');
    return protectedAnswer(request, res);
  };
}

const challenge = (res: http.ServerResponse) =>
  res
    .writeHead(401, { 'Content-Type': 'application/problem+json', 'WWW-Authenticate': 'Bearer realm="evident"' })
    .end('{"code":"unauthenticated"}');

let origin: ScriptedOrigin | undefined;
afterEach(async () => origin?.close());

async function smoke(script: Parameters<typeof startScriptedOrigin>[0]) {
  origin = await startScriptedOrigin(script);
  return runSmoke({ origin: origin.origin });
}

describe('npm run smoke against a site deployed wrong', () => {
  it('passes a protected site that challenges every protected call, and sends writes only without a token and with an empty body', async () => {
    const results = await smoke(protectedSite((_, res) => challenge(res)));
    expect(results.filter((result) => result.outcome === 'failed')).toEqual([]);
    const writes = origin!.requests.filter((request) => request.method !== 'GET');
    const guardedWrites = operationsOf(specDocument()).filter((op) => op.access === 'protected' && op.method !== 'GET');
    expect(writes.map((request) => request.method)).toEqual(guardedWrites.map((op) => op.method));
    expect(writes.map((request) => request.body)).toEqual(writes.map(() => ''));
  });

  it('fails the check of an operation that answers without a token, and of a 401 without a Bearer challenge, naming each', async () => {
    const results = await smoke(
      protectedSite((request, res) => {
        if (request.path === '/api/report/today') return json(res, 200, { date: '2026-11-27' });
        if (request.path === '/api/chat') return res.writeHead(401, { 'Content-Type': 'application/problem+json' }).end('{}');
        return challenge(res);
      }),
    );
    expect(results.filter((result) => result.outcome === 'failed')).toEqual([
      {
        name: 'GET /api/report/today answers 401 with a Bearer challenge without a token',
        outcome: 'failed',
        detail: 'GET /api/report/today answered 200, expected 401: {"date":"2026-11-27"}',
      },
      {
        name: 'POST /api/chat answers 401 with a Bearer challenge without a token',
        outcome: 'failed',
        detail: 'WWW-Authenticate is "", not a Bearer challenge',
      },
    ]);
  });

  it('stops after the bootstrap checks when the site answers 401 to its auth config, and says so', async () => {
    const results = await smoke((request, res) =>
      request.path === '/api/auth/config' ? challenge(res) : protectedSite((_, r) => challenge(r))(request, res),
    );
    expect(results.map((result) => [result.name, result.outcome])).toEqual([
      ['GET /api/auth/config answers 200 with the mode, without a token', 'failed'],
      ['GET /api/openapi.json is an OpenAPI 3.1 description of the version the API announces', 'failed'],
      ['GET /api/docs/index lists the docs without a token', 'passed'],
    ]);
    expect(results[0]!.detail).toBe('GET /api/auth/config answered 401, expected 200: {"code":"unauthenticated"}');
  });
});
