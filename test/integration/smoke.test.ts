/**
 * `npm run smoke` against the emulators, as an operator runs it after a deploy: in the mode under
 * test, every check passes, without a token (skipping only what needs one) and with a signed-in
 * user's token; the command's exit status and summary say so.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { describe, expect, it } from 'vitest';
import { runSmoke } from '../../scripts/lib/smoke/checks.ts';
import { operationsOf } from '../../scripts/lib/smoke/operations.ts';
import { api } from '../support/api.ts';
import { hosting, mode, signUp } from '../support/emulator.ts';

const root = join(import.meta.dirname, '..', '..');

/** The checks a site of this description passes, in order, and what is skipped without a token. */
async function expectedChecks(withToken: boolean): Promise<[string, string][]> {
  const description = await api.get<OpenAPIObject>('/api/openapi.json');
  const guarded = operationsOf(description).filter((operation) => operation.access === 'protected');
  const bootstrap = [
    'GET /api/auth/config answers 200 with the mode, without a token',
    'GET /api/openapi.json is an OpenAPI 3.1 description of the version the API announces',
    'GET /api/docs/index lists the docs without a token',
    'the bootstrap endpoints never answer 401, even to a token they cannot verify',
  ].map((name): [string, string] => [name, 'passed']);
  const gatedDocs = 'gated docs pages are listed and served only where they can be read';
  const stream = 'POST /api/chat answers as an event stream with its headers, a retry hint and an end';
  const report = "GET /api/report/today serves today's report to a signed-in user";
  const rest: [string, string][] =
    mode === 'protected'
      ? [
          ...guarded.map((op): [string, string] => [
            `${op.method} ${op.path} answers 401 with a Bearer challenge without a token`,
            'passed',
          ]),
          ['protected mode: the docs index lists no gated page without a token', 'passed'],
          [gatedDocs, withToken ? 'passed' : 'skipped'],
          ['GET /api/swagger serves the API explorer and its assets', 'passed'],
          [stream, withToken ? 'passed' : 'skipped'],
        ]
      : [
          ...guarded
            .filter((op) => op.method === 'GET' && !op.path.includes('{') && !op.parameters.some((p) => p.required))
            .map((op): [string, string] => [
              `public mode: GET ${op.path} answers 200 without a token, and with one it cannot verify`,
              'passed',
            ]),
          [gatedDocs, 'passed'],
          ['GET /api/swagger serves the API explorer and its assets', 'passed'],
          [stream, 'passed'],
        ];
  const signedIn: [string, string][] = withToken
    ? [
        ['GET /api/auth/me knows the signed-in user', 'passed'],
        [report, 'passed'],
      ]
    : [[report, 'skipped']];
  return [...bootstrap, ...rest, ...signedIn];
}

describe(`npm run smoke against the emulators, ${mode} mode`, () => {
  it('passes every check without a token, and skips only the checks that need one', async () => {
    const results = await runSmoke({ origin: hosting });
    expect(results.map((result) => [result.name, result.outcome])).toEqual(await expectedChecks(false));
    expect(results.filter((result) => result.outcome === 'failed')).toEqual([]);
  });

  it("passes every check with a signed-in user's token", async () => {
    const { idToken: token } = (await api.user()) ?? (await signUp());
    const results = await runSmoke({ origin: hosting, token });
    expect(results.filter((result) => result.outcome === 'failed')).toEqual([]);
    expect(results.map((result) => [result.name, result.outcome])).toEqual(await expectedChecks(true));
  });

  it('as a command, prints every check and exits 0', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts', 'smoke.ts'), hosting]);
    const checks = await expectedChecks(false);
    const passed = checks.filter(([, outcome]) => outcome === 'passed').length;
    expect(stdout.split('\n').at(-2)).toBe(`${passed} passed, 0 failed, ${checks.length - passed} skipped`);
  });
});
