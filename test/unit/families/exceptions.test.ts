/**
 * `/api/exceptions` through the exceptions family, and what the daily report makes of them:
 * recording one (with its approver), what is refused (an unknown control or subject, an expiry
 * today, past or over a year ahead), listing active and soon-expiring ones, revoking once, and a
 * daily report that accepts the finding before the expiry day and counts it again on that day,
 * in the report's time zone.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { ExceptionStore } from '../../../functions/src/exceptions/exception-store.ts';
import { createExceptionsFamily } from '../../../functions/src/families/exceptions.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { logs } from '../../../functions/src/logs.ts';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
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

const post = (path: string, body: unknown) =>
  fetch(`${served.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const get = (path: string) => fetch(`${served.url}${path}`);
const accept = (fields: Record<string, unknown>) =>
  post('/api/exceptions', { controlId: 'IAM-01', justification: 'The tenant is being migrated this quarter.', ...fields });

describe('recording an exception', () => {
  it('answers 201 with the exception, its address and its approver', async () => {
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
      approver: { uid: 'anonymous' },
      state: 'active',
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
    const soon = (await (await accept({ controlId: 'IAM-02', expiresOn: '2026-12-01' })).json()) as Exception;
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
        approver: { uid: 'u-ana', email: 'ana@example.com' },
      },
      '2026-11-24',
    );
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
    expect(on.summary.score).toBeLessThan(before.summary.score);
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
      approver: { uid: 'u-ana' },
    };
    await exceptions.create(record, '2026-11-20');
    await exceptions.revoke(record, { at: '2026-11-24T12:00:00.000Z', by: { uid: 'u-ana' }, reason: null });
    expect((await exceptions.inForce('2026-11-23', new Date('2026-11-23T23:00:00Z'))).map((entry) => entry.id)).toEqual([
      record.id,
    ]);
    expect(await exceptions.inForce('2026-11-24', new Date('2026-11-24T23:00:00Z'))).toEqual([]);
    // Recorded after a day's cut-off: not in that day's report.
    expect(await exceptions.inForce('2026-11-19', new Date('2026-11-19T23:00:00Z'))).toEqual([]);
  });
});
