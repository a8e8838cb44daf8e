/**
 * What evaluation reads from the run store as of a cut-off (functions/src/runs/population-inputs.ts),
 * on runs made through RunStore: the newest complete population that ended before the cut-off,
 * the newest run ended (or abandoned) by then when it was not complete, a run still running at
 * the cut-off deciding nothing, a drop acknowledged only by an acknowledgement made before the
 * cut-off — and the same answer however late it is asked.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { populationsAsOf } from '../../../functions/src/runs/population-inputs.ts';
import { RunStore } from '../../../functions/src/runs/run-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { RecordingStore } from '../../support/recording-store.ts';

const ada = { uid: 'u-ada', email: 'ada@example.com' };
const start = Date.parse('2026-11-20T08:00:00Z');
const at = (hours: number) => new Date(start + hours * 3_600_000);
const sha256 = (subjects: string[]) =>
  createHash('sha256')
    .update(
      [...subjects]
        .sort()
        .map((subject) => `${subject}\n`)
        .join(''),
    )
    .digest('hex');
const people = (count: number) => Array.from({ length: count }, (_, n) => `p${n}@x.com`);

function setUp() {
  const store = new MemoryStore();
  const runs = new RunStore(
    store,
    () => 6,
    () => 10,
  );
  /** A run of okta's users opened at `hour`, sending `subjects`, then ended as `end` says an hour later. */
  async function run(hour: number, subjects: string[], end: 'complete' | 'mismatch' | 'cancel' | 'never' = 'complete') {
    const opened = await runs.open({ source: 'okta', kinds: ['idp.user'], openedBy: ada }, at(hour));
    await runs.recordBatch(
      opened.id,
      subjects.map((subject) => ({ id: `${opened.id}-${subject}`, kind: 'idp.user', subject })),
    );
    if (end === 'complete') await runs.complete(opened.id, { 'idp.user': subjects.length }, ada, at(hour + 1));
    if (end === 'mismatch') await runs.complete(opened.id, { 'idp.user': subjects.length + 1 }, ada, at(hour + 1));
    if (end === 'cancel') await runs.cancel(opened.id, undefined, ada, at(hour + 1));
    return opened.id;
  }
  return { store, runs, run, asOf: (hours: number) => populationsAsOf(store, at(hours)) };
}

const complete = (runId: string, openedHour: number, subjects: string[]) => ({
  runId,
  openedAt: at(openedHour).toISOString(),
  endedAt: at(openedHour + 1).toISOString(),
  count: subjects.length,
  sha256: sha256(subjects),
  subjects: new Set(subjects),
});

