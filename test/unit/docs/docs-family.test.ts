/**
 * The docs endpoints through the HTTP core: what the index lists and which pages answer,
 * in each mode and with each kind of token, and slugs that try to leave the docs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DocsLibrary, type DocRecord } from '../../../functions/src/docs/docs-library.ts';
import { createDocsFamily } from '../../../functions/src/families/docs.ts';
import { bearer, fakeTokens, fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

const page = (slug: string, order: number, gated: boolean): DocRecord => ({
  slug,
  title: slug,
  description: `About ${slug}.`,
  section: 'Guides',
  order,
  gated,
  html: `<p>${slug}</p>`,
  markdown: slug,
  headings: [],
  etag: `"etag-${slug}"`,
});
const pages = [page('open', 2, false), page('secret', 1, true), page('another', 3, false)];
const summary = ({ slug, title, description, section, order, gated }: DocRecord) => ({
  slug,
  title,
  description,
  section,
  order,
  gated,
});

let server: Served;
let libraryLoads = 0;
beforeAll(async () => {
  server = await serve(
    createDocsFamily({
      loadTable: tableOf('docs'),
      verifyToken: fakeVerifier(),
      library: async () => {
        libraryLoads += 1;
        return new DocsLibrary({ pages });
      },
    }),
  );
});
afterAll(() => server.close());
beforeEach(() => setMode('public'));

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url + path, { headers });
  const text = await response.text();
  return { response, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
};

describe('GET /api/docs/index', () => {
  it('lists every page, gated ones marked, in order, in public mode', async () => {
    const { response, body } = await get('/api/docs/index');
    expect(response.status).toBe(200);
    expect(body).toEqual({ pages: [summary(pages[1]!), summary(pages[0]!), summary(pages[2]!)] });
  });

  it('lists only the public pages in protected mode without a valid token, never answering 401', async () => {
    setMode('protected');
    for (const headers of [{}, bearer(fakeTokens.invalid), bearer(fakeTokens.expired)]) {
      const { response, body } = await get('/api/docs/index', headers);
      expect(response.status).toBe(200);
      expect(body).toEqual({ pages: [summary(pages[0]!), summary(pages[2]!)] });
    }
  });

  it('lists the gated pages too in protected mode with a valid token', async () => {
    setMode('protected');
    const { body } = await get('/api/docs/index', bearer(fakeTokens.valid));
    expect(body).toEqual({ pages: [summary(pages[1]!), summary(pages[0]!), summary(pages[2]!)] });
  });
});

describe('GET /api/docs/page/{slug}', () => {
  it('answers a public page with its content, a strong ETag and a shared-cache policy', async () => {
    const { response, body } = await get('/api/docs/page/open');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"etag-open"');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const { etag: _etag, ...expected } = pages[0]!;
    expect(body).toEqual(expected);
  });

  it('answers 304 for a page the client already has', async () => {
    const { response } = await get('/api/docs/page/open', { 'If-None-Match': '"etag-open"' });
    expect(response.status).toBe(304);
  });

  it('answers a gated page to anyone in public mode', async () => {
    const { response } = await get('/api/docs/page/secret', bearer(fakeTokens.invalid));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('answers 401 for a gated page in protected mode without a valid token', async () => {
    setMode('protected');
    const { response, body } = await get('/api/docs/page/secret');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="evident"');
    expect(body).toEqual(
      expectedProblem(
        'unauthenticated',
        'This operation needs "Authorization: Bearer <Firebase ID token>" in protected mode.',
        '/api/docs/page/secret',
        response.headers.get('x-request-id')!,
      ),
    );
    expect((await get('/api/docs/page/secret', bearer(fakeTokens.expired))).body?.code).toBe('token_expired');
  });

  it('answers a gated page in protected mode with a valid token, and public pages without one', async () => {
    setMode('protected');
    expect((await get('/api/docs/page/secret', bearer(fakeTokens.valid))).response.status).toBe(200);
    expect((await get('/api/docs/page/open')).response.status).toBe(200);
  });

  it('answers 404 doc_not_found for an unknown slug', async () => {
    const { response, body } = await get('/api/docs/page/nowhere');
    expect(response.status).toBe(404);
    expect(body).toEqual(
      expectedProblem(
        'doc_not_found',
        'No documentation page has the slug "nowhere".',
        '/api/docs/page/nowhere',
        response.headers.get('x-request-id')!,
      ),
    );
  });

  it.each([
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e%2f',
    '..%5C..%5Cwindows',
    '%2Fetc%2Fpasswd',
    'Open',
    'a_b',
    '-a',
    'a--b',
    'x'.repeat(101),
  ])('answers 400 invalid_request for the slug %s without touching the library', async (slug) => {
    const before = libraryLoads;
    const { response, body } = await get(`/api/docs/page/${slug}`);
    expect(response.status).toBe(400);
    expect(body?.code).toBe('invalid_request');
    expect((body?.errors as { in: string; name: string }[]).map((error) => [error.in, error.name])).toEqual([['path', 'slug']]);
    expect(libraryLoads).toBe(before);
  });

  // `%2e%2e` is a dot-segment: URL parsers (fetch included) resolve it before the request leaves.
  it.each(['/api/docs/page/', '/api/docs/page/a/b', '/api/docs/page', '/api/docs/page/%2e%2e'])(
    'answers 404 not_found for %s, which names no page',
    async (path) => {
      const { response, body } = await get(path);
      expect(response.status).toBe(404);
      expect(body?.code).toBe('not_found');
    },
  );
});
