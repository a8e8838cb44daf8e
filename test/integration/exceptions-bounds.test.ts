/**
 * The bounds on exceptions through Hosting on the emulators: a control takes at most
 * `maxActiveExceptionsPerSubject` active exceptions for the whole control, the next one answered
 * with the 409 problem, and its exceptions are listed a page at a time with the cursor each page
 * gives. Every exception made here is revoked after.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { maxActiveExceptionsPerSubject } from '@evident/contract';
import type { components } from '../../functions/src/generated/api-types.ts';
import { api } from '../support/api.ts';
import { mode } from '../support/emulator.ts';
import { expectedProblem } from '../support/problems.ts';

type Exception = components['schemas']['Exception'];
type ExceptionList = components['schemas']['ExceptionList'];

const controlId = 'VEN-03';
const made: string[] = [];

afterAll(async () => {
  for (const id of made) await api.call(`/api/exceptions/${id}/revoke`, { body: {} });
});

describe(`the bounds on exceptions, ${mode} mode`, () => {
  it('refuses one more active exception than a control may have, and lists them a page at a time', async () => {
    const { today } = await api.get<ExceptionList>('/api/exceptions');
    const expiresOn = new Date(Date.parse(`${today}T00:00:00Z`) + 40 * 86_400_000).toISOString().slice(0, 10);
    const body = { controlId, justification: `Accepted for the bounds test (${mode}).`, expiresOn };
    for (let n = 0; n < maxActiveExceptionsPerSubject; n++)
      made.push((await api.post<Exception>('/api/exceptions', body, 201)).id);
    const refused = await api.call('/api/exceptions', { body });
    expect([refused.status, refused.headers.get('content-type')]).toEqual([409, 'application/problem+json']);
    expect(refused.body).toEqual(
      expectedProblem(
        'too_many_exceptions',
        `${controlId} already has ${maxActiveExceptionsPerSubject} exceptions requested or active for the whole control, the ` +
          'most it may have; revoke one (a request too), or wait until one is refused or expires.',
        '/api/exceptions',
        refused.headers.get('x-request-id')!,
      ),
    );

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get<ExceptionList>(
        `/api/exceptions?control=${controlId}&state=requested&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].sort());
  });
});
