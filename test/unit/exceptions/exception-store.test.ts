/**
 * What the exception store reads, counted with a recording store, as the history grows: the
 * exceptions in force (the daily job's read) and a page of active, ended or all exceptions cost
 * the same with a year of expired and revoked exceptions behind them as with none. Also: only an
 * approved exception is in force, a request and a refusal are listed in their states, and of two
 * reviews at once one stands; an expired, refused or revoked exception frees its place under the
 * cap; a report made long after its day is still exact; a revocation or a review the index
 * missed is put right by doing it again; and a store written before indexes, or before reviews,
 * is migrated, its exceptions in force as before and read as approved at once, not independently.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../functions/src/assessment/dates.ts';
import { caveats } from '../../../functions/src/common/four-eyes.ts';
import { ExceptionLimitReached, keptDays } from '../../../functions/src/exceptions/exception-index.ts';
import { indexExceptions } from '../../../functions/src/exceptions/exception-migration.ts';
import { ExceptionStore, type ExceptionRecord, type Review } from '../../../functions/src/exceptions/exception-store.ts';
import { hasLegacyLayout, migrateStore } from '../../../functions/src/migration/migrate-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { PreconditionFailed } from '../../../functions/src/storage/object-store.ts';
import { RecordingStore } from '../../support/recording-store.ts';

const today = '2026-11-24';
const asOf = new Date('2026-11-24T23:00:00Z');
let serial = 0;

/** An exception of `controlId` recorded on `day` (09:00 UTC), expiring on `expiresOn`. */
function exception(controlId: string, day: string, expiresOn: string, subject: string | null = null): ExceptionRecord {
  serial++;
  return {
    id: `exc-${expiresOn.replaceAll('-', '')}-${serial.toString(16).padStart(10, '0')}`,
    controlId,
    subject,
    justification: 'Accepted for a while.',
    expiresOn,
    createdAt: `${day}T09:00:00.000Z`,
    requestedBy: { uid: 'u-ana' },
  };
}

const revocation = (day: string) => ({ at: `${day}T10:00:00.000Z`, by: { uid: 'u-ana' }, reason: null });
const review = (decision: Review['decision'], day: string, by = 'u-bo'): Review => ({
  decision,
  at: `${day}T09:30:00.000Z`,
  by: { uid: by },
  comment: null,
  independent: true,
  caveat: null,
});

/** Requests an exception on the day it was recorded, and approves it half an hour later. */
async function approved(exceptions: ExceptionStore, record: ExceptionRecord): Promise<void> {
  const day = record.createdAt.slice(0, 10);
  await exceptions.create(record, day);
  await exceptions.review(record, review('approved', day));
}

/**
 * A year of history on IAM-01 and BCK-01: each week an exception recorded for a fortnight, and
 * one recorded and revoked the same day (`weeks` of each per control), then two in force today.
 */
async function storeWithHistory(weeks: number) {
  const recording = new RecordingStore(new MemoryStore());
  const exceptions = new ExceptionStore(recording);
  for (const controlId of ['IAM-01', 'BCK-01']) {
    for (let week = weeks; week > 0; week--) {
      const day = addDays(today, -7 * week - 20);
      await approved(exceptions, exception(controlId, day, addDays(day, 14)));
      const revoked = exception(controlId, day, addDays(day, 300), 'host-1');
      await approved(exceptions, revoked);
      await exceptions.revoke(revoked, revocation(day));
    }
  }
  const inForce = [exception('IAM-01', '2026-11-01', '2027-01-01'), exception('BCK-01', '2026-11-01', '2027-02-01', 'db-1')];
  for (const record of inForce) await approved(exceptions, record);
  recording.reset();
  return { recording, exceptions, inForce };
}

