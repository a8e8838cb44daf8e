/**
 * The request flow (docs/authentication.md § The request flow) as the web app runs it: bearer
 * header only when the server requires one, and a 401 answered by a config re-check and a token
 * refresh, then by asking to sign in again only if it persists. Also the build-time identity settings.
 */
import { describe, expect, it } from 'vitest';
import { authorisedFetch, type AuthorisedFetchDeps } from '../../../hosting/src/lib/authorised-fetch.ts';
import { identitySettings } from '../../../hosting/src/lib/identity-settings.ts';

interface Call {
  url: string;
  authorization: string | null;
}

/** A server stand-in answering each call with the next status, recording what it was sent. */
function harness(statuses: number[], options: { authRequired?: boolean; recheck?: boolean } = {}) {
  const calls: Call[] = [];
  const events: string[] = [];
  let required = options.authRequired ?? true;
  const deps: AuthorisedFetchDeps = {
    fetch: async (input, init) => {
      calls.push({ url: String(input), authorization: new Headers(init?.headers).get('Authorization') });
      return new Response('{}', { status: statuses.shift() ?? 200 });
    },
    authRequired: () => required,
    recheckConfig: async () => {
      events.push('recheck');
      required = options.recheck ?? required;
      return required;
    },
    token: async (forceRefresh) => {
      events.push(forceRefresh ? 'refresh' : 'token');
      return forceRefresh ? 'fresh-token' : 'cached-token';
    },
    signInAgain: () => events.push('sign-in-again'),
  };
  return { api: authorisedFetch(deps), calls, events };
}

describe('authorisedFetch', () => {
  it('sends the bearer header when the server requires one', async () => {
    const { api, calls, events } = harness([200]);
    expect((await api('/api/report/today')).status).toBe(200);
    expect(calls).toEqual([{ url: '/api/report/today', authorization: 'Bearer cached-token' }]);
    expect(events).toEqual(['token']);
  });

  it('sends no token in public mode, even with a session', async () => {
    const { api, calls, events } = harness([200], { authRequired: false });
    await api('/api/report/today', { headers: { Authorization: 'Bearer stale' } });
    expect(calls).toEqual([{ url: '/api/report/today', authorization: null }]);
    expect(events).toEqual([]);
  });

  it('on a 401 re-checks the config, refreshes the token and retries once', async () => {
    const { api, calls, events } = harness([401, 200]);
    expect((await api('/api/controls')).status).toBe(200);
    expect(calls.map((call) => call.authorization)).toEqual(['Bearer cached-token', 'Bearer fresh-token']);
    expect(events).toEqual(['token', 'recheck', 'refresh']);
  });

  it('asks to sign in again only when the 401 persists after the refresh', async () => {
    const { api, calls, events } = harness([401, 401]);
    expect((await api('/api/controls')).status).toBe(401);
    expect(calls).toHaveLength(2);
    expect(events).toEqual(['token', 'recheck', 'refresh', 'sign-in-again']);
  });

  it('retries without a token when the re-check finds the server now public', async () => {
    const { api, calls, events } = harness([401, 200], { recheck: false });
    expect((await api('/api/controls')).status).toBe(200);
    expect(calls.map((call) => call.authorization)).toEqual(['Bearer cached-token', null]);
    expect(events).toEqual(['token', 'recheck']);
  });

  it('sends the token only to this site: never to a full URL or a //host address', async () => {
    const { api, calls } = harness([200, 200, 200]);
    await api('https://elsewhere.example/api/x');
    await api('//elsewhere.example/api/x');
    await api(new URL('https://elsewhere.example/api/x'));
    expect(calls.map((call) => call.authorization)).toEqual([null, null, null]);
  });

  it('keeps the last known mode when the config re-check fails, and still refreshes', async () => {
    const sent: (string | null)[] = [];
    const statuses = [401, 200];
    const api = authorisedFetch({
      fetch: async (_input, init) => {
        sent.push(new Headers(init?.headers).get('Authorization'));
        return new Response('{}', { status: statuses.shift()! });
      },
      authRequired: () => true,
      recheckConfig: () => Promise.reject(new Error('offline')),
      token: async (forceRefresh) => (forceRefresh ? 'fresh-token' : 'cached-token'),
      signInAgain: () => sent.push('sign-in-again'),
    });
    expect((await api('/api/controls')).status).toBe(200);
    expect(sent).toEqual(['Bearer cached-token', 'Bearer fresh-token']);
  });

  it('keeps the method, body and other headers on the retry', async () => {
    const seen: RequestInit[] = [];
    const statuses = [401, 202];
    const api = authorisedFetch({
      fetch: async (_input, init) => {
        seen.push(init!);
        return new Response(null, { status: statuses.shift()! });
      },
      authRequired: () => true,
      recheckConfig: async () => true,
      token: async (force) => (force ? 'b' : 'a'),
      signInAgain: () => undefined,
    });
    await api('/api/analyses', { method: 'POST', body: '{"publish":false}', headers: { 'Idempotency-Key': 'k-123456' } });
    expect(seen.map((init) => [init.method, init.body, new Headers(init.headers).get('Idempotency-Key')])).toEqual([
      ['POST', '{"publish":false}', 'k-123456'],
      ['POST', '{"publish":false}', 'k-123456'],
    ]);
  });
});

describe('identitySettings', () => {
  it('needs all three build-time values and names the missing ones', () => {
    expect(identitySettings({ IDP_API_KEY: 'k', IDP_AUTH_DOMAIN: ' ' })).toEqual({
      ok: false,
      missing: ['IDP_AUTH_DOMAIN', 'IDP_PROJECT_ID'],
    });
  });

  it('signs in on the local auth emulator for a demo- project only', () => {
    const demo = identitySettings({ IDP_API_KEY: 'k', IDP_AUTH_DOMAIN: 'd', IDP_PROJECT_ID: 'demo-evident-protected' });
    const real = identitySettings({ IDP_API_KEY: 'k', IDP_AUTH_DOMAIN: 'acme.firebaseapp.com', IDP_PROJECT_ID: 'acme-evident' });
    expect(demo).toEqual({
      ok: true,
      settings: { apiKey: 'k', authDomain: 'd', projectId: 'demo-evident-protected', emulator: 'http://127.0.0.1:9099' },
    });
    expect(real).toEqual({
      ok: true,
      settings: { apiKey: 'k', authDomain: 'acme.firebaseapp.com', projectId: 'acme-evident', emulator: undefined },
    });
  });
});