describe('the populations as of a cut-off', () => {
  it('is nothing for a store without runs', async () => {
    expect(await populationsAsOf(new MemoryStore(), at(10))).toEqual([]);
  });

  it('gives the newest complete population that ended before the cut-off, whatever ended after it', async () => {
    const { run, asOf } = setUp();
    const first = await run(0, people(3));
    const second = await run(24, people(4));
    // A run still running at the cut-off decides nothing; one that ended after it counts as running.
    expect(await asOf(0.5)).toEqual([]);
    expect(await asOf(1)).toEqual([]);
    expect(await asOf(24.5)).toEqual([{ source: 'okta', kind: 'idp.user', complete: complete(first, 0, people(3)) }]);
    expect(await asOf(48)).toEqual([{ source: 'okta', kind: 'idp.user', complete: complete(second, 24, people(4)) }]);
  });

  it('names the newest ended run when it is incomplete, beside the complete population before it', async () => {
    const { run, asOf } = setUp();
    const first = await run(0, people(3));
    const mismatched = await run(24, people(3), 'mismatch');
    expect(await asOf(30)).toEqual([
      {
        source: 'okta',
        kind: 'idp.user',
        complete: complete(first, 0, people(3)),
        incomplete: { runId: mismatched, reason: 'counts_disagree', endedAt: at(25).toISOString() },
      },
    ]);
    const cancelled = await run(48, people(1), 'cancel');
    expect((await asOf(50))[0]!.incomplete).toEqual({ runId: cancelled, reason: 'cancelled', endedAt: at(49).toISOString() });
    // A complete run after them ends the doubt.
    const third = await run(72, people(3));
    expect(await asOf(80)).toEqual([{ source: 'okta', kind: 'idp.user', complete: complete(third, 72, people(3)) }]);
  });

  it('reads a run not ended by its expiry as abandoned from then on, and as running before', async () => {
    const { run, asOf } = setUp();
    const first = await run(0, people(3));
    const abandoned = await run(24, people(1), 'never');
    expect(await asOf(29.5)).toEqual([{ source: 'okta', kind: 'idp.user', complete: complete(first, 0, people(3)) }]);
    expect(await asOf(30)).toEqual([
      {
        source: 'okta',
        kind: 'idp.user',
        complete: complete(first, 0, people(3)),
        incomplete: { runId: abandoned, reason: 'abandoned', endedAt: at(30).toISOString() },
      },
    ]);
  });

  it('carries a drop, acknowledged only by an acknowledgement made before the cut-off', async () => {
    const { run, runs, asOf } = setUp();
    const first = await run(0, people(10));
    const dropped = await run(24, people(8));
    const drop = { previousRunId: first, previousCount: 10, percent: 20 };
    expect((await asOf(26))[0]!.complete!.drop).toEqual({ ...drop, acknowledged: false });
    await runs.acknowledgeDrop(dropped, 'idp.user', { by: ada, reason: 'Two contractors left.' }, at(27));
    expect((await asOf(26))[0]!.complete!.drop).toEqual({ ...drop, acknowledged: false });
    expect((await asOf(28))[0]!.complete!.drop).toEqual({ ...drop, acknowledged: true });
  });

  it('reads a source whose runs opened before kinds were marked from its newest runs', async () => {
    const { store, run, asOf } = setUp();
    const first = await run(0, people(3));
    const cancelled = await run(24, people(2), 'cancel');
    for (const name of (await store.list('runs-kinds/')).items.map((info) => info.name)) await store.delete(name);
    expect(await asOf(30)).toEqual([
      {
        source: 'okta',
        kind: 'idp.user',
        complete: complete(first, 0, people(3)),
        incomplete: { runId: cancelled, reason: 'cancelled', endedAt: at(25).toISOString() },
      },
    ]);
  });

  it('reads each object it needs once: a run of two kinds has its end record read once', async () => {
    const recording = new RecordingStore(new MemoryStore());
    const runs = new RunStore(
      recording,
      () => 6,
      () => 10,
    );
    const opened = await runs.open({ source: 'okta', kinds: ['idp.user', 'people.screening'], openedBy: ada }, at(0));
    await runs.recordBatch(opened.id, [
      { id: 'u', kind: 'idp.user', subject: 'ada@x.com' },
      { id: 's', kind: 'people.screening', subject: 'ada@x.com' },
    ]);
    await runs.complete(opened.id, { 'idp.user': 1, 'people.screening': 1 }, ada, at(1));
    recording.reset();
    expect(await populationsAsOf(recording, at(2))).toHaveLength(2);
    // The run as opened and as ended, then each kind's population: nothing twice.
    expect(recording.of('read').sort()).toEqual(
      [
        `runs/${opened.id}/run.json`,
        `runs/${opened.id}/end.json`,
        `runs/${opened.id}/population/idp.user.json`,
        `runs/${opened.id}/population/people.screening.json`,
      ].sort(),
    );
    // The sources, the source's kinds and runs, and each kind's newest complete population.
    expect(recording.of('list')).toHaveLength(5);
  });

  it('keeps each source and kind apart, in source then kind order', async () => {
    const { runs, asOf } = setUp();
    for (const source of ['workday', 'okta']) {
      const opened = await runs.open({ source, kinds: ['idp.user', 'people.screening'], openedBy: ada }, at(0));
      await runs.recordBatch(opened.id, [
        { id: `${source}-u`, kind: 'idp.user', subject: 'ada@x.com' },
        { id: `${source}-s`, kind: 'people.screening', subject: 'ada@x.com' },
      ]);
      await runs.complete(opened.id, { 'idp.user': 1, 'people.screening': 1 }, ada, at(1));
    }
    expect((await asOf(2)).map(({ source, kind }) => `${source} ${kind}`)).toEqual([
      'okta idp.user',
      'okta people.screening',
      'workday idp.user',
      'workday people.screening',
    ]);
  });
});
