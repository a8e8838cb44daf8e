/**
 * `/api/exceptions` through the exceptions family, and what the daily report makes of them:
 * requesting one (with its requester), what is refused (an unknown control or subject, an expiry
 * today, past or over a year ahead), approving and refusing it once by another person (four eyes:
 * one's own request refused in protected mode, an approval in public mode recorded as not
 * independent, two reviews at once answered 409), listing active, requested, refused and
 * soon-expiring ones, revoking once, and a daily report that applies only approved exceptions,
 * accepting the finding before the expiry day and counting it again on that day, in the
 * report's time zone.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { scoreOf } from '../../../functions/src/assessment/report-summary.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { ExceptionStore } from '../../../functions/src/exceptions/exception-store.ts';
import { createExceptionsFamily } from '../../../functions/src/families/exceptions.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { logs } from '../../../functions/src/logs.ts';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { bearer, fakeTokens, fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import type { ProblemCode } from '@evident/contract/problems';
import { caveats } from '../../../functions/src/common/four-eyes.ts';
import type { Review } from '../../../functions/src/exceptions/exception-store.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

type Exception = components['schemas']['Exception'];

const catalog = compileCatalogSources(paths.catalog);
const compiled = compileCatalog(catalog);
const timeZone = 'Europe/Paris';
const store = new MemoryStore();
const clock = new Date('2026-11-24T10:00:00Z');
let served: Served;

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  setMode('public');
  // Today's report without evidence: every control missing, with one finding and no subject.
  await produceDailyReport({ store, catalog: compiled, timeZone, now: clock, trigger: 'test' });
  served = await serve(
    createExceptionsFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => clock,
      timeZone: () => timeZone,
      verifyToken: fakeVerifier(),
      loadTable: tableOf('exceptions'),
    }),
  );
});

afterAll(() => served.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${served.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${served.url}${path}`, { headers });
const accept = (fields: Record<string, unknown>, headers: Record<string, string> = {}) =>
  post(
    '/api/exceptions',
    { controlId: 'IAM-01', justification: 'The tenant is being migrated this quarter.', ...fields },
    headers,
  );
const requested = async (fields: Record<string, unknown>, headers: Record<string, string> = {}) =>
  (await (await accept(fields, headers)).json()) as Exception;
/** Asserts a problem answer: its status and its whole body. */
async function expectProblem(answer: Response, code: ProblemCode, detail: string, instance: string) {
  const problem = expectedProblem(code, detail, instance, answer.headers.get('x-request-id')!);
  expect([answer.status, await answer.json()]).toEqual([problem.status, problem]);
}

/** An approval as the store keeps it, by someone known to be another person at `at`. */
const approvalAt = (at: string): Review => ({
  decision: 'approved',
  at,
  by: { uid: 'u-bo' },
  comment: null,
  independent: true,
  caveat: null,
});

describe('requesting an exception', () => {
  it('answers 201 with the exception, requested, its address and its requester', async () => {
    const answer = await accept({ expiresOn: '2027-03-01' });
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as Exception;
    expect(answer.headers.get('location')).toBe(`/api/exceptions/${body.id}`);
    expect(body).toEqual({
      id: expect.stringMatching(/^exc-20270301-[0-9a-f]{10}$/),
      controlId: 'IAM-01',
      subject: null,
      justification: 'The tenant is being migrated this quarter.',
      expiresOn: '2027-03-01',
      createdAt: clock.toISOString(),
      requestedBy: { uid: 'anonymous' },
      approver: { uid: 'anonymous' },
      state: 'requested',
      review: null,
      revoked: null,
    });
    expect(await (await get(`/api/exceptions/${body.id}`)).json()).toEqual(body);
  });

  it.each([
    [{ controlId: 'ZZZ-99', expiresOn: '2027-01-01' }, '/controlId', 'names no control in the catalog'],
    [
      { subject: 'nobody@example.com', expiresOn: '2027-01-01' },
      '/subject',
      "is not a subject of IAM-01's findings in the report of 2026-11-24",
    ],
    [{ expiresOn: '2026-11-24' }, '/expiresOn', 'must be after today (2026-11-24, Europe/Paris)'],
    [{ expiresOn: '2026-10-01' }, '/expiresOn', 'must be after today (2026-11-24, Europe/Paris)'],
    [{ expiresOn: '2027-11-26' }, '/expiresOn', 'must be at most 366 days ahead (2027-11-25)'],
  ])('refuses %j with a 400 at %s', async (fields, pointer, message) => {
    const answer = await accept(fields);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'invalid_request',
        `The body ${pointer} ${message}.`,
        '/api/exceptions',
        answer.headers.get('x-request-id')!,
        {
          errors: [{ in: 'body', pointer, message }],
        },
      ),
    );
  });

  it('answers 404 for an exception that does not exist', async () => {
    const answer = await get('/api/exceptions/exc-20270101-0000000000');
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { code: string }).code).toBe('exception_not_found');
  });
});

