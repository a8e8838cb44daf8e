/**
 * `/api/requests` through the requests family: a request made (201), read (200) and missed
 * (404); answered with evidence that exists and refused with evidence that does not; accepted
 * and returned only when answered; a step based on an old version refused (409) and two steps at
 * once never losing one; every step in the history with who took it and when; a CSV list
 * imported all or nothing, again without making anything twice, and exported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { createRequestsFamily } from '../../../functions/src/families/requests.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { AuditRequestStore } from '../../../functions/src/requests/request-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import type { ProblemCode } from '@evident/contract/problems';
import { bearer, fakeTokens, fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

type AuditRequest = components['schemas']['AuditRequest'];

const catalog = compileCatalogSources(paths.catalog);
const store = new MemoryStore();
const clock = new Date('2026-11-24T10:00:00Z');
const at = clock.toISOString();
const ada = { uid: 'user-1', email: 'ada@example.com' };
const bo = { uid: 'user-2', email: 'bo@example.com' };
let served: Served;

beforeAll(async () => {
  setMode('protected');
  await new EvidenceStore(store).ingest(
    [{ id: 'ev-review-q1', kind: 'idp.user', source: 'okta', subject: 'ada', collectedAt: '2026-03-31T00:00:00Z', data: {} }],
    { receivedAt: clock },
  );
  served = await serve(
    createRequestsFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => clock,
      timeZone: () => 'Europe/Paris',
      verifyToken: fakeVerifier(),
      loadTable: tableOf('requests'),
    }),
  );
});

afterAll(() => served.close());

const send = (method: string, path: string, body: unknown, token: string = fakeTokens.valid) =>
  fetch(`${served.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...bearer(token) },
    body: JSON.stringify(body),
  });
const get = (path: string) => fetch(`${served.url}${path}`, { headers: bearer(fakeTokens.valid) });
const importCsv = (text: string | Buffer) =>
  fetch(`${served.url}/api/requests/import`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/csv', ...bearer(fakeTokens.valid) },
    body: typeof text === 'string' ? text : new Uint8Array(text),
  });
async function expectProblem(answer: Response, code: ProblemCode, detail: string, instance: string, extra = {}) {
  const problem = expectedProblem(code, detail, instance, answer.headers.get('x-request-id')!, extra);
  expect([answer.status, await answer.json()]).toEqual([problem.status, problem]);
}
const control = catalog.controls[0]!.id;
const period = { from: '2026-01-01', to: '2026-06-30' };
const made = async (id: string) =>
  (await (
    await send('POST', '/api/requests', { id, controlId: control, period, description: 'User access reviews' })
  ).json()) as AuditRequest;

describe('a request of the list', () => {
  it('is made open with its creator (201), read back (200), and missed by an unknown id (404)', async () => {
    const answer = await send('POST', '/api/requests', {
      id: 'PBC-001',
      controlId: control,
      period,
      description: ' User access reviews ',
    });
    const expected = {
      id: 'PBC-001',
      controlId: control,
      period,
      description: 'User access reviews',
      status: 'open',
      answers: [],
      history: [{ action: 'created', by: ada, at }],
      version: 1,
    };
    expect([answer.status, answer.headers.get('location'), await answer.json()]).toEqual([
      201,
      '/api/requests/PBC-001',
      expected,
    ]);
    expect(await (await get('/api/requests/PBC-001')).json()).toEqual(expected);
    await expectProblem(
      await get('/api/requests/PBC-404'),
      'audit_request_not_found',
      'No request of the list has the id "PBC-404".',
      '/api/requests/PBC-404',
    );
  });

  it('refuses an unknown control and a period over a year (400), and an id taken (409)', async () => {
    const answer = await send('POST', '/api/requests', {
      controlId: 'XYZ-01',
      period: { from: '2026-01-01', to: '2027-01-02' },
      description: 'x',
    });
    await expectProblem(
      answer,
      'invalid_request',
      '2 parts of the request do not match the API description; see errors.',
      '/api/requests',
      {
        errors: [
          { in: 'body', pointer: '/controlId', message: 'names no control in the catalog' },
          { in: 'body', pointer: '/period/to', message: 'makes a period longer than 366 days' },
        ],
      },
    );
    await made('PBC-009');
    await expectProblem(
      await send('POST', '/api/requests', { id: 'PBC-009', controlId: control, period, description: 'again' }),
      'audit_request_changed',
      'The request PBC-009 was changed or made by someone else meanwhile; nothing was stored. Read it again and apply the change to its current version.',
      '/api/requests',
    );
  });

  it('is answered with evidence that exists, refused one that does not, and accepted or returned only once answered', async () => {
    await made('PBC-002');
    await expectProblem(
      await send('POST', '/api/requests/PBC-002/accept', { basedOn: 1 }),
      'audit_request_status',
      'The request PBC-002 is open; only an answered request is accepted or returned.',
      '/api/requests/PBC-002/accept',
    );
    await expectProblem(
      await send('POST', '/api/requests/PBC-002/answers', { basedOn: 1, add: [{ kind: 'evidence', ref: 'ev-missing' }] }),
      'invalid_request',
      'The body /add/0/ref names no evidence item ("ev-missing").',
      '/api/requests/PBC-002/answers',
      { errors: [{ in: 'body', pointer: '/add/0/ref', message: 'names no evidence item ("ev-missing")' }] },
    );
    const answered = await send('POST', '/api/requests/PBC-002/answers', {
      basedOn: 1,
      add: [
        { kind: 'evidence', ref: 'ev-review-q1', note: 'Q1 review' },
        { kind: 'sample', ref: 'from=2026-01-01&to=2026-06-30&size=25&seed=fieldwork' },
      ],
    });
    expect(((await answered.json()) as AuditRequest).status).toBe('answered');
    const returned = await send(
      'POST',
      '/api/requests/PBC-002/return',
      { basedOn: 2, comment: 'Q2 is missing' },
      fakeTokens.other,
    );
    expect(await returned.json()).toEqual({
      id: 'PBC-002',
      controlId: control,
      period,
      description: 'User access reviews',
      status: 'returned',
      answers: [
        { kind: 'evidence', ref: 'ev-review-q1', note: 'Q1 review' },
        { kind: 'sample', ref: 'from=2026-01-01&to=2026-06-30&size=25&seed=fieldwork', note: null },
      ],
      history: [
        { action: 'created', by: ada, at },
        { action: 'answered', by: ada, at },
        { action: 'returned', by: bo, at, comment: 'Q2 is missing' },
      ],
      version: 3,
    });
    await send('POST', '/api/requests/PBC-002/answers', {
      basedOn: 3,
      remove: [{ kind: 'sample', ref: 'from=2026-01-01&to=2026-06-30&size=25&seed=fieldwork' }],
    });
    const accepted = (await (
      await send('POST', '/api/requests/PBC-002/accept', { basedOn: 4 }, fakeTokens.other)
    ).json()) as AuditRequest;
    expect([accepted.status, accepted.answers.length, accepted.history.map((step) => step.action)]).toEqual([
      'accepted',
      1,
      ['created', 'answered', 'returned', 'answered', 'accepted'],
    ]);
    await expectProblem(
      await send('POST', '/api/requests/PBC-002/edit', { basedOn: 5, description: 'More' }),
      'audit_request_status',
      'The request PBC-002 is accepted; reopen it before it is edited.',
      '/api/requests/PBC-002/edit',
    );
  });

  it('refuses a return without a real comment (400)', async () => {
    await expectProblem(
      await send('POST', '/api/requests/PBC-002/reopen', { basedOn: 5, comment: '   ' }),
      'invalid_request',
      'The body /comment is blank: say why.',
      '/api/requests/PBC-002/reopen',
      { errors: [{ in: 'body', pointer: '/comment', message: 'is blank: say why' }] },
    );
  });

  it('refuses a step based on an old version (409), and of two steps at once keeps one and refuses the other', async () => {
    await made('PBC-003');
    await send('POST', '/api/requests/PBC-003/edit', { basedOn: 1, description: 'Access reviews, all quarters' });
    await expectProblem(
      await send('POST', '/api/requests/PBC-003/answers', { basedOn: 1, add: [{ kind: 'evidence', ref: 'ev-review-q1' }] }),
      'audit_request_changed',
      'The request PBC-003 was changed or made by someone else meanwhile (it is at version 2); nothing was stored. Read it again and apply the change to its current version.',
      '/api/requests/PBC-003/answers',
    );
    const both = await Promise.all(
      [
        new AuditRequestStore(store).update('PBC-003', 2, (request) => ({ ...request, description: 'one', version: 3 })),
        new AuditRequestStore(store).update('PBC-003', 2, (request) => ({ ...request, description: 'two', version: 3 })),
      ].map((step) =>
        step.then(
          () => 'stored',
          (error: Error) => error.name,
        ),
      ),
    );
    expect(both.sort()).toEqual(['RequestChanged', 'stored']);
    const now = (await (await get('/api/requests/PBC-003')).json()) as AuditRequest;
    expect(['one', 'two']).toContain(now.description);
    expect(now.version).toBe(3);
  });

  it('lists by status and control', async () => {
    const answered = (await (await get('/api/requests?status=accepted')).json()) as { items: AuditRequest[]; limit: number };
    expect([answered.items.map((request) => request.id), answered.limit]).toEqual([['PBC-002'], 500]);
    const none = (await (await get('/api/requests?control=ZZZ-99')).json()) as { items: AuditRequest[] };
    expect(none.items).toEqual([]);
  });
});

describe('a request list in CSV', () => {
  const csv = `id,control,from,to,description\r\nPBC-101,${control},2026-01-01,2026-03-31,Q1 reviews\r\nPBC-102,${control},2026-04-01,2026-06-30,Q2 reviews\r\n`;

  it('is imported all or nothing (201), then again without making anything twice (200)', async () => {
    const first = await importCsv(csv);
    expect([first.status, await first.json()]).toEqual([201, { created: ['PBC-101', 'PBC-102'], unchanged: [] }]);
    const again = await importCsv(csv);
    expect([again.status, await again.json()]).toEqual([200, { created: [], unchanged: ['PBC-101', 'PBC-102'] }]);
  });

  it('is refused whole for one bad row, naming its row, line and column', async () => {
    const answer = await importCsv(
      `control,from,to,description\n${control},2026-01-01,2026-01-31,Fine\nXYZ-01,2026-01-01,2026-01-31,Unknown\n`,
    );
    await expectProblem(
      answer,
      'invalid_request',
      'Row 2 (line 3), column "control": "XYZ-01" names no control in the catalog. Nothing was imported.',
      '/api/requests/import',
      {
        errors: [{ in: 'body', line: 3, pointer: '/control', message: 'row 2: "XYZ-01" names no control in the catalog' }],
      },
    );
    const latin1 = Buffer.concat([
      Buffer.from(`control,from,to,description\n${control},2026-01-01,2026-01-31,acc`),
      Buffer.from([0xe8, 0x73]),
    ]);
    await expectProblem(
      await importCsv(latin1),
      'invalid_request',
      'Line 2 is not UTF-8 text (the file may be saved as Windows-1252 or another encoding): save it as "CSV UTF-8" and import it again. Nothing was imported.',
      '/api/requests/import',
      {
        errors: [
          {
            in: 'body',
            line: 2,
            message:
              'is not UTF-8 text (the file may be saved as Windows-1252 or another encoding): save it as "CSV UTF-8" and import it again',
          },
        ],
      },
    );
    expect((await new AuditRequestStore(store).list()).some((request) => request.description === 'Fine')).toBe(false);
  });

  it('refuses an id of the list given with another control, period or description', async () => {
    await expectProblem(
      await importCsv(`id,control,from,to,description\nPBC-101,${control},2026-01-01,2026-03-31,Changed\n`),
      'invalid_request',
      'Row 1 (line 2), column "id": "PBC-101" is a request of the list with another control, period or description: edit it in Evident, or give this row a new id. Nothing was imported.',
      '/api/requests/import',
      {
        errors: [
          {
            in: 'body',
            line: 2,
            pointer: '/id',
            message:
              'row 1: "PBC-101" is a request of the list with another control, period or description: edit it in Evident, or give this row a new id',
          },
        ],
      },
    );
  });

  it('is exported with its answers and history, named for saving', async () => {
    const answer = await get('/api/requests/export.csv');
    const text = await answer.text();
    expect([answer.status, answer.headers.get('content-type'), answer.headers.get('content-disposition')]).toEqual([
      200,
      'text/csv; charset=utf-8',
      'attachment; filename="requests.csv"',
    ]);
    expect(text.split('\r\n')[0]).toBe('"id","control","from","to","description","status","answers","history"');
    expect(text).toContain(
      `"PBC-101","${control}","2026-01-01","2026-03-31","Q1 reviews","open","","${at} created by ada@example.com"`,
    );
  });
});
