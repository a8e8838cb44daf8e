/**
 * Collection runs through the `runs` and `evidence` families: opening a run, sending batches
 * under it (`POST /api/evidence?run=`), completing it with counts that agree or not, cancelling,
 * and every refusal as the exact problem a client gets: an unknown run, an ended or abandoned
 * one, an item of a kind the run did not open or of another source, counts that do not name
 * the run's kinds, a declared count over the bound. A run that ends incomplete is announced to
 * webhooks as `source.run_incomplete`; one that completes is not.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionRunLimits, pageLimits } from '@evident/contract';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import type { ProblemCode } from '@evident/contract/problems';
import { createEvidenceFamily } from '../../../functions/src/families/evidence.ts';
import { createRunsFamily } from '../../../functions/src/families/runs.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { WebhookDispatcher } from '../../../functions/src/webhooks/webhook-dispatch.ts';
import type { WebhookEvent } from '../../../functions/src/webhooks/webhook-events.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

type Run = components['schemas']['CollectionRun'];

const catalog = compileCatalogSources(paths.catalog);
const store = new MemoryStore();
let clock = new Date('2026-11-24T10:00:00Z');
const common = { store: async () => store, catalog: () => catalog, now: () => clock, verifyToken: fakeVerifier() };
let runsServed: Served;
let evidenceServed: Served;
const announced: WebhookEvent[] = [];

beforeAll(async () => {
  for (const name of ['evidenceIngested', 'collectionRunEnded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  vi.spyOn(WebhookDispatcher.prototype, 'announce').mockImplementation(async (events) => {
    announced.push(...events);
    return 0;
  });
  setMode('public');
  runsServed = await serve(createRunsFamily({ ...common, abandonHours: () => 6, loadTable: tableOf('runs') }));
  evidenceServed = await serve(createEvidenceFamily({ ...common, abandonHours: () => 6, loadTable: tableOf('evidence') }));
});

afterAll(async () => {
  await runsServed.close();
  await evidenceServed.close();
  vi.restoreAllMocks();
});

afterEach(() => {
  announced.length = 0;
});

const post = (served: Served, path: string, body: unknown) =>
  fetch(`${served.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const openRun = async (kinds = ['idp.user'], source = 'okta') =>
  (await (await post(runsServed, '/api/runs', { source, kinds })).json()) as Run;
const user = (name: string, source = 'okta') => ({
  id: `okta-${name}`,
  kind: 'idp.user',
  source,
  subject: `${name}@example.com`,
  collectedAt: '2026-11-24T09:00:00Z',
  data: { email: `${name}@example.com`, active: true, mfaEnabled: true, admin: false, employmentStatus: 'active' },
});
const send = (runId: string, items: unknown[]) => post(evidenceServed, `/api/evidence?run=${runId}`, { items });

async function expectProblem(answer: Response, code: ProblemCode, detail: string, extra: Record<string, unknown> = {}) {
  const instance = new URL(answer.url).pathname;
  const problem = expectedProblem(code, detail, instance, answer.headers.get('x-request-id')!, extra);
  expect([answer.status, await answer.json()]).toEqual([problem.status, problem]);
}

describe('a collection run through the API', () => {
  it('opens with 201 and its Location, takes batches, and completes when the counts agree', async () => {
    const answer = await post(runsServed, '/api/runs', { source: 'okta', kinds: ['idp.user'] });
    const run = (await answer.json()) as Run;
    expect([answer.status, answer.headers.get('location'), run.status]).toEqual([201, `/api/runs/${run.id}`, 'running']);
    expect((await send(run.id, [user('ada'), user('bob')])).status).toBe(201);
    // The same batch again, a retry: stored once, counted once.
    expect((await send(run.id, [user('ada'), user('bob')])).status).toBe(200);
    const item = (await (await fetch(`${evidenceServed.url}/api/evidence/okta-ada`)).json()) as { runId?: string };
    expect(item.runId).toBe(run.id);
    const done = await post(runsServed, `/api/runs/${run.id}/complete`, { counts: { 'idp.user': 2 } });
    expect([done.status, await done.json()]).toEqual([
      200,
      {
        ...run,
        status: 'complete',
        endedAt: clock.toISOString(),
        endedBy: { uid: 'anonymous' },
        declared: { 'idp.user': 2 },
        received: { 'idp.user': 2 },
      },
    ]);
    expect(announced).toEqual([]);
    const listed = (await (await fetch(`${runsServed.url}/api/runs?source=okta&limit=1`)).json()) as { items: Run[] };
    expect(listed.items.map((shown) => [shown.id, shown.status])).toEqual([[run.id, 'complete']]);
  });

  it('answers 200 incomplete with both counts when they disagree, and announces it', async () => {
    const run = await openRun();
    await send(run.id, [user('cy')]);
    const done = await post(runsServed, `/api/runs/${run.id}/complete`, { counts: { 'idp.user': 40 } });
    expect([done.status, await done.json()]).toMatchObject([
      200,
      { status: 'incomplete', incompleteReason: 'counts_disagree', declared: { 'idp.user': 40 }, received: { 'idp.user': 1 } },
    ]);
    expect(announced.map((event) => [event.type, event.data['runId'], event.data['reason']])).toEqual([
      ['source.run_incomplete', run.id, 'counts_disagree'],
    ]);
  });

  it('cancels with a reason, announces it, and then refuses a batch with 409 run_ended, storing nothing', async () => {
    const run = await openRun();
    const cancelled = await post(runsServed, `/api/runs/${run.id}/cancel`, { reason: 'wrong tenant' });
    expect([cancelled.status, await cancelled.json()]).toMatchObject([200, { status: 'cancelled', note: 'wrong tenant' }]);
    expect(announced.map((event) => event.data['reason'])).toEqual(['cancelled']);
    await expectProblem(
      await send(run.id, [user('dee')]),
      'run_ended',
      `The collection run ${run.id} was cancelled at ${clock.toISOString()}, and takes nothing more; open a new run.`,
    );
    expect((await fetch(`${evidenceServed.url}/api/evidence/okta-dee`)).status).toBe(404);
  });

  it('refuses a second completion with 409', async () => {
    const run = await openRun();
    await post(runsServed, `/api/runs/${run.id}/complete`, { counts: { 'idp.user': 0 } });
    await expectProblem(
      await post(runsServed, `/api/runs/${run.id}/complete`, { counts: { 'idp.user': 0 } }),
      'run_ended',
      `The collection run ${run.id} was completed at ${clock.toISOString()}, and takes nothing more; open a new run.`,
    );
  });

  it('refuses batches and completion once the run is abandoned', async () => {
    const run = await openRun();
    const opened = clock;
    clock = new Date(opened.getTime() + 6 * 3_600_000);
    try {
      const detail =
        `The collection run ${run.id} was not completed by ${run.expiresAt}, when it expired; it reads as abandoned, ` +
        'and takes nothing more; open a new run.';
      await expectProblem(await send(run.id, [user('eve')]), 'run_ended', detail);
      await expectProblem(
        await post(runsServed, `/api/runs/${run.id}/complete`, { counts: { 'idp.user': 0 } }),
        'run_ended',
        detail,
      );
      const shown = (await (await fetch(`${runsServed.url}/api/runs/${run.id}`)).json()) as Run;
      expect([shown.status, shown.incompleteReason]).toEqual(['incomplete', 'abandoned']);
    } finally {
      clock = opened;
    }
  });

  it('refuses items of a kind the run did not open or of another source with 400 naming each, storing nothing', async () => {
    const run = await openRun();
    const device = { ...user('fay'), id: 'dev-fay', kind: 'endpoint.device', data: evidenceKinds['endpoint.device'].example };
    const answer = await send(run.id, [user('fay'), device, user('gus', 'google')]);
    await expectProblem(answer, 'invalid_request', '2 parts of the request do not match the API description; see errors.', {
      errors: [
        { in: 'body', pointer: '/items/1/kind', message: 'is not a kind the run opened (idp.user)' },
        { in: 'body', pointer: '/items/2/source', message: 'is not the run\'s source ("okta")' },
      ],
    });
    expect((await fetch(`${evidenceServed.url}/api/evidence/okta-fay`)).status).toBe(404);
  });

  it('answers 404 run_not_found for a batch or completion of a run that does not exist', async () => {
    const id = 'run-000000000-000000000000';
    const detail = `No collection run has the id "${id}".`;
    await expectProblem(await send(id, [user('hal')]), 'run_not_found', detail);
    await expectProblem(
      await post(runsServed, `/api/runs/${id}/complete`, { counts: { 'idp.user': 1 } }),
      'run_not_found',
      detail,
    );
    await expectProblem(await fetch(`${runsServed.url}/api/runs/${id}`), 'run_not_found', detail);
  });

  it('refuses counts that leave out a kind of the run, or declare more than the bound', async () => {
    const run = await openRun(['idp.user', 'endpoint.device']);
    await expectProblem(
      await post(runsServed, `/api/runs/${run.id}/complete`, { counts: { 'idp.user': 1 } }),
      'invalid_request',
      'The body /counts/endpoint.device is missing: the run opened this kind.',
      { errors: [{ in: 'body', pointer: '/counts/endpoint.device', message: 'is missing: the run opened this kind' }] },
    );
    const tooMany = await post(runsServed, `/api/runs/${run.id}/complete`, {
      counts: { 'idp.user': 10_000_000, 'endpoint.device': 0 },
    });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { errors: { pointer: string }[] }).errors.map((error) => error.pointer)).toEqual([
      '/counts/idp.user',
    ]);
    expect(collectionRunLimits.declaredPerKind).toBeLessThan(10_000_000);
  });

  it('lists runs of a source only, and refuses a listing without one', async () => {
    expect((await fetch(`${runsServed.url}/api/runs`)).status).toBe(400);
    const other = await openRun(['idp.user'], 'jamf-sync');
    const listed = (await (await fetch(`${runsServed.url}/api/runs?source=jamf-sync`)).json()) as {
      items: Run[];
      hasMore: boolean;
    };
    expect([listed.items.map((run) => run.id), listed.hasMore]).toEqual([[other.id], false]);
  });
});

describe('the sources of collection runs through the API', () => {
  const sourcesStore = new MemoryStore();
  let served: Served;
  beforeAll(async () => {
    served = await serve(
      createRunsFamily({ ...common, store: async () => sourcesStore, abandonHours: () => 6, loadTable: tableOf('runs') }),
    );
  });
  const start = clock;
  afterAll(async () => {
    clock = start;
    await served.close();
  });
  const sources = async (query = '') => {
    const answer = await fetch(`${served.url}/api/runs/sources${query}`);
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  /** Opens a run a minute after the last, so the newest of a source is not a tie. */
  const openOn = async (source: string) => {
    clock = new Date(clock.getTime() + 60_000);
    return (await (await post(served, '/api/runs', { source, kinds: ['idp.user'] })).json()) as Run;
  };

  it('lists every source that opened a run with its newest run, page by page', async () => {
    expect(await sources()).toEqual({ status: 200, body: { items: [], hasMore: false } });
    await openOn('okta');
    const okta = await openOn('okta');
    const jamf = await openOn('jamf');
    const completed = (await (await post(served, `/api/runs/${jamf.id}/complete`, { counts: { 'idp.user': 0 } })).json()) as Run;
    expect(completed.status).toBe('complete');
    const first = await sources('?limit=1');
    expect(first).toEqual({
      status: 200,
      body: { items: [{ source: 'jamf', newestRun: completed }], hasMore: true, nextCursor: expect.any(String) },
    });
    expect(await sources(`?limit=1&cursor=${first.body['nextCursor'] as string}`)).toEqual({
      status: 200,
      body: { items: [{ source: 'okta', newestRun: okta }], hasMore: false },
    });
  });

  it('refuses a cursor of another listing, and a limit over the maximum', async () => {
    const runsCursor = Buffer.from(JSON.stringify({ of: 'runs', after: 'v-okta' })).toString('base64url');
    const refused = await fetch(`${served.url}/api/runs/sources?cursor=${runsCursor}`);
    await expectProblem(refused, 'invalid_request', 'The query parameter "cursor" is not a cursor this API gave out.', {
      errors: [{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }],
    });
    const odd = Buffer.from(JSON.stringify({ of: 'sources', after: '../runs' })).toString('base64url');
    expect((await sources(`?cursor=${odd}`)).status).toBe(400);
    expect((await sources('?limit=101')).status).toBe(400);
  });
});