describe('listing and revoking', () => {
  it('lists the active ones soonest first, and those expiring within some days', async () => {
    const soon = await requested({ controlId: 'IAM-02', expiresOn: '2026-12-01' });
    expect((await post(`/api/exceptions/${soon.id}/approve`, {})).status).toBe(200);
    const list = (await (await get('/api/exceptions')).json()) as { today: string; items: Exception[] };
    expect(list.today).toBe('2026-11-24');
    expect(list.items[0]!.id).toBe(soon.id);
    expect(list.items.map((item) => item.expiresOn)).toEqual([...list.items.map((item) => item.expiresOn)].sort());
    const within = (await (await get('/api/exceptions?expiringWithin=30')).json()) as { items: Exception[] };
    expect(within.items.map((item) => item.id)).toEqual([soon.id]);
  });

  it('revokes once, recording who and why, and refuses a second revocation with 409', async () => {
    const created = (await (await accept({ controlId: 'IAM-03', expiresOn: '2027-02-01' })).json()) as Exception;
    const revoked = await post(`/api/exceptions/${created.id}/revoke`, { reason: 'Migration done.' });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({
      ...created,
      state: 'revoked',
      revoked: { at: clock.toISOString(), by: { uid: 'anonymous' }, reason: 'Migration done.' },
    });
    const again = await post(`/api/exceptions/${created.id}/revoke`, {});
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual(
      expectedProblem(
        'exception_revoked',
        `The exception ${created.id} was revoked at ${clock.toISOString()} by anonymous.`,
        `/api/exceptions/${created.id}/revoke`,
        again.headers.get('x-request-id')!,
      ),
    );
    const active = (await (await get('/api/exceptions')).json()) as { items: Exception[] };
    expect(active.items.map((item) => item.id)).not.toContain(created.id);
    const all = (await (await get('/api/exceptions?state=all&control=IAM-03')).json()) as { items: Exception[] };
    expect(all.items.map((item) => [item.id, item.state])).toEqual([[created.id, 'revoked']]);
  });
});

