/**
 * Requests the functions runtime rejects before any handler runs get problem bodies too.
 * Runs the production runtime itself: functions-framework's Express server, with its body
 * parsers, serving a real family.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import * as functions from '@google-cloud/functions-framework';
import { getTestServer } from '@google-cloud/functions-framework/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { installFrameworkErrorHandler } from '../../../functions/src/http/framework-errors.ts';
import { createAuthFamily } from '../../../functions/src/families/auth.ts';
import { logs } from '../../../functions/src/logs.ts';
import { setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';

let server: Server;
let url: string;

beforeAll(async () => {
  installFrameworkErrorHandler();
  setMode('public');
  functions.http('auth', createAuthFamily({ loadTable: tableOf('auth') }));
  server = getTestServer('auth');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('under functions-framework', () => {
  it("answers malformed JSON with a malformed_json problem, not Express's HTML page", async () => {
    const rejected = vi.spyOn(logs, 'frameworkRejected').mockImplementation(() => undefined);
    const response = await fetch(`${url}/api/auth/config`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"broken":',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toEqual(
      expectedProblem('malformed_json', 'The body is not valid JSON.', '/api/auth/config', response.headers.get('x-request-id')!),
    );
    expect(rejected).toHaveBeenCalledWith(expect.objectContaining({ path: '/api/auth/config' }), 400, 'entity.parse.failed');
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
});