describe('population drops through the API', () => {
  /** A complete run of `names` users of a source of its own, so other tests' runs are not compared. */
  const collect = async (source: string, names: string[]) => {
    const run = await openRun(['idp.user'], source);
    expect(
      (
        await send(
          run.id,
          names.map((name) => user(name, source)),
        )
      ).status,
    ).toBe(201);
    return (await (
      await post(runsServed, `/api/runs/${run.id}/complete`, { counts: { 'idp.user': names.length } })
    ).json()) as Run;
  };
  const acknowledge = (runId: string, kind: string, body: unknown) =>
    post(runsServed, `/api/runs/${runId}/drops/${kind}/acknowledge`, body);

  it('shows a drop past 10 % on the run, announces population.dropped, and takes one acknowledgement', async () => {
    const first = await collect('hr-drop', ['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(announced).toEqual([]);
    const second = await collect('hr-drop', ['c1', 'c2', 'c3']);
    const drop = { kind: 'idp.user', previousRunId: first.id, previousCount: 5, count: 3, percent: 40 };
    expect(second.drops).toEqual([drop]);
    expect(announced.map((event) => [event.type, event.data])).toEqual([
      ['population.dropped', { runId: second.id, source: 'hr-drop', ...drop }],
    ]);
    const answer = await acknowledge(second.id, 'idp.user', { reason: 'Contractors offboarded' });
    const acknowledged = { by: { uid: 'anonymous' }, at: clock.toISOString(), reason: 'Contractors offboarded' };
    expect([answer.status, ((await answer.json()) as Run).drops]).toEqual([200, [{ ...drop, acknowledged }]]);
    await expectProblem(
      await acknowledge(second.id, 'idp.user', { reason: 'Again' }),
      'drop_acknowledged',
      `The population drop of idp.user in the collection run ${second.id} was acknowledged at ${clock.toISOString()}.`,
    );
    const shown = (await (await fetch(`${runsServed.url}/api/runs/${second.id}`)).json()) as Run;
    expect(shown.drops).toEqual([{ ...drop, acknowledged }]);
  });

  it('refuses an unknown run, a kind without a drop, and a reason too short, with their problems', async () => {
    const run = await collect('hr-none', ['b1']);
    await expectProblem(
      await acknowledge('run-00000000a-000000000000', 'idp.user', { reason: 'why' }),
      'run_not_found',
      'No collection run has the id "run-00000000a-000000000000".',
    );
    await expectProblem(
      await acknowledge(run.id, 'idp.user', { reason: 'why' }),
      'drop_not_found',
      `The collection run ${run.id} has no population drop of idp.user.`,
    );
    expect((await acknowledge(run.id, 'idp.user', { reason: 'no' })).status).toBe(400);
    expect((await acknowledge(run.id, 'no.such.kind', { reason: 'why' })).status).toBe(400);
  });
});

describe('the complete populations of a source and kind through the API', () => {
  const populationsStore = new MemoryStore();
  let served: Served;
  beforeAll(async () => {
    served = await serve(
      createRunsFamily({ ...common, store: async () => populationsStore, abandonHours: () => 6, loadTable: tableOf('runs') }),
    );
  });
  const start = clock;
  afterAll(async () => {
    clock = start;
    await served.close();
  });
  const evidence = () =>
    serve(
      createEvidenceFamily({
        ...common,
        store: async () => populationsStore,
        abandonHours: () => 6,
        loadTable: tableOf('evidence'),
      }),
    );
  /** A run of `names` users of `source` opened and ended at `at`: complete when `declared` is their number. */
  const runAt = async (at: string, names: string[], declared = names.length, source = 'okta') => {
    clock = new Date(at);
    const run = (await (await post(served, '/api/runs', { source, kinds: ['idp.user'] })).json()) as Run;
    const sender = await evidence();
    try {
      if (names.length > 0) {
        const items = names.map((name) => ({ ...user(name, source), id: `${source}-${name}-${run.id}` }));
        await post(sender, `/api/evidence?run=${run.id}`, { items });
      }
    } finally {
      await sender.close();
    }
    return (await (await post(served, `/api/runs/${run.id}/complete`, { counts: { 'idp.user': declared } })).json()) as Run;
  };
  const hashOf = (names: string[]) =>
    createHash('sha256')
      .update(
        names
          .map((name) => `${name}@example.com\n`)
          .sort()
          .join(''),
      )
      .digest('hex');
  const populations = async (query: string) => {
    const answer = await fetch(`${served.url}/api/runs/populations?${query}`);
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };

  it('lists each complete run’s count and hash, newest completion first, leaves out an incomplete run, and pages', async () => {
    const first = await runAt('2026-08-20T06:00:00.250Z', ['ada', 'bob', 'cy']);
    const second = await runAt('2026-09-01T00:00:00.000Z', ['ada', 'bob']);
    const refused = await runAt('2026-09-02T06:00:00.000Z', ['ada'], 5);
    const third = await runAt('2026-09-03T06:00:00.000Z', ['dee', 'ada', 'bob']);
    await runAt('2026-09-04T06:00:00.000Z', ['eve'], 1, 'jamf');
    expect(refused.status).toBe('incomplete');
    const entry = (run: Run, names: string[]) => ({
      runId: run.id,
      completedAt: run.endedAt,
      count: names.length,
      sha256: hashOf(names),
    });
    expect(await populations('source=okta&kind=idp.user')).toEqual({
      status: 200,
      body: {
        items: [entry(third, ['dee', 'ada', 'bob']), entry(second, ['ada', 'bob']), entry(first, ['ada', 'bob', 'cy'])],
        hasMore: false,
      },
    });
    const page = await populations('source=okta&kind=idp.user&limit=2');
    expect(page).toEqual({
      status: 200,
      body: {
        items: [entry(third, ['dee', 'ada', 'bob']), entry(second, ['ada', 'bob'])],
        hasMore: true,
        nextCursor: expect.any(String),
      },
    });
    expect(await populations(`source=okta&kind=idp.user&limit=2&cursor=${page.body['nextCursor'] as string}`)).toEqual({
      status: 200,
      body: { items: [entry(first, ['ada', 'bob', 'cy'])], hasMore: false },
    });
    // `since` keeps a run completed at the first moment of its day, and none before.
    expect(await populations('source=okta&kind=idp.user&since=2026-09-01')).toEqual({
      status: 200,
      body: { items: [entry(third, ['dee', 'ada', 'bob']), entry(second, ['ada', 'bob'])], hasMore: false },
    });
    expect(await populations('source=okta&kind=endpoint.device')).toEqual({ status: 200, body: { items: [], hasMore: false } });
  });

  it('refuses a missing source, an unknown kind, a day that is not one, a limit over the maximum and another listing’s cursor', async () => {
    const refused = (query: string, name: string, message: string) =>
      fetch(`${served.url}/api/runs/populations?${query}`).then((answer) =>
        expectProblem(answer, 'invalid_request', `The query parameter "${name}" ${message}.`, {
          errors: [{ in: 'query', name, message }],
        }),
      );
    await refused('kind=idp.user', 'source', 'is required');
    await refused('source=okta&kind=no.such.kind', 'kind', 'must be equal to one of the allowed values');
    await refused('source=okta&kind=idp.user&since=2026-02-30', 'since', 'must match format "date"');
    const over = pageLimits.populations.maximum + 1;
    await refused(`source=okta&kind=idp.user&limit=${over}`, 'limit', `must be <= ${pageLimits.populations.maximum}`);
    const cursor = (of: string, after: string) => Buffer.from(JSON.stringify({ of, after })).toString('base64url');
    const notGiven = 'is not a cursor this API gave out';
    await refused(
      `source=okta&kind=idp.user&cursor=${cursor('runs', '000000000000001-run-000000000-000000000000')}`,
      'cursor',
      notGiven,
    );
    // A place of the populations listing names a run: any other id is not one this API gave out.
    await refused(`source=okta&kind=idp.user&cursor=${cursor('populations', '000000000000001-sub-1')}`, 'cursor', notGiven);
  });
});