describe('four eyes: approving and refusing a request', () => {
  const ada = bearer(fakeTokens.valid);
  const bo = bearer(fakeTokens.other);

  it('in public mode approves a request, recording the review as not independent and why', async () => {
    const asked = await requested({ controlId: 'IAM-04', expiresOn: '2027-02-01' });
    const approved = await post(`/api/exceptions/${asked.id}/approve`, { comment: ' Agreed with the CISO. ' });
    expect(approved.status).toBe(200);
    const review = {
      decision: 'approved',
      at: clock.toISOString(),
      by: { uid: 'anonymous' },
      comment: 'Agreed with the CISO.',
      independent: false,
      caveat: caveats.publicMode,
    };
    expect(await approved.json()).toEqual({ ...asked, approver: { uid: 'anonymous' }, state: 'active', review });
    const active = (await (await get('/api/exceptions?control=IAM-04')).json()) as { items: Exception[] };
    expect(active.items.map((item) => [item.id, item.state, item.review])).toEqual([[asked.id, 'active', review]]);
  });

  it('lists a request under requested until it is reviewed, and a refused one under refused, with who and why', async () => {
    const asked = await requested({ controlId: 'IAM-05', expiresOn: '2027-02-01' });
    const ids = async (query: string) =>
      ((await (await get(`/api/exceptions?control=IAM-05&${query}`)).json()) as { items: Exception[] }).items.map(
        (item) => item.id,
      );
    expect([await ids('state=requested'), await ids('state=active'), await ids('state=refused')]).toEqual([[asked.id], [], []]);
    const refused = await post(`/api/exceptions/${asked.id}/refuse`, { reason: 'Migrate first.' });
    expect(refused.status).toBe(200);
    expect(await refused.json()).toEqual({
      ...asked,
      state: 'refused',
      review: {
        decision: 'refused',
        at: clock.toISOString(),
        by: { uid: 'anonymous' },
        comment: 'Migrate first.',
        independent: false,
        caveat: caveats.publicMode,
      },
    });
    expect([await ids('state=requested'), await ids('state=active'), await ids('state=refused')]).toEqual([[], [], [asked.id]]);
  });

  it('reviews once: approving a refused request, or one approved already, answers 409 exception_not_pending', async () => {
    const asked = await requested({ controlId: 'IAM-06', expiresOn: '2027-02-01' });
    expect((await post(`/api/exceptions/${asked.id}/refuse`, { reason: 'No.' })).status).toBe(200);
    const path = `/api/exceptions/${asked.id}/approve`;
    await expectProblem(
      await post(path, {}),
      'exception_not_pending',
      `The exception ${asked.id} was refused at ${clock.toISOString()} by anonymous.`,
      path,
    );
  });

  it('of two approvals at once, records one and answers the other 409 exception_not_pending', async () => {
    const asked = await requested({ controlId: 'IAM-07', expiresOn: '2027-02-01' });
    const path = `/api/exceptions/${asked.id}/approve`;
    const answers = await Promise.all([post(path, { comment: 'first' }), post(path, { comment: 'second' })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refusedOne = answers.find((answer) => answer.status === 409)!;
    await expectProblem(
      refusedOne,
      'exception_not_pending',
      `The exception ${asked.id} was approved at ${clock.toISOString()} by anonymous.`,
      path,
    );
    const standing = (await (await get(`/api/exceptions/${asked.id}`)).json()) as Exception;
    const winner = (await answers.find((answer) => answer.status === 200)!.json()) as Exception;
    expect(standing.review).toEqual(winner.review);
  });

  it('refuses a refusal without a reason with a 400 at /reason', async () => {
    const asked = await requested({ controlId: 'IAM-08', expiresOn: '2027-02-01' });
    const path = `/api/exceptions/${asked.id}/refuse`;
    const message = 'is blank: say why the risk is refused';
    const answer = await post(path, { reason: '   ' });
    expect([answer.status, await answer.json()]).toEqual([
      400,
      expectedProblem('invalid_request', `The body /reason ${message}.`, path, answer.headers.get('x-request-id')!, {
        errors: [{ in: 'body', pointer: '/reason', message }],
      }),
    ]);
  });

  describe('in protected mode', () => {
    beforeAll(() => setMode('protected'));
    afterAll(() => setMode('public'));

    it.each([
      ['approve', { comment: 'Mine.' }],
      ['refuse', { reason: 'Mine.' }],
    ])('answers 403 self_review when the requester tries to %s it', async (action, body) => {
      const asked = await requested({ controlId: 'BCK-01', expiresOn: '2027-02-01' }, ada);
      expect(asked.requestedBy).toEqual({ uid: 'user-1', email: 'ada@example.com' });
      const path = `/api/exceptions/${asked.id}/${action}`;
      await expectProblem(
        await post(path, body, ada),
        'self_review',
        `You requested the exception ${asked.id}; another person approves or refuses it.`,
        path,
      );
      expect(((await (await get(`/api/exceptions/${asked.id}`, ada)).json()) as Exception).state).toBe('requested');
    });

    it('records an approval by another person as independent', async () => {
      const asked = await requested({ controlId: 'BCK-02', expiresOn: '2027-02-01' }, ada);
      const approved = await post(`/api/exceptions/${asked.id}/approve`, {}, bo);
      expect(approved.status).toBe(200);
      expect(((await approved.json()) as Exception).review).toEqual({
        decision: 'approved',
        at: clock.toISOString(),
        by: { uid: 'user-2', email: 'bo@example.com' },
        comment: null,
        independent: true,
        caveat: null,
      });
    });

    it('approves a request made without signing in, saying the two people could not be told apart', async () => {
      setMode('public');
      const asked = await requested({ controlId: 'BCK-03', expiresOn: '2027-02-01' });
      setMode('protected');
      const approved = (await (await post(`/api/exceptions/${asked.id}/approve`, {}, bo)).json()) as Exception;
      expect([approved.review?.independent, approved.review?.caveat]).toEqual([false, caveats.anonymousRequest]);
    });
  });
});

describe('the daily report and an exception', () => {
  it('accepts the finding on the days before the expiry day, and counts it again on that day, in the report time zone', async () => {
    const own = new MemoryStore();
    const received = new Date('2026-11-24T09:00:00Z');
    const item = (subject: string, data: Record<string, unknown>, kind: 'idp.user' | 'idp.settings' = 'idp.user') => ({
      kind,
      source: 'test',
      subject,
      collectedAt: received.toISOString(),
      data,
    });
    await new EvidenceStore(own).ingest(
      [
        item('ada@example.com', { email: 'ada@example.com', active: true, mfaEnabled: true }),
        item('bob@example.com', { email: 'bob@example.com', active: true, mfaEnabled: false }),
        item('tenant', { mfaRequired: true }, 'idp.settings'),
      ],
      { receivedAt: received },
    );
    const exceptions = new ExceptionStore(own);
    await exceptions.create(
      {
        id: 'exc-20261130-00000000aa',
        controlId: 'IAM-01',
        subject: 'bob@example.com',
        justification: 'Bob is on leave until December.',
        expiresOn: '2026-11-30',
        createdAt: received.toISOString(),
        requestedBy: { uid: 'u-ana', email: 'ana@example.com' },
      },
      '2026-11-24',
    );
    const request = (await exceptions.get('exc-20261130-00000000aa'))!.record;
    await exceptions.review(request, approvalAt(received.toISOString()));
    const reportAt = async (now: string) =>
      (await produceDailyReport({ store: own, catalog: compiled, timeZone, now: new Date(now), trigger: 'test' })).stored.report;
    const iam01 = (report: Awaited<ReturnType<typeof reportAt>>) => report.controls.find((control) => control.id === 'IAM-01')!;

    // 22:30 UTC on the 29th is the 29th in Paris; 23:30 UTC is already the 30th, the expiry day there.
    const before = await reportAt('2026-11-29T22:30:00Z');
    const on = await reportAt('2026-11-29T23:30:00Z');
    expect([before.date, on.date]).toEqual(['2026-11-29', '2026-11-30']);
    const bob = (report: typeof before) => iam01(report).findings.find((finding) => finding.subject === 'bob@example.com')!;
    expect(bob(before).accepted).toEqual({ exception: 'exc-20261130-00000000aa', expiresOn: '2026-11-30' });
    expect(iam01(before)).toMatchObject({ status: 'failing', riskAccepted: true });
    expect(before.exceptions!.map((exception) => exception.id)).toEqual(['exc-20261130-00000000aa']);
    expect(bob(on).accepted).toBeUndefined();
    expect(iam01(on).riskAccepted).toBeUndefined();
    expect(on.exceptions).toEqual([]);
    // The accepted control leaves the score while the exception holds, and counts again (failing) on its expiry day.
    const withoutIam01 = (report: typeof before) => report.controls.filter((control) => control.id !== 'IAM-01');
    expect(before.summary.score).toBe(scoreOf(withoutIam01(before)));
    expect(on.summary.score).toBe(scoreOf([...withoutIam01(on), { ...iam01(on), status: 'failing' }]));
    expect(scoreOf(withoutIam01(on))).toBe(before.summary.score);
  });

  it('stops counting an exception from the first report after its revocation', async () => {
    const own = new MemoryStore();
    const exceptions = new ExceptionStore(own);
    const record = {
      id: 'exc-20270101-00000000bb',
      controlId: 'IAM-01',
      subject: null,
      justification: 'Accepted for the migration.',
      expiresOn: '2027-01-01',
      createdAt: '2026-11-20T09:00:00.000Z',
      requestedBy: { uid: 'u-ana' },
    };
    await exceptions.create(record, '2026-11-20');
    await exceptions.review(record, approvalAt('2026-11-20T10:00:00.000Z'));
    await exceptions.revoke(record, { at: '2026-11-24T12:00:00.000Z', by: { uid: 'u-ana' }, reason: null });
    expect((await exceptions.inForce('2026-11-23', new Date('2026-11-23T23:00:00Z'))).map((entry) => entry.id)).toEqual([
      record.id,
    ]);
    expect(await exceptions.inForce('2026-11-24', new Date('2026-11-24T23:00:00Z'))).toEqual([]);
    // Recorded after a day's cut-off: not in that day's report.
    expect(await exceptions.inForce('2026-11-19', new Date('2026-11-19T23:00:00Z'))).toEqual([]);
  });
});