describe('what the exception store reads, however long the history', () => {
  it('reads the exceptions in force as one listing and one read per control that has any', async () => {
    for (const weeks of [0, 50]) {
      const { recording, exceptions, inForce } = await storeWithHistory(weeks);
      expect((await exceptions.inForce(today, asOf)).map((each) => each.id).sort()).toEqual(
        inForce.map((each) => each.id).sort(),
      );
      expect([recording.of('list'), recording.of('read').sort()]).toEqual([
        ['exception-index/'],
        ['exception-index/BCK-01.json', 'exception-index/IAM-01.json'],
      ]);
    }
  });

  it('reads a page of active ones from the indexes and the records and reviews shown', async () => {
    for (const weeks of [0, 50]) {
      const { recording, exceptions, inForce } = await storeWithHistory(weeks);
      const page = await exceptions.page({ state: 'active', today, limit: 1 });
      expect([page.items.map((each) => each.record.id), page.hasMore, page.next]).toEqual([
        [inForce[0]!.id],
        true,
        inForce[0]!.id,
      ]);
      expect(recording.of('read').sort()).toEqual([
        'exception-index/BCK-01.json',
        'exception-index/IAM-01.json',
        `exception-reviews/expires=2027-01-01/${inForce[0]!.id}.json`,
        `exceptions/expires=2027-01-01/${inForce[0]!.id}.json`,
      ]);
    }
  });

  it.each(['ended', 'all'] as const)('reads a page of %s ones with one listing and the exceptions shown', async (state) => {
    const { recording, exceptions } = await storeWithHistory(50);
    const page = await exceptions.page({ state, today, limit: 5 });
    expect([page.items.length, page.hasMore]).toEqual([5, true]);
    // Each exception shown: its record, its review and its revocation (or the lack of one).
    expect([recording.of('list'), recording.of('read').length]).toEqual([['exceptions/'], 15]);
  });

  it('reads the pages of one control ended ones from names and metadata, skipping the other control unread', async () => {
    const { recording, exceptions } = await storeWithHistory(50);
    const page = await exceptions.page({ state: 'ended', today, control: 'BCK-01', limit: 3 });
    expect(page.items.map((each) => each.record.controlId)).toEqual(['BCK-01', 'BCK-01', 'BCK-01']);
    expect(recording.of('read').filter((name) => !page.items.some((each) => name.includes(each.record.id)))).toEqual([]);
  });
});

describe('the cap over time', () => {
  it('counts requests awaiting review, and frees the place of an expired exception, and of a refused one', async () => {
    const exceptions = new ExceptionStore(new MemoryStore());
    const made = [1, 2, 3].map(() => exception('IAM-02', '2026-11-01', '2026-11-20', 'bob'));
    await approved(exceptions, made[0]!);
    for (const record of made.slice(1)) await exceptions.create(record, '2026-11-01');
    await expect(exceptions.create(exception('IAM-02', '2026-11-02', '2027-01-01', 'bob'), '2026-11-02')).rejects.toThrow(
      ExceptionLimitReached,
    );
    // Another subject has its own places.
    await exceptions.create(exception('IAM-02', '2026-11-02', '2027-01-01', 'eve'), '2026-11-02');
    // On their expiry day the three are no longer active.
    await exceptions.create(exception('IAM-02', '2026-11-20', '2027-01-01', 'bob'), '2026-11-20');
    // A refused request gives its place back at once.
    const refused = exception('IAM-02', '2026-11-20', '2027-01-01', 'bob');
    await exceptions.create(refused, '2026-11-20');
    const third = exception('IAM-02', '2026-11-20', '2027-01-01', 'bob');
    await exceptions.create(third, '2026-11-20');
    await expect(exceptions.create(exception('IAM-02', '2026-11-21', '2027-01-01', 'bob'), '2026-11-21')).rejects.toThrow(
      ExceptionLimitReached,
    );
    await exceptions.review(refused, review('refused', '2026-11-21'));
    await exceptions.create(exception('IAM-02', '2026-11-21', '2027-01-01', 'bob'), '2026-11-21');
  });
});

describe('an exception its index never took', () => {
  it('is not left behind when other writers outrace it every time', async () => {
    const recording = new RecordingStore(new MemoryStore());
    const exceptions = new ExceptionStore(recording);
    const record = exception('IAM-06', '2026-11-01', '2027-01-01');
    recording.before = (call) => {
      if (call.op === 'create' && call.name === 'exception-index/IAM-06.json') throw new PreconditionFailed(call.name, '0');
    };
    await expect(exceptions.create(record, '2026-11-01')).rejects.toThrow(PreconditionFailed);
    expect(recording.of('create').filter((name) => name.startsWith('exception-index/'))).toHaveLength(20);
    expect(await exceptions.get(record.id)).toBeUndefined();
  });
});

