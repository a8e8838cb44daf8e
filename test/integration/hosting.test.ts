/**
 * What Firebase Hosting (the emulator, configured by firebase.json) does around the API:
 * which paths reach which function, the web app's fallback, static files, security and cache
 * headers, and the functions' direct URLs with their CORS.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDocument } from '../../openapi/document.ts';
import { emulatorConfigFile } from '../../scripts/lib/emulators.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { expectedProblem } from '../support/problems.ts';
import { functionUrl, hosting } from '../support/emulator.ts';

// The emulators serve firebase.json with the Authentication emulator allowed to connect.
const firebase = JSON.parse(readFileSync(join(paths.root, emulatorConfigFile), 'utf8')) as {
  hosting: { headers: { source?: string; headers: { key: string; value: string }[] }[] };
};
const csp = firebase.hosting.headers[0]!.headers.find((header) => header.key === 'Content-Security-Policy')!.value;
const indexHtml = readFileSync(join(paths.hostingDist, 'index.html'), 'utf8');
const apiVersion = buildDocument().info.version;

const securityHeaders = {
  'content-security-policy': csp,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
};

function expectSecurityHeaders(response: Response, where: string): void {
  for (const [name, value] of Object.entries(securityHeaders))
    expect(response.headers.get(name), `${where}: ${name}`).toBe(value);
}

describe('the API through Hosting', () => {
  it.each([
    '/api',
    '/api/',
    '/api/nope',
    '/api/nope/deeper',
    '/api/docs',
    '/api/auth',
    '/api/auth/config/extra',
    '/api/.hidden',
    '/api/docs/..%2F..',
  ])('answers %s with a JSON 404 problem, never the web app', async (path) => {
    const response = await fetch(hosting + path);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('evident-api-version')).toBe(apiVersion);
    const body = (await response.json()) as { instance: string };
    expect(body).toEqual(
      expectedProblem(
        'not_found',
        `No operation exists at ${body.instance}.`,
        body.instance,
        response.headers.get('x-request-id')!,
      ),
    );
  });

  it("keeps each operation's own cache policy and adds the security headers", async () => {
    const config = await fetch(`${hosting}/api/auth/config`);
    expect(config.headers.get('cache-control')).toBe('no-cache');
    const page = await fetch(`${hosting}/api/docs/page/getting-started`);
    expect(page.headers.get('cache-control')).toBe('public, max-age=300');
    expect(page.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
    expectSecurityHeaders(page, 'docs page');
  });

  it('answers a conditional request for an unchanged docs page with 304', async () => {
    const first = await fetch(`${hosting}/api/docs/page/getting-started`);
    const again = await fetch(`${hosting}/api/docs/page/getting-started`, {
      headers: { 'If-None-Match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });
});

describe('the web app', () => {
  it.each(['/', '/controls', '/reports/2026-11-21', '/docs/getting-started', '/apix', '/x.y/z'])(
    'serves its HTML at %s, revalidated on every load',
    async (path) => {
      const response = await fetch(hosting + path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expectSecurityHeaders(response, path);
      expect(await response.text()).toBe(indexHtml);
    },
  );

  it('serves hashed assets as immutable', async () => {
    const asset = readdirSync(join(paths.hostingDist, 'assets')).find((name) => name.endsWith('.js'))!;
    const response = await fetch(`${hosting}/assets/${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing asset with 404, not with the web app', async () => {
    const response = await fetch(`${hosting}/assets/index-00000000.js`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toBe(indexHtml);
  });
});

describe('static API files', () => {
  it('serves /api/openapi.json as the description the build produced', async () => {
    const response = await fetch(`${hosting}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-request-id')).toBeNull(); // a file, not a function
    expect(response.headers.get('evident-api-version')).toBe(apiVersion); // firebase.json says so
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(buildDocument())));
  });

  it('serves the Swagger explorer at /api/swagger with its assets', async () => {
    const response = await fetch(`${hosting}/api/swagger`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectSecurityHeaders(response, '/api/swagger');
    const html = await response.text();
    for (const asset of [
      '/api/swagger-ui/swagger-ui.css',
      '/api/swagger-ui/swagger-ui-bundle.js',
      '/api/swagger-ui/swagger-init.js',
    ]) {
      expect(html).toContain(asset);
      const file = await fetch(hosting + asset);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('cache-control'), asset).toBe('public, max-age=3600');
    }
  });
});

describe('direct function URLs', () => {
  it('serve the same operations as Hosting', async () => {
    const response = await fetch(`${functionUrl('docs')}/api/docs/page/getting-started`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { slug: string }).slug).toBe('getting-started');
    const missing = await fetch(`${functionUrl('auth')}/api/auth/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('not_found');
  });

  it('allow the configured origin (CORS_ORIGINS) and only it', async () => {
    const allowed = await fetch(`${functionUrl('auth')}/api/auth/config`, { headers: { Origin: 'http://localhost:5173' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const other = await fetch(`${functionUrl('auth')}/api/auth/config`, { headers: { Origin: 'https://elsewhere.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("answer a preflight from the configured origin with the path's methods", async () => {
    const response = await fetch(`${functionUrl('auth')}/api/auth/me`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('evident-api-version')).toBe(apiVersion);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,HEAD,OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
  });
});
