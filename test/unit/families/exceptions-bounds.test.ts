/**
 * The bounds on `/api/exceptions` through the exceptions family: a subject has at most
 * `maxActiveExceptionsPerSubject` requested or active exceptions of a control (409
 * `too_many_exceptions` past it, even for requests racing for the last place, and a place again
 * once one is revoked), and the listing answers a page at a time with the shared cursors, soonest
 * expiry first, for active, requested, refused, ended and all exceptions, refusing a cursor it
 * did not give out.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { maxActiveExceptionsPerSubject } from '@evident/contract';
import { ExceptionStore, type ExceptionRecord, type Review } from '../../../functions/src/exceptions/exception-store.ts';
import { createExceptionsFamily } from '../../../functions/src/families/exceptions.ts';
import { encodeCursor } from '../../../functions/src/families/paging.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import type { ObjectStore } from '../../../functions/src/storage/object-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { serve, type Served } from '../../support/serve.ts';

type ExceptionList = components['schemas']['ExceptionList'];

const catalog = compileCatalogSources(paths.catalog);
const clock = new Date('2026-11-24T10:00:00Z');
const today = '2026-11-24';
const justification = 'Accepted while the vendor ships a fix.';
const opened: Served[] = [];

beforeAll(() => setMode('public'));
afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
});

/** The family over `store`, on loopback; `request(path, body?)` posts when given a body. */
async function familyOver(store: ObjectStore) {
  const served = await serve(
    createExceptionsFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => clock,
      timeZone: () => 'UTC',
      verifyToken: fakeVerifier(),
      loadTable: tableOf('exceptions'),
    }),
  );
  opened.push(served);
  return (path: string, body?: unknown) =>
    fetch(`${served.url}${path}`, {
      ...(body === undefined
        ? {}
        : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
}

const record = (id: string, controlId: string, fields: Partial<ExceptionRecord> = {}): ExceptionRecord => ({
  id,
  controlId,
  subject: null,
  justification,
  expiresOn: `${id.slice(4, 8)}-${id.slice(8, 10)}-${id.slice(10, 12)}`,
  createdAt: '2026-11-01T09:00:00.000Z',
  requestedBy: { uid: 'u-ana' },
  ...fields,
});

const review = (decision: Review['decision'], at: string): Review => ({
  decision,
  at,
  by: { uid: 'u-bo' },
  comment: null,
  independent: true,
  caveat: null,
});

/** Requests an exception on the day it was recorded, and reviews it a minute later. */
async function reviewed(exceptions: ExceptionStore, stored: ExceptionRecord, decision: Review['decision'] = 'approved') {
  await exceptions.create(stored, stored.createdAt.slice(0, 10));
  await exceptions.review(stored, review(decision, stored.createdAt.replace(':00.000Z', ':01.000Z')));
}

describe(`at most ${maxActiveExceptionsPerSubject} requested or active exceptions per control and subject`, () => {
  it('refuses one more for the whole control with 409 too_many_exceptions, and takes it once one is revoked', async () => {
    const request = await familyOver(new MemoryStore());
    const body = { controlId: 'BCK-01', justification, expiresOn: '2027-01-10' };
    const made: string[] = [];
    for (let n = 0; n < maxActiveExceptionsPerSubject; n++) {
      const answer = await request('/api/exceptions', body);
      expect(answer.status).toBe(201);
      made.push(((await answer.json()) as { id: string }).id);
    }
    // Another control, and the same control for a subject, are counted apart.
    expect((await request('/api/exceptions', { ...body, controlId: 'BCK-02' })).status).toBe(201);

    const refused = await request('/api/exceptions', body);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toEqual(
      expectedProblem(
        'too_many_exceptions',
        'BCK-01 already has 3 exceptions requested or active for the whole control, the most it may have; ' +
          'revoke one (a request too), or wait until one is refused or expires.',
        '/api/exceptions',
        refused.headers.get('x-request-id')!,
      ),
    );
    // Nothing of the refused one was kept: the control still lists three.
    const listed = (await (await request('/api/exceptions?control=BCK-01&state=requested')).json()) as ExceptionList;
    expect(listed.items.map((item) => item.id)).toEqual([...made].sort());

    expect((await request(`/api/exceptions/${made[0]}/revoke`, {})).status).toBe(200);
    expect((await request('/api/exceptions', body)).status).toBe(201);
  });

  it('records exactly as many as fit when six requests race for them, and refuses the others', async () => {
    const store = new RecordingStore(new MemoryStore());
    const request = await familyOver(store);
    // Every request reads the control's index before any writes it: all six count the same nothing.
    let waiting = 6;
    let release!: () => void;
    const allRead = new Promise<void>((resolve) => (release = resolve));
    store.before = async (call) => {
      if (call.op !== 'read' || call.name !== 'exception-index/BCK-03.json' || waiting === 0) return;
      if (--waiting === 0) release();
      await allRead;
    };
    const body = { controlId: 'BCK-03', justification, expiresOn: '2027-01-10' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => request('/api/exceptions', body)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    const listed = (await (await request('/api/exceptions?control=BCK-03&state=requested')).json()) as ExceptionList;
    expect(listed.items).toHaveLength(maxActiveExceptionsPerSubject);
    // The refused ones' records were taken back: a listing of all of them shows the three.
    const all = (await (await request('/api/exceptions?state=all')).json()) as ExceptionList;
    expect(all.items.map((item) => item.id)).toEqual(listed.items.map((item) => item.id));
  });
});

describe('GET /api/exceptions a page at a time', () => {
  /** Seven exceptions over five controls: two active, one revoked, two expired, one requested, one refused. */
  async function history() {
    const store = new MemoryStore();
    const exceptions = new ExceptionStore(store);
    await reviewed(exceptions, record('exc-20261001-000000000a', 'IAM-01', { createdAt: '2026-09-01T00:00:00.000Z' }));
    await reviewed(exceptions, record('exc-20261120-000000000b', 'BCK-01', { createdAt: '2026-09-01T00:00:00.000Z' }));
    await reviewed(exceptions, record('exc-20261201-000000000c', 'IAM-01'));
    await reviewed(exceptions, record('exc-20270101-000000000d', 'BCK-02'));
    await exceptions.create(record('exc-20270201-000000000f', 'IAM-02'), '2026-11-01');
    await reviewed(exceptions, record('exc-20270301-0000000009', 'IAM-03'), 'refused');
    const revoked = record('exc-20261215-000000000e', 'BCK-01');
    await reviewed(exceptions, revoked);
    await exceptions.revoke(revoked, { at: '2026-11-10T00:00:00.000Z', by: { uid: 'u-ana' }, reason: null });
    return familyOver(store);
  }

  /** Every page of `query`, one exception a page. */
  async function walk(request: (path: string) => Promise<Response>, query: string) {
    const pages: ExceptionList[] = [];
    let cursor: string | undefined;
    do {
      const answer = await request(`/api/exceptions?limit=1${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(answer.status).toBe(200);
      const page = (await answer.json()) as ExceptionList;
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor);
    return {
      ids: pages.flatMap((page) => page.items.map((item) => `${item.id.slice(-1)}:${item.state}`)),
      hasMore: pages.map((page) => page.hasMore),
    };
  }

  it.each([
    ['active ones', '', ['c:active', 'd:active']],
    ['requested ones', '&state=requested', ['f:requested']],
    ['refused ones', '&state=refused', ['9:refused']],
    ['ended ones: expired, then revoked ones yet to expire', '&state=ended', ['a:expired', 'b:expired', 'e:revoked']],
    ['every one', '&state=all', ['a:expired', 'b:expired', 'c:active', 'e:revoked', 'd:active', 'f:requested', '9:refused']],
    ['ended ones of a control', '&state=ended&control=BCK-01', ['b:expired', 'e:revoked']],
    [
      'those of every state expiring within 30 days',
      '&state=all&expiringWithin=30',
      ['a:expired', 'b:expired', 'c:active', 'e:revoked'],
    ],
  ])('walks %s soonest expiry first, each once, the last page without a cursor', async (_what, query, expected) => {
    const request = await history();
    const { ids, hasMore } = await walk(request, query);
    expect(ids).toEqual(expected);
    expect(hasMore).toEqual(expected.map((_, index) => index < expected.length - 1));
  });

  it('answers the default page with today and nothing more to follow', async () => {
    const request = await history();
    const page = (await (await request('/api/exceptions')).json()) as ExceptionList;
    expect(Object.keys(page)).toEqual(['today', 'items', 'hasMore']);
    expect([page.today, page.hasMore, page.items.map((item) => item.id)]).toEqual([
      today,
      false,
      ['exc-20261201-000000000c', 'exc-20270101-000000000d'],
    ]);
  });

  it.each([
    ['text', 'not-a-cursor'],
    ['a cursor of /api/evidence', encodeCursor('evidence', '000000000000000-page-1')],
    ['a cursor whose place is not an exception id', encodeCursor('exceptions', '../../reports')],
  ])('refuses %s as the cursor with a 400 problem', async (_what, cursor) => {
    const request = await history();
    const answer = await request(`/api/exceptions?cursor=${encodeURIComponent(cursor)}`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'invalid_request',
        'The query parameter "cursor" is not a cursor this API gave out.',
        '/api/exceptions',
        answer.headers.get('x-request-id')!,
        { errors: [{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }] },
      ),
    );
  });

  it('refuses a page larger than 200 with a 400 problem naming limit', async () => {
    const request = await history();
    const answer = await request('/api/exceptions?limit=201');
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { errors: unknown[] }).errors).toEqual([
      { in: 'query', name: 'limit', message: 'must be <= 200' },
    ]);
  });
});
