/**
 * Population drops in the run store (functions/src/runs/run-store.ts): each complete run is
 * indexed per (source, kind), newest completion first, with its count and hash; a complete run
 * whose population shrank by more than the threshold since the previous complete one carries a
 * drop, and a drop is acknowledged once, with who and why, even when two try at once.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DropAcknowledged, DropNotFound, RunNotFound } from '../../../functions/src/runs/run-errors.ts';
import { populationsIndexPrefix } from '../../../functions/src/runs/run-layout.ts';
import { RunStore } from '../../../functions/src/runs/run-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';

const ada = { uid: 'u-ada', email: 'ada@example.com' };
const bob = { uid: 'u-bob', email: 'bob@example.com' };
const start = new Date('2026-11-24T10:00:00Z');
const later = (hours: number) => new Date(start.getTime() + hours * 3_600_000);
const users = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `u-${index}`, kind: 'idp.user', subject: `user${index}@example.com` }));

function setUp() {
  const store = new MemoryStore();
  const runs = new RunStore(
    store,
    () => 6,
    () => 10,
  );
  /** Opens, fills and completes a run of `count` users at hour `hour`. */
  const collect = async (count: number, hour: number, source = 'okta') => {
    const run = await runs.open({ source, kinds: ['idp.user'], openedBy: ada }, later(hour));
    await runs.recordBatch(run.id, users(count));
    return runs.complete(run.id, { 'idp.user': count }, ada, later(hour + 1));
  };
  return { store, runs, collect };
}

describe('population drops', () => {
  it('indexes each complete population newest completion first, with its count and hash', async () => {
    const { store, collect } = setUp();
    const first = await collect(3, 0);
    const second = await collect(4, 2);
    const listed = await store.list(populationsIndexPrefix('okta', 'idp.user'), { pageSize: 2 });
    const subjects = ['user0@example.com', 'user1@example.com', 'user2@example.com', 'user3@example.com'];
    const sha256 = (count: number) =>
      createHash('sha256')
        .update(
          subjects
            .slice(0, count)
            .map((subject) => `${subject}\n`)
            .join(''),
        )
        .digest('hex');
    expect(listed.items.map((item) => [item.name.endsWith(`-${second.id}`), item.metadata])).toEqual([
      [true, { count: '4', sha256: sha256(4) }],
      [false, { count: '3', sha256: sha256(3) }],
    ]);
    expect(listed.items[1]!.name.endsWith(`-${first.id}`)).toBe(true);
  });

  it('finds a drop past the threshold, and none at or under it, nor for the first run or a growth', async () => {
    const { collect } = setUp();
    expect((await collect(200, 0)).drops).toBeUndefined();
    expect((await collect(180, 2)).drops).toBeUndefined(); // exactly 10 %
    const previous = await collect(190, 4); // growth
    expect(previous.drops).toBeUndefined();
    const dropped = await collect(133, 6); // 30 % of 190
    expect(dropped.drops).toEqual([
      { kind: 'idp.user', previousRunId: previous.id, previousCount: 190, count: 133, percent: 30 },
    ]);
    // The next run compares with the dropped one, not with an older population.
    expect((await collect(130, 8)).drops).toBeUndefined();
  });

  it('never indexes an incomplete run, so the next complete run compares past it', async () => {
    const { runs, collect } = setUp();
    const complete = await collect(20, 0);
    const run = await runs.open({ source: 'okta', kinds: ['idp.user'], openedBy: ada }, later(2));
    await runs.recordBatch(run.id, users(5));
    expect((await runs.complete(run.id, { 'idp.user': 20 }, ada, later(3))).status).toBe('incomplete');
    expect((await collect(17, 4)).drops).toEqual([
      { kind: 'idp.user', previousRunId: complete.id, previousCount: 20, count: 17, percent: 15 },
    ]);
  });

  it('records an acknowledgement once, shows it on the run, and refuses a second with who acknowledged it when', async () => {
    const { runs, collect } = setUp();
    await collect(10, 0);
    const dropped = await collect(5, 2);
    const acknowledged = await runs.acknowledgeDrop(
      dropped.id,
      'idp.user',
      { by: bob, reason: 'Contractors offboarded' },
      later(4),
    );
    const drop = { kind: 'idp.user', previousRunId: dropped.drops![0]!.previousRunId, previousCount: 10, count: 5, percent: 50 };
    const shown = { ...drop, acknowledged: { by: bob, at: later(4).toISOString(), reason: 'Contractors offboarded' } };
    expect(acknowledged.drops).toEqual([shown]);
    expect((await runs.get(dropped.id, later(5))).drops).toEqual([shown]);
    await expect(runs.acknowledgeDrop(dropped.id, 'idp.user', { by: ada, reason: 'again' }, later(5))).rejects.toThrow(
      new DropAcknowledged(dropped.id, 'idp.user', later(4).toISOString()),
    );
    expect((await runs.get(dropped.id, later(6))).drops).toEqual([shown]);
  });

  it('lets exactly one of two acknowledgements at once win', async () => {
    const { runs, collect } = setUp();
    await collect(10, 0);
    const dropped = await collect(5, 2);
    const outcomes = await Promise.allSettled([
      runs.acknowledgeDrop(dropped.id, 'idp.user', { by: ada, reason: 'first' }, later(4)),
      runs.acknowledgeDrop(dropped.id, 'idp.user', { by: bob, reason: 'second' }, later(4)),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = outcomes.find((outcome) => outcome.status === 'rejected')!;
    expect(rejected.reason).toBeInstanceOf(DropAcknowledged);
    const winner = (outcomes.find((outcome) => outcome.status === 'fulfilled') as PromiseFulfilledResult<{ drops?: unknown[] }>)
      .value;
    expect((await runs.get(dropped.id, later(5))).drops).toEqual(winner.drops);
  });

  it('refuses to acknowledge a drop of an unknown run, of a kind without one, or of a run without drops', async () => {
    const { runs, collect } = setUp();
    const first = await collect(10, 0);
    await expect(
      runs.acknowledgeDrop('run-00000000a-000000000000', 'idp.user', { by: ada, reason: 'why' }, later(2)),
    ).rejects.toThrow(RunNotFound);
    await expect(runs.acknowledgeDrop(first.id, 'idp.user', { by: ada, reason: 'why' }, later(2))).rejects.toThrow(
      new DropNotFound(first.id, 'idp.user'),
    );
    const dropped = await collect(5, 2);
    await expect(runs.acknowledgeDrop(dropped.id, 'endpoint.device', { by: ada, reason: 'why' }, later(4))).rejects.toThrow(
      new DropNotFound(dropped.id, 'endpoint.device'),
    );
  });
});