describe('a report made late for its day', () => {
  it('sees from the index what was in force on a day within the kept days, and from the records before', async () => {
    const { recording, exceptions } = await storeWithHistory(10);
    // The oldest week: each control's fortnight exception is in force the next day (its revoked one is not).
    const day = addDays(today, -7 * 10 - 20);
    const inForceThen = async (date: string) => (await exceptions.inForce(date, new Date(`${date}T23:00:00Z`))).length;
    recording.reset();
    expect(await inForceThen(addDays(day, 1))).toBe(2);
    expect(recording.of('list')).toEqual(['exception-index/', 'exceptions/', 'exception-reviews/', 'exception-revocations/']);
    recording.reset();
    // Within the kept days: two fortnight exceptions of each control overlap on any day.
    const recent = addDays(today, -(keptDays - 2));
    expect(await inForceThen(recent)).toBe(4);
    expect(recording.of('list')).toEqual(['exception-index/']);
  });
});

describe('a revocation the index missed', () => {
  it('is put right by revoking again, which answers that it was revoked already', async () => {
    const recording = new RecordingStore(new MemoryStore());
    const exceptions = new ExceptionStore(recording);
    const record = exception('IAM-03', '2026-11-01', '2027-01-01');
    await approved(exceptions, record);
    recording.before = (call) => {
      if (call.op === 'replace' && call.name === 'exception-index/IAM-03.json') throw new Error('the instance died');
    };
    await expect(exceptions.revoke(record, revocation('2026-11-24'))).rejects.toThrow('the instance died');
    recording.before = () => undefined;
    expect((await exceptions.inForce(today, asOf)).map((each) => each.id)).toEqual([record.id]);
    const again = await exceptions.revoke(record, revocation('2026-11-25'));
    expect(again).toEqual({ outcome: 'already', standing: revocation('2026-11-24') });
    expect(await exceptions.inForce(today, asOf)).toEqual([]);
  });
});

describe('a store written before control indexes', () => {
  /** Records and a revocation as the versions before wrote them: no index, no metadata, the requester as approver. */
  async function legacyStore() {
    const store = new MemoryStore();
    const json = { contentType: 'application/json' };
    const active = exception('IAM-04', '2026-11-01', '2027-01-01', 'bob');
    const revoked = exception('IAM-05', '2026-11-01', '2027-02-01');
    const expired = exception('IAM-04', '2025-01-01', '2025-02-01');
    for (const { requestedBy, ...record } of [active, revoked, expired]) {
      const written = JSON.stringify({ ...record, approver: requestedBy });
      await store.create(`exceptions/expires=${record.expiresOn}/${record.id}.json`, written, json);
    }
    await store.create(
      `exception-revocations/expires=${revoked.expiresOn}/${revoked.id}.json`,
      JSON.stringify(revocation('2026-11-10')),
      json,
    );
    return { store, active, revoked, expired };
  }

  it('is found in the old layout, and once migrated has its exceptions in force again, twice over', async () => {
    const { store, active } = await legacyStore();
    expect(await hasLegacyLayout(store)).toBe(true);
    expect(await new ExceptionStore(store).inForce(today, asOf)).toEqual([]);
    const result = await migrateStore({ store, now: asOf, timeZone: 'UTC' });
    expect(result.exceptions).toEqual({ exceptions: 3, controls: 2 });
    expect(await hasLegacyLayout(store)).toBe(false);
    const { justification: _j, createdAt: _c, ...fields } = active;
    const inForce = { ...fields, approver: { uid: 'u-ana' }, independent: false };
    expect(await new ExceptionStore(store).inForce(today, asOf)).toEqual([inForce]);
    expect(await indexExceptions(store, asOf)).toEqual({ exceptions: 3, controls: 2 });
    expect(await new ExceptionStore(store).inForce(today, asOf)).toEqual([inForce]);
  });

  it('labels every record and revocation with its control, so a listing by control reads only what it shows', async () => {
    const { store, revoked } = await legacyStore();
    await indexExceptions(store, asOf);
    const recording = new RecordingStore(store);
    const page = await new ExceptionStore(recording).page({ state: 'ended', today, control: 'IAM-05', limit: 10 });
    expect([page.items.map((each) => [each.record.id, each.revocation?.at]), page.hasMore]).toEqual([
      [[revoked.id, '2026-11-10T10:00:00.000Z']],
      false,
    ]);
    expect(recording.of('read').sort()).toEqual([
      `exception-reviews/expires=2027-02-01/${revoked.id}.json`,
      `exception-revocations/expires=2027-02-01/${revoked.id}.json`,
      `exceptions/expires=2027-02-01/${revoked.id}.json`,
    ]);
  });

  it('reads a record written before reviews as requested and approved at once by its approver, and leaves it as written', async () => {
    const { store, active } = await legacyStore();
    const name = `exceptions/expires=${active.expiresOn}/${active.id}.json`;
    const before = (await store.read(name)).data.toString('utf8');
    await indexExceptions(store, asOf);
    const exceptions = new ExceptionStore(store);
    expect(await exceptions.get(active.id)).toEqual({
      record: active,
      review: {
        decision: 'approved',
        at: active.createdAt,
        by: { uid: 'u-ana' },
        comment: null,
        independent: false,
        caveat: caveats.recordedAtOnce,
      },
      revocation: undefined,
    });
    expect((await exceptions.page({ state: 'active', today, limit: 10 })).items.map((each) => each.record.id)).toEqual([
      active.id,
    ]);
    expect((await store.read(name)).data.toString('utf8')).toBe(before);
  });
});

