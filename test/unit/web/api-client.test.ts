/**
 * The web app's typed API client over a stand-in network: the path and query the description
 * names, written as the app has always written them; JSON bodies with their headers; a problem
 * answer as an `ApiError`, no answer as an `UnreachableError`; the answer's headers for whoever
 * reads one; and, through the authorised fetch, the bearer header and the retry after a 401.
 */
import { describe, expect, it } from 'vitest';
import { apiPath, createApiClient, dataOf } from '../../../hosting/src/lib/api-client.ts';
import { ApiError, messageOf, unreachable, UnreachableError } from '../../../hosting/src/lib/api.ts';
import { authorisedFetch } from '../../../hosting/src/lib/authorised-fetch.ts';

interface Seen {
  path: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
}

function headersOf(init: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init).forEach((value, name) => (headers[name] = value));
  return headers;
}

/** A network answering each call with the next of `answers`, recording what it was sent. */
function network(...answers: (() => Response)[]) {
  const seen: Seen[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    seen.push({
      path: String(input),
      method: init?.method,
      headers: headersOf(init?.headers),
      body: init?.body,
    });
    const answer = answers.shift();
    if (!answer) throw new TypeError('fetch failed');
    return answer();
  };
  return { seen, api: createApiClient(fetcher, 'http://evident.test') };
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { ...init, headers: { 'Content-Type': 'application/json', ...init.headers } });

describe('the API client', () => {
  it('asks at the path and query the description names, written as URLSearchParams writes them', async () => {
    const { seen, api } = network(() => json({ items: [], hasMore: false, today: '2026-11-24' }));
    const query = { state: 'all', control: 'IAM-01', expiringWithin: undefined, cursor: 'a+b c/=' } as const;
    expect(await dataOf(api.GET('/api/exceptions', { params: { query } }))).toEqual({
      items: [],
      hasMore: false,
      today: '2026-11-24',
    });
    expect(seen).toEqual([
      {
        path: '/api/exceptions?state=all&control=IAM-01&cursor=a%2Bb+c%2F%3D',
        method: 'GET',
        headers: { accept: 'application/json' },
        body: undefined,
      },
    ]);
    expect(apiPath('/api/exceptions', { query })).toBe(seen[0]!.path);
  });

  it('fills in path parameters, and leaves the query out when it has nothing in it', async () => {
    const { seen, api } = network(
      () => json({}),
      () => json({}),
    );
    await api.GET('/api/controls/{id}/history', { params: { path: { id: 'IAM-01' }, query: {} } });
    await api.GET('/api/report/today');
    expect(seen.map((call) => call.path)).toEqual(['/api/controls/IAM-01/history', '/api/report/today']);
    expect(apiPath('/api/webhooks/{id}/deliveries', { path: { id: 'wh-0123456789ab' }, query: { limit: 10 } })).toBe(
      '/api/webhooks/wh-0123456789ab/deliveries?limit=10',
    );
  });

  it('sends a JSON body with its type and the headers the operation takes', async () => {
    const { seen, api } = network(() => json({ id: 'an-20261124061500000-0123abcd' }, { status: 202 }));
    const run = await dataOf(
      api.POST('/api/analyses', {
        body: { publish: false, controls: ['IAM-01'] },
        params: { header: { 'Idempotency-Key': 'k-1' } },
      }),
    );
    expect(run.id).toBe('an-20261124061500000-0123abcd');
    expect(seen).toEqual([
      {
        path: '/api/analyses',
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': 'k-1' },
        body: '{"publish":false,"controls":["IAM-01"]}',
      },
    ]);
  });

  it('throws a problem answer as an ApiError that carries the problem', async () => {
    const problem = { title: 'Not found', status: 404, detail: 'No control has the id ZZZ-99.', code: 'control_not_found' };
    const { api } = network(() => json(problem, { status: 404, headers: { 'Content-Type': 'application/problem+json' } }));
    const error = await api.GET('/api/controls/{id}', { params: { path: { id: 'ZZZ-99' } } }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, problem, message: 'Not found: No control has the id ZZZ-99.' });
    expect(messageOf(error, 'The control could not be loaded.')).toBe(
      'The control could not be loaded. No control has the id ZZZ-99.',
    );
  });

  it('throws any other failed answer as an ApiError without a problem', async () => {
    const { api } = network(
      () => new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
    );
    const error = await api.GET('/api/controls').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, problem: undefined, message: 'The server answered 502.' });
  });

  it('throws an UnreachableError, with what went wrong as its cause, when no answer came', async () => {
    const { api } = network();
    const error = await api.GET('/api/controls').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toBe(unreachable);
    expect((error as Error).cause).toEqual(new TypeError('fetch failed'));
  });

  it("gives the answer's headers to a caller that reads one", async () => {
    const { api } = network(() => json({ authRequired: false }, { headers: { 'Evident-Api-Version': '1.11.0' } }));
    const { data, response } = await api.GET('/api/auth/config');
    expect([data, response.headers.get('Evident-Api-Version')]).toEqual([{ authRequired: false }, '1.11.0']);
  });

  it('calls through the authorised fetch as a path of this site: the bearer header, and the same body again after a 401', async () => {
    const sent: { path: string; authorization: string | null; body: unknown }[] = [];
    const statuses = [401, 201];
    const authorised = authorisedFetch({
      fetch: async (input, init) => {
        sent.push({ path: String(input), authorization: new Headers(init?.headers).get('Authorization'), body: init?.body });
        return json({ id: 'exc-20261124-0123456789' }, { status: statuses.shift()! });
      },
      authRequired: () => true,
      recheckConfig: async () => true,
      token: async (forceRefresh) => (forceRefresh ? 'fresh-token' : 'cached-token'),
      signInAgain: () => undefined,
    });
    const api = createApiClient(authorised, 'http://evident.test');
    const body = { controlId: 'IAM-01', justification: 'Accepted while the vendor ships a fix.', expiresOn: '2026-12-24' };
    expect(await dataOf(api.POST('/api/exceptions', { body }))).toEqual({ id: 'exc-20261124-0123456789' });
    expect(sent).toEqual([
      { path: '/api/exceptions', authorization: 'Bearer cached-token', body: JSON.stringify(body) },
      { path: '/api/exceptions', authorization: 'Bearer fresh-token', body: JSON.stringify(body) },
    ]);
  });
});
