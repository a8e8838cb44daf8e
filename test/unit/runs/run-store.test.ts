/**
 * Collection runs in the store (functions/src/runs/run-store.ts), on a memory store and a clock
 * the tests move: opening, admitting batches (kinds, source, bounds), counting distinct items
 * (a retried batch once), completing with counts that agree or not, cancelling, a run abandoned
 * by the clock alone, two endings at once (one wins), and a complete run's populations.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { collectionRunLimits } from '@evident/contract';
import { RunEnded, RunFull, RunMismatch, RunNotFound, RunCountsRefused } from '../../../functions/src/runs/run-errors.ts';
import { receiptsPrefix } from '../../../functions/src/runs/run-layout.ts';
import { RunStore } from '../../../functions/src/runs/run-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';

const ada = { uid: 'u-ada', email: 'ada@example.com' };
const opened = new Date('2026-11-24T10:00:00Z');
const later = (hours: number) => new Date(opened.getTime() + hours * 3_600_000);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function setUp() {
  const store = new MemoryStore();
  const runs = new RunStore(
    store,
    () => 6,
    () => 10,
  );
  const open = (kinds: ('idp.user' | 'endpoint.device')[] = ['idp.user', 'endpoint.device'], source = 'okta') =>
    runs.open({ source, kinds, openedBy: ada }, opened);
  return { store, runs, open };
}

const users = (...names: string[]) =>
  names.map((name) => ({ id: `u-${name}`, kind: 'idp.user', subject: `${name}@example.com` }));

describe('a collection run', () => {
  it('opens running, with its kinds sorted, and expires RUN_ABANDON_HOURS later', async () => {
    const { runs, open } = setUp();
    const run = await open(['idp.user', 'endpoint.device']);
    expect(run).toEqual({
      id: run.id,
      source: 'okta',
      kinds: ['endpoint.device', 'idp.user'],
      status: 'running',
      openedAt: '2026-11-24T10:00:00.000Z',
      openedBy: ada,
      expiresAt: '2026-11-24T16:00:00.000Z',
    });
    expect(run.id).toMatch(/^run-[0-9a-z]{9}-[0-9a-f]{12}$/);
    expect(await runs.get(run.id, later(1))).toEqual(run);
  });

  it('is complete when the declared counts equal the distinct items received, a retried batch counted once', async () => {
    const { runs, open } = setUp();
    const run = await open(['idp.user']);
    await runs.admit(run.id, [{ kind: 'idp.user', source: 'okta' }], later(1));
    await runs.recordBatch(run.id, users('ada', 'bob'));
    await runs.recordBatch(run.id, users('bob', 'ada'));
    await runs.recordBatch(run.id, users('bob', 'cy'));
    const done = await runs.complete(run.id, { 'idp.user': 3 }, ada, later(2));
    expect(done).toEqual({
      ...run,
      status: 'complete',
      endedAt: later(2).toISOString(),
      endedBy: ada,
      declared: { 'idp.user': 3 },
      received: { 'idp.user': 3 },
    });
    expect(await runs.get(run.id, later(100))).toEqual(done);
    const subjects = ['ada@example.com', 'bob@example.com', 'cy@example.com'];
    expect(await runs.population(run.id, 'idp.user')).toEqual({
      runId: run.id,
      source: 'okta',
      kind: 'idp.user',
      count: 3,
      sha256: sha256(subjects.map((subject) => `${subject}\n`).join('')),
      subjects,
    });
  });

  it('is incomplete when the counts disagree, with both counts, and defines no population', async () => {
    const { runs, open } = setUp();
    const run = await open();
    await runs.recordBatch(run.id, users('ada'));
    const done = await runs.complete(run.id, { 'idp.user': 2, 'endpoint.device': 0 }, ada, later(1));
    expect(done).toMatchObject({
      status: 'incomplete',
      incompleteReason: 'counts_disagree',
      declared: { 'endpoint.device': 0, 'idp.user': 2 },
      received: { 'endpoint.device': 0, 'idp.user': 1 },
    });
    await expect(runs.population(run.id, 'idp.user')).rejects.toThrow(/No object named/);
  });

  it('refuses counts that do not name exactly the kinds it opened', async () => {
    const { runs, open } = setUp();
    const run = await open(['idp.user']);
    await expect(runs.complete(run.id, { 'endpoint.device': 1 }, ada, later(1))).rejects.toEqual(
      new RunCountsRefused(['idp.user'], ['endpoint.device']),
    );
    expect((await runs.get(run.id, later(1))).status).toBe('running');
  });

  it('reads as incomplete, abandoned, once its expiresAt passes unfinished, and then takes nothing more', async () => {
    const { runs, open } = setUp();
    const run = await open(['idp.user']);
    expect((await runs.get(run.id, later(5.99))).status).toBe('running');
    expect(await runs.get(run.id, later(6))).toEqual({ ...run, status: 'incomplete', incompleteReason: 'abandoned' });
    const ended = new RunEnded(run.id, 'abandoned', run.expiresAt);
    await expect(runs.admit(run.id, [{ kind: 'idp.user', source: 'okta' }], later(6))).rejects.toEqual(ended);
    await expect(runs.complete(run.id, { 'idp.user': 0 }, ada, later(7))).rejects.toEqual(ended);
    await expect(runs.cancel(run.id, undefined, ada, later(7))).rejects.toEqual(ended);
  });

  it('is cancelled with its note, and then refuses batches, completion and another cancel', async () => {
    const { runs, open } = setUp();
    const run = await open(['idp.user']);
    const cancelled = await runs.cancel(run.id, 'wrong tenant', ada, later(1));
    expect(cancelled).toEqual({
      ...run,
      status: 'cancelled',
      endedAt: later(1).toISOString(),
      endedBy: ada,
      incompleteReason: 'cancelled',
      note: 'wrong tenant',
    });
    const ended = new RunEnded(run.id, 'cancelled', later(1).toISOString());
    await expect(runs.admit(run.id, [{ kind: 'idp.user', source: 'okta' }], later(2))).rejects.toEqual(ended);
    await expect(runs.complete(run.id, { 'idp.user': 0 }, ada, later(2))).rejects.toEqual(ended);
    await expect(runs.cancel(run.id, undefined, ada, later(2))).rejects.toEqual(ended);
  });

  it('ends once when completed twice at once: one wins, the other is told how it ended', async () => {
    const { runs, open } = setUp();
    const run = await open(['idp.user']);
    await runs.recordBatch(run.id, users('ada'));
    const outcomes = await Promise.allSettled([
      runs.complete(run.id, { 'idp.user': 1 }, ada, later(1)),
      runs.complete(run.id, { 'idp.user': 1 }, ada, later(1)),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected')!;
    expect(refused.reason).toEqual(new RunEnded(run.id, 'complete', later(1).toISOString()));
    expect((await runs.get(run.id, later(1))).status).toBe('complete');
  });

  it('refuses items of a kind it did not open or of another source, naming each', async () => {
    const { runs, open } = setUp();
    const run = await open(['idp.user']);
    await expect(
      runs.admit(
        run.id,
        [
          { kind: 'idp.user', source: 'okta' },
          { kind: 'endpoint.device', source: 'okta' },
          { kind: 'idp.user', source: 'google' },
        ],
        later(1),
      ),
    ).rejects.toEqual(
      new RunMismatch(run.id, [
        { item: 1, field: 'kind', expected: ['idp.user'] },
        { item: 2, field: 'source', expected: 'okta' },
      ]),
    );
  });

  it('refuses a batch that would take it past the items one run receives', async () => {
    const { store, runs, open } = setUp();
    const run = await open(['idp.user']);
    // A receipt's listed size is all the bound reads: one naming all but two items leaves room for two.
    await store.create(`${receiptsPrefix(run.id)}big.json`, '{}', { metadata: { items: String(collectionRunLimits.items - 2) } });
    const item = { kind: 'idp.user' as const, source: 'okta' };
    await runs.admit(run.id, [item, item], later(1));
    await expect(runs.admit(run.id, [item, item, item], later(1))).rejects.toEqual(
      new RunFull(run.id, 'items', collectionRunLimits.items),
    );
  });

  it('is not found when no run has the id', async () => {
    const { runs } = setUp();
    await expect(runs.get('run-000000000-000000000000', opened)).rejects.toEqual(new RunNotFound('run-000000000-000000000000'));
  });

  it('lists a source’s runs newest first, page by page, and no other source’s', async () => {
    const { runs } = setUp();
    const ids: string[] = [];
    for (let hour = 0; hour < 3; hour++) {
      ids.push((await runs.open({ source: 'okta', kinds: ['idp.user'], openedBy: ada }, later(hour))).id);
    }
    await runs.open({ source: 'google', kinds: ['idp.user'], openedBy: ada }, later(4));
    const first = await runs.page({ source: 'okta', limit: 2 }, later(5));
    expect([first.items.map((run) => run.id), first.hasMore]).toEqual([[ids[2], ids[1]], true]);
    const second = await runs.page({ source: 'okta', limit: 2, after: first.next! }, later(5));
    expect([second.items.map((run) => run.id), second.hasMore]).toEqual([[ids[0]], false]);
  });
});