describe('reviewing a request', () => {
  it('puts an exception in force only from its approval, and never a refused one', async () => {
    const exceptions = new ExceptionStore(new MemoryStore());
    const toApprove = exception('IAM-07', '2026-11-20', '2027-01-01');
    const toRefuse = exception('IAM-07', '2026-11-20', '2027-01-01', 'bob');
    for (const record of [toApprove, toRefuse]) await exceptions.create(record, '2026-11-20');
    expect(await exceptions.inForce(today, asOf)).toEqual([]);
    const ids = async (state: 'requested' | 'active' | 'refused') =>
      (await exceptions.page({ state, today, limit: 10 })).items.map((each) => each.record.id).sort();
    expect(await ids('requested')).toEqual([toApprove.id, toRefuse.id].sort());
    await exceptions.review(toApprove, review('approved', '2026-11-22'));
    await exceptions.review(toRefuse, review('refused', '2026-11-22'));
    expect(await exceptions.inForce(today, asOf)).toEqual([
      {
        id: toApprove.id,
        controlId: 'IAM-07',
        subject: null,
        expiresOn: '2027-01-01',
        approver: { uid: 'u-bo' },
        requestedBy: { uid: 'u-ana' },
        independent: true,
      },
    ]);
    // A report for a day before the approval does not apply it.
    expect(await exceptions.inForce('2026-11-21', new Date('2026-11-21T23:00:00Z'))).toEqual([]);
    expect([await ids('requested'), await ids('active'), await ids('refused')]).toEqual([[], [toApprove.id], [toRefuse.id]]);
  });

  it('keeps the first of two reviews made at once, and answers the other with the one that stands', async () => {
    const exceptions = new ExceptionStore(new MemoryStore());
    const record = exception('IAM-08', '2026-11-20', '2027-01-01');
    await exceptions.create(record, '2026-11-20');
    const [first, second] = await Promise.all([
      exceptions.review(record, review('approved', '2026-11-21', 'u-bo')),
      exceptions.review(record, review('refused', '2026-11-21', 'u-cy')),
    ]);
    expect([first, second]).toEqual([
      { outcome: 'recorded', standing: review('approved', '2026-11-21', 'u-bo') },
      { outcome: 'already', standing: review('approved', '2026-11-21', 'u-bo') },
    ]);
    expect((await exceptions.get(record.id))!.review).toEqual(review('approved', '2026-11-21', 'u-bo'));
    expect((await exceptions.inForce(today, asOf)).map((each) => each.id)).toEqual([record.id]);
  });

  it('puts right an index that missed a review by reviewing again', async () => {
    const recording = new RecordingStore(new MemoryStore());
    const exceptions = new ExceptionStore(recording);
    const record = exception('IAM-08', '2026-11-20', '2027-01-01');
    await exceptions.create(record, '2026-11-20');
    recording.before = (call) => {
      if (call.op === 'replace' && call.name === 'exception-index/IAM-08.json') throw new Error('the instance died');
    };
    await expect(exceptions.review(record, review('approved', '2026-11-21'))).rejects.toThrow('the instance died');
    recording.before = () => undefined;
    expect(await exceptions.inForce(today, asOf)).toEqual([]);
    const again = await exceptions.review(record, review('approved', '2026-11-22'));
    expect(again).toEqual({ outcome: 'already', standing: review('approved', '2026-11-21') });
    expect((await exceptions.inForce(today, asOf)).map((each) => each.id)).toEqual([record.id]);
  });
});
