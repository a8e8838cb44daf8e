/**
 * The bounds on exceptions through Hosting on the emulators: a control takes at most
 * `maxActiveExceptionsPerSubject` active exceptions for the whole control, the next one answered
 * with the 409 problem, and its exceptions are listed a page at a time with the cursor each page
 * gives. Every exception made here is revoked after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxActiveExceptionsPerSubject } from '../../functions/src/contract.ts';
import type { components } from '../../functions/src/generated/api-types.ts';
import { bearer, hosting, mode, signUp } from '../support/emulator.ts';
import { expectedProblem } from '../support/problems.ts';

type Exception = components['schemas']['Exception'];
type ExceptionList = components['schemas']['ExceptionList'];

const controlId = 'VEN-03';
let auth: Record<string, string> = {};
const made: string[] = [];

beforeAll(async () => {
  if (mode === 'protected') auth = bearer((await signUp()).idToken);
});
afterAll(async () => {
  for (const id of made) await request(`/api/exceptions/${id}/revoke`, {});
});

const request = (path: string, body?: unknown) =>
  fetch(`${hosting}${path}`, {
    headers: { ...auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
  });

describe(`the bounds on exceptions, ${mode} mode`, () => {
  it('refuses one more active exception than a control may have, and lists them a page at a time', async () => {
    const { today } = (await (await request('/api/exceptions')).json()) as ExceptionList;
    const expiresOn = new Date(Date.parse(`${today}T00:00:00Z`) + 40 * 86_400_000).toISOString().slice(0, 10);
    const body = { controlId, justification: `Accepted for the bounds test (${mode}).`, expiresOn };
    for (let n = 0; n < maxActiveExceptionsPerSubject; n++) {
      const answer = await request('/api/exceptions', body);
      expect(answer.status).toBe(201);
      made.push(((await answer.json()) as Exception).id);
    }
    const refused = await request('/api/exceptions', body);
    expect([refused.status, refused.headers.get('content-type')]).toEqual([409, 'application/problem+json']);
    expect(await refused.json()).toEqual(
      expectedProblem(
        'too_many_exceptions',
        `${controlId} already has ${maxActiveExceptionsPerSubject} active exceptions for the whole control, the most it may have; revoke one, or wait until one expires.`,
        '/api/exceptions',
        refused.headers.get('x-request-id')!,
      ),
    );

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const answer = await request(
        `/api/exceptions?control=${controlId}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(answer.status).toBe(200);
      const page = (await answer.json()) as ExceptionList;
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].sort());
  });
});
