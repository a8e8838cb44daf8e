/**
 * The upload's request flow, with a fake network: the bearer header in protected mode, and on a
 * 401 a re-check, one retry with a refreshed token, then "sign in again" if the 401 persists.
 */
import { describe, expect, it } from 'vitest';
import {
  headersOf,
  uploadForm,
  type ProgressFetch,
  type UploadDeps,
  type UploadProgress,
} from '../../../hosting/src/lib/upload.ts';

interface Sent {
  url: string;
  method: string | undefined;
  authorization: string | null;
  accept: string | null;
  body: unknown;
}

/** A network that answers the given statuses in turn, recording what it was sent and reporting progress. */
function network(statuses: number[]) {
  const sent: Sent[] = [];
  const send: ProgressFetch = async (input, init, onProgress) => {
    const headers = new Headers(init?.headers);
    sent.push({
      url: String(input),
      method: init?.method,
      authorization: headers.get('Authorization'),
      accept: headers.get('Accept'),
      body: init?.body,
    });
    onProgress({ loaded: 5, total: 10 });
    onProgress({ loaded: 10, total: 10 });
    const status = statuses[sent.length - 1] ?? 500;
    return new Response(JSON.stringify({ status }), { status, headers: { 'Content-Type': 'application/json' } });
  };
  return { sent, send };
}

function flow(options: { required: boolean; requiredAfterRecheck?: boolean }) {
  const calls: string[] = [];
  const deps: UploadDeps = {
    authRequired: () => options.required,
    recheckConfig: async () => {
      calls.push('recheck');
      return options.requiredAfterRecheck ?? options.required;
    },
    token: async (forceRefresh) => {
      calls.push(`token(${forceRefresh})`);
      return forceRefresh ? 'fresh-token' : 'cached-token';
    },
    signInAgain: () => calls.push('signInAgain'),
  };
  return { calls, deps };
}

const form = () => {
  const body = new FormData();
  body.append('statement', 'x');
  return body;
};

describe('uploadForm', () => {
  it('in public mode posts the form once, without a token, and reports progress', async () => {
    const { sent, send } = network([201]);
    const { calls, deps } = flow({ required: false });
    const progress: UploadProgress[] = [];
    const body = form();
    const response = await uploadForm('/api/submissions', body, { onProgress: (p) => progress.push(p) }, deps, send);
    expect(response.status).toBe(201);
    expect(sent).toEqual([{ url: '/api/submissions', method: 'POST', authorization: null, accept: 'application/json', body }]);
    expect(calls).toEqual([]);
    expect(progress).toEqual([
      { loaded: 5, total: 10 },
      { loaded: 10, total: 10 },
    ]);
  });

  it('in protected mode sends the bearer token', async () => {
    const { sent, send } = network([201]);
    const { calls, deps } = flow({ required: true });
    expect((await uploadForm('/api/submissions', form(), {}, deps, send)).status).toBe(201);
    expect(sent.map((request) => request.authorization)).toEqual(['Bearer cached-token']);
    expect(calls).toEqual(['token(false)']);
  });

  it('on a 401 re-checks the mode and sends the same form again once, with a refreshed token', async () => {
    const { sent, send } = network([401, 201]);
    const { calls, deps } = flow({ required: true });
    const body = form();
    const response = await uploadForm('/api/submissions', body, {}, deps, send);
    expect(response.status).toBe(201);
    expect(sent.map((request) => [request.authorization, request.body === body])).toEqual([
      ['Bearer cached-token', true],
      ['Bearer fresh-token', true],
    ]);
    expect(calls).toEqual(['token(false)', 'recheck', 'token(true)']);
  });

  it('asks to sign in again when the 401 persists, and hands back the second answer', async () => {
    const { sent, send } = network([401, 401]);
    const { calls, deps } = flow({ required: true });
    const response = await uploadForm('/api/submissions', form(), {}, deps, send);
    expect(response.status).toBe(401);
    expect(sent).toHaveLength(2);
    expect(calls).toEqual(['token(false)', 'recheck', 'token(true)', 'signInAgain']);
  });

  it('retries without a token when the re-check finds the server public now', async () => {
    const { sent, send } = network([401, 201]);
    const deps: UploadDeps = { ...flow({ required: true }).deps };
    let required = true;
    deps.authRequired = () => required;
    deps.recheckConfig = async () => (required = false);
    expect((await uploadForm('/api/submissions', form(), {}, deps, send)).status).toBe(201);
    expect(sent.map((request) => request.authorization)).toEqual(['Bearer cached-token', null]);
  });

  it('does not retry other failures', async () => {
    const { sent, send } = network([400]);
    const { calls, deps } = flow({ required: true });
    expect((await uploadForm('/api/submissions', form(), {}, deps, send)).status).toBe(400);
    expect(sent).toHaveLength(1);
    expect(calls).toEqual(['token(false)']);
  });
});

describe('headersOf', () => {
  it('reads the text of getAllResponseHeaders', () => {
    const headers = headersOf('content-type: application/problem+json\r\nx-request-id: r-1\r\nlocation: /a:b\r\n');
    const entries: [string, string][] = [];
    headers.forEach((value, name) => entries.push([name, value]));
    expect(entries).toEqual([
      ['content-type', 'application/problem+json'],
      ['location', '/a:b'],
      ['x-request-id', 'r-1'],
    ]);
  });
});
