/**
 * The daily job reads yesterday's checkpoint and the batches received since, not the history.
 * These tests hold it to the one thing that makes that safe: every report it stores is, byte
 * for byte, the report an evaluation of every item ever received would give — over random
 * histories with gaps between reports, late and early arrivals, items collected "in the
 * future", expiring and ageing evidence, attestations that scope controls out, and report
 * days in zones whose midnight is not UTC's.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { addDays, dayIn, endOfDay, startOfDay } from '../../../functions/src/assessment/dates.ts';
import { compileCatalog, evaluate } from '../../../functions/src/assessment/evaluate.ts';
import { EvidenceState, storedBytes } from '../../../functions/src/assessment/evidence-state.ts';
import type { EvidenceInput, EvidenceItem, Report } from '../../../functions/src/assessment/model.ts';
import { CheckpointStore } from '../../../functions/src/evidence/checkpoint-store.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import type { ObjectStore } from '../../../functions/src/storage/object-store.ts';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { everyItem } from '../../support/every-item.ts';
import { RecordingStore } from '../../support/recording-store.ts';

const compiled = compileCatalog(compileCatalogSources(paths.catalog));
const controlIds = compiled.catalog.controls.map((control) => control.id);
const kinds = Object.keys(evidenceKinds).filter((kind) => kind !== 'attestation') as EvidenceItem['kind'][];
const minute = 60_000;
const dayMs = 24 * 60 * minute;

beforeAll(() => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const) {
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  }
});

/** The kind's example with some booleans flipped and numbers scaled, so checks pass and fail. */
function vary(example: Record<string, unknown>, bits: number): Record<string, unknown> {
  let n = 0;
  return Object.fromEntries(
    Object.entries(example).map(([key, value]) => {
      const bit = (bits >> (n++ % 16)) & 1;
      if (typeof value === 'boolean') return [key, bit ? !value : value];
      if (typeof value === 'number') return [key, bit ? value * 3 + 7 : value];
      return [key, value];
    }),
  );
}

interface ItemSpec {
  kind: number;
  subject: number;
  /** Day of arrival, from the first day. */
  day: number;
  /** Minutes after the day's run (negative: before it), so arrivals cluster where the checkpoints cut. */
  receivedFromRun: number;
  /** Minutes collected before arrival (negative: "in the future", a collector with a fast clock). */
  collectedBefore: number;
  /** Minutes between being stamped received and becoming visible (a slow writer), within the store's settle time. */
  commitDelay: number;
  bits: number;
  expiresAfterDays: number | null;
  effectiveDaysEarlier: number | null;
  attestation: { controls: number[]; notApplicable: boolean } | null;
}

const itemSpec: fc.Arbitrary<ItemSpec> = fc.record({
  kind: fc.nat({ max: kinds.length - 1 }),
  subject: fc.nat({ max: 3 }),
  day: fc.nat({ max: 9 }),
  receivedFromRun: fc.oneof(fc.integer({ min: -12, max: 12 }), fc.integer({ min: -600, max: 900 })),
  collectedBefore: fc.oneof(fc.integer({ min: -30, max: 60 }), fc.integer({ min: 0, max: 60 * 24 * 40 })),
  commitDelay: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 })),
  bits: fc.nat({ max: 0xffff }),
  expiresAfterDays: fc.option(fc.integer({ min: -2, max: 5 })),
  effectiveDaysEarlier: fc.option(fc.nat({ max: 120 })),
  attestation: fc.option(
    fc.record({
      controls: fc.uniqueArray(fc.nat({ max: controlIds.length - 1 }), { minLength: 0, maxLength: 3 }),
      notApplicable: fc.boolean(),
    }),
    { freq: 4 },
  ),
});

interface History {
  timeZone: string;
  runAt: number[];
  runs: boolean[];
  backfills: boolean[];
  items: ItemSpec[];
}

const history: fc.Arbitrary<History> = fc.record({
  timeZone: fc.constantFrom('UTC', 'America/Los_Angeles', 'Asia/Tokyo'),
  /** Minutes after local midnight the daily job runs, per day. */
  runAt: fc.array(fc.integer({ min: 60, max: 23 * 60 }), { minLength: 10, maxLength: 10 }),
  /** Which days have a run; the others are gaps. */
  runs: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
  /** Days whose run also backfills the day before, when it has no report. */
  backfills: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
  items: fc.array(itemSpec, { maxLength: 60 }),
});

const firstDay = '2026-03-04'; // Los Angeles moves its clocks on 2026-03-08

function runTime(timeZone: string, day: number, runAt: readonly number[]): number {
  return startOfDay(timeZone, addDays(firstDay, day)).getTime() + runAt[day]! * minute;
}

function toItem(spec: ItemSpec, n: number, receivedAt: number): { input: EvidenceInput; receivedAt: number } {
  const collectedAt = receivedAt - spec.collectedBefore * minute;
  const common = {
    id: `p-${String(n).padStart(3, '0')}`,
    source: 'property',
    collectedAt: new Date(collectedAt).toISOString(),
    ...(spec.expiresAfterDays === null ? {} : { expiresAt: new Date(collectedAt + spec.expiresAfterDays * dayMs).toISOString() }),
    ...(spec.effectiveDaysEarlier === null
      ? {}
      : { effectiveDate: new Date(collectedAt - spec.effectiveDaysEarlier * dayMs).toISOString().slice(0, 10) }),
  };
  const input: EvidenceInput = spec.attestation
    ? {
        ...common,
        kind: 'attestation',
        subject: `policy-${spec.subject}`,
        controls: spec.attestation.controls.map((index) => controlIds[index]!),
        data: { statement: `statement ${n}`, ...(spec.attestation.notApplicable ? { notApplicable: true } : {}) },
      }
    : {
        ...common,
        kind: kinds[spec.kind]!,
        subject: `subject-${spec.subject}`,
        data: vary(evidenceKinds[kinds[spec.kind]!].example as Record<string, unknown>, spec.bits),
      };
  return { input, receivedAt };
}

type Step = { at: number; item: { input: EvidenceInput; receivedAt: number } } | { at: number; run: string };

/**
 * The history as a timeline: arrivals when they become visible (a slow writer's items are
 * stamped before that), and daily runs (a backfill runs right after its day's run).
 */
function timeline(h: History): Step[] {
  const steps: Step[] = h.items.map((spec, n) => {
    const receivedAt = runTime(h.timeZone, spec.day, h.runAt) + spec.receivedFromRun * minute;
    return { at: receivedAt + spec.commitDelay * minute, item: toItem(spec, n, receivedAt) };
  });
  h.runs.forEach((runs, day) => {
    const at = runTime(h.timeZone, day, h.runAt);
    if (runs) steps.push({ at, run: addDays(firstDay, day) });
    if (day > 0 && h.backfills[day]) steps.push({ at: at + 1, run: addDays(firstDay, day - 1) });
  });
  // Arrivals at the very instant of a run are before it, as the full-history reading counts them.
  return steps.sort((a, b) => a.at - b.at || ('item' in a ? -1 : 1) - ('item' in b ? -1 : 1));
}

/** Replays a history through the product, and beside it evaluates every item received so far. */
async function replay(h: History, store: ObjectStore) {
  const evidence = new EvidenceStore(store);
  const reports = new ReportStore(store);
  const checkpoints = new CheckpointStore(store);
  const received: EvidenceItem[] = [];
  const expected = new Map<string, Report>();
  const compared: { date: string; stored: string; full: string }[] = [];
  for (const step of timeline(h)) {
    if ('item' in step) {
      await evidence.ingest([step.item.input], { receivedAt: new Date(step.item.receivedAt) });
      received.push({
        ...step.item.input,
        id: step.item.input.id!,
        receivedAt: new Date(step.item.receivedAt).toISOString(),
        attachments: [],
      });
      continue;
    }
    const now = new Date(step.at);
    if (step.run > dayIn(h.timeZone, now)) continue;
    const { stored, created } = await produceDailyReport({
      store,
      catalog: compiled,
      timeZone: h.timeZone,
      now,
      date: step.run,
      trigger: 'property',
      evidence: new EvidenceStore(store), // a fresh instance each run: nothing carried over in memory
      reports,
      checkpoints,
    });
    if (!created) continue;
    const end = endOfDay(h.timeZone, step.run);
    const previous = [...expected.values()]
      .filter((report) => report.date < step.run)
      .sort((a, b) => (a.date < b.date ? 1 : -1))[0];
    const full = evaluate(compiled, {
      date: step.run,
      timeZone: h.timeZone,
      asOf: now < end ? now : end,
      generatedAt: now,
      runId: stored.report.runId,
      evidence: received,
      previous: previous ?? null,
    });
    expected.set(step.run, full);
    compared.push({ date: step.run, stored: stored.bytes.toString('utf8'), full: JSON.stringify(full) });
  }
  return { compared, received, evidence };
}

/** The daily job of a day at 06:00 UTC on a store, as the schedule would run it. */
const runDay = (store: ObjectStore, evidence: EvidenceStore, date: string) =>
  produceDailyReport({
    store,
    catalog: compiled,
    timeZone: 'UTC',
    now: new Date(`${date}T06:00:00Z`),
    date,
    trigger: 'test',
    evidence,
    reports: new ReportStore(store),
  });

describe('the daily job on checkpoints', () => {
  it('stores, on every random history, exactly the report an evaluation of every item received would give', async () => {
    let reportsCompared = 0;
    await fc.assert(
      fc.asyncProperty(history, async (h) => {
        const { compared } = await replay(h, new MemoryStore());
        for (const { stored, full } of compared) expect(stored).toBe(full);
        reportsCompared += compared.length;
      }),
      { numRuns: 60 },
    );
    // The property held over many reports, not over histories that happened to produce none.
    expect(reportsCompared).toBeGreaterThan(200);
  }, 120_000);

  it('reads only the batches received since the last checkpoint, across a gap of days without a report', async () => {
    const store = new RecordingStore(new MemoryStore());
    const timeZone = 'UTC';
    const evidence = new EvidenceStore(store);
    const reports = new ReportStore(store);
    const checkpoints = new CheckpointStore(store);
    const at = (date: string, hour: number) => new Date(`${date}T${String(hour).padStart(2, '0')}:00:00Z`);
    const ingestDay = async (date: string) => {
      for (let batch = 0; batch < 3; batch++) {
        const inputs = Array.from({ length: 10 }, (_, n): EvidenceInput => ({
          kind: 'idp.user',
          source: 'idp',
          subject: `user-${n}`,
          collectedAt: at(date, 2).toISOString(),
          data: { ...(evidenceKinds['idp.user'].example as Record<string, unknown>) },
        }));
        await evidence.ingest(inputs, {
          receivedAt: new Date(at(date, 3).getTime() + batch * minute),
        });
      }
    };
    const run = (date: string) =>
      produceDailyReport({
        store,
        catalog: compiled,
        timeZone,
        now: at(date, 6),
        date,
        trigger: 'test',
        evidence,
        reports,
        checkpoints,
      });

    for (const date of ['2026-05-01', '2026-05-02']) {
      await ingestDay(date);
      await run(date);
    }
    // Three days of evidence and no report (the schedule did not run), then a report.
    for (const date of ['2026-05-03', '2026-05-04', '2026-05-05']) await ingestDay(date);
    store.reset();
    const { stored } = await run('2026-05-05');
    const batchReads = store.of('read').filter((name) => name.startsWith('evidence/'));
    expect(batchReads).toHaveLength(9);
    expect(new Set(batchReads.map((name) => name.slice(0, 'evidence/received=2026-05-03'.length)))).toEqual(
      new Set(['evidence/received=2026-05-03', 'evidence/received=2026-05-04', 'evidence/received=2026-05-05']),
    );
    // The three days' batches in one listing: their names start with their arrival time.
    expect(store.of('list').filter((prefix) => prefix.startsWith('evidence/'))).toEqual(['evidence/']);
    expect(store.of('read').filter((name) => name.startsWith('state/'))).toEqual([
      'state/day=2026-05-05/manifest.json',
      'state/day=2026-05-04/manifest.json',
      'state/day=2026-05-02/manifest.json',
      expect.stringMatching(/^state\/day=2026-05-02\/[0-9a-f]{12}-0000\.ndjson$/),
    ]);
    expect(stored.report.summary.controls).toBe(compiled.catalog.controls.length);
  });

  it('counts a late arrival (collected days ago, received today) today, and not in the reports already stored', async () => {
    const store = new MemoryStore();
    const evidence = new EvidenceStore(store);
    const reports = new ReportStore(store);
    const example = evidenceKinds['backup.restore_test'].example as Record<string, unknown>;
    const run = (date: string) => runDay(store, evidence, date);
    await run('2026-06-01');
    const before = (await run('2026-06-02')).stored.report;
    await evidence.ingest(
      [
        {
          id: 'late-restore',
          kind: 'backup.restore_test',
          source: 'backup',
          subject: 'db',
          collectedAt: '2026-05-30T10:00:00Z',
          data: example,
        },
      ],
      { receivedAt: new Date('2026-06-03T01:00:00Z') },
    );
    const after = (await run('2026-06-03')).stored.report;
    const cites = (report: Report) => report.controls.some((control) => control.evidence.includes('late-restore'));
    expect(cites(before)).toBe(false);
    expect(cites(after)).toBe(true);
    expect((await reports.find('2026-06-02'))!.bytes.toString()).toBe(JSON.stringify(before));
  });

  it('turns evidence stale as it ages past its freshness window, with no new item received', async () => {
    const store = new MemoryStore();
    const evidence = new EvidenceStore(store);
    const control = compiled.catalog.controls.find((candidate) =>
      candidate.evidence.some((need) => need.kind === 'tls.endpoint'),
    )!;
    const window = control.evidence.find((need) => need.kind === 'tls.endpoint')!.freshnessDays;
    await evidence.ingest(
      [
        {
          id: 'tls-once',
          kind: 'tls.endpoint',
          source: 'scanner',
          subject: 'www.example.com',
          collectedAt: '2026-07-01T02:00:00Z',
          data: evidenceKinds['tls.endpoint'].example as Record<string, unknown>,
        },
      ],
      { receivedAt: new Date('2026-07-01T02:01:00Z') },
    );
    const statusOn = async (date: string) => {
      const { stored } = await runDay(store, evidence, date);
      return stored.report.controls
        .find((result) => result.id === control.id)!
        .findings.filter((f) => f.subject === 'www.example.com');
    };
    expect((await statusOn('2026-07-01')).map((finding) => finding.outcome)).not.toContain('stale');
    const later = addDays('2026-07-01', window + 1);
    expect((await statusOn(later)).map((finding) => finding.outcome)).toEqual(['stale']);
    expect(await everyItem(store)).toHaveLength(1);
  });
});

describe('EvidenceState', () => {
  const item = (id: string, collectedAt: string, extra: Partial<EvidenceItem> = {}): EvidenceItem => ({
    id,
    kind: 'idp.user',
    source: 's',
    subject: 'ada',
    collectedAt,
    receivedAt: collectedAt,
    data: {},
    attachments: [],
    ...extra,
  });

  it('keeps the newest item per kind and subject, whatever order they are added in', () => {
    const items = [item('a', '2026-01-01T00:00:00Z'), item('c', '2026-01-03T00:00:00Z'), item('b', '2026-01-02T00:00:00Z')];
    for (const order of [items, [...items].reverse()]) {
      const state = new EvidenceState(Date.parse('2026-02-01T00:00:00Z'));
      for (const each of order) state.add(each);
      expect(state.items().map((kept) => kept.id)).toEqual(['c']);
    }
  });

  it('keeps items collected after its asOf until it moves past them', () => {
    const state = new EvidenceState(Date.parse('2026-01-02T00:00:00Z'));
    state.add(item('old', '2026-01-01T00:00:00Z'));
    state.add(item('soon', '2026-01-03T00:00:00Z'));
    state.add(item('later', '2026-01-05T00:00:00Z'));
    expect(state.items().map((kept) => kept.id)).toEqual(['later', 'old', 'soon']);
    state.advance(Date.parse('2026-01-04T00:00:00Z'));
    expect(state.items().map((kept) => kept.id)).toEqual(['later', 'soon']);
    expect(() => state.advance(Date.parse('2026-01-01T00:00:00Z'))).toThrow(RangeError);
  });

  it('keeps an attestation while it is the newest for any control it names', () => {
    const state = new EvidenceState(Date.parse('2026-02-01T00:00:00Z'));
    state.add(item('both', '2026-01-01T00:00:00Z', { kind: 'attestation', controls: ['IAM-01', 'IAM-02'] }));
    state.add(item('one', '2026-01-02T00:00:00Z', { kind: 'attestation', controls: ['IAM-01'] }));
    state.add(item('none', '2026-01-03T00:00:00Z', { kind: 'attestation', controls: [] }));
    expect(state.items().map((kept) => kept.id)).toEqual(['both', 'one']);
  });
});

describe('EvidenceState within its budget', () => {
  const user = (id: string, subject: string, day: number, extra: Partial<EvidenceItem> = {}): EvidenceItem => ({
    id,
    kind: 'idp.user',
    source: 's',
    subject,
    collectedAt: `2026-01-0${day}T00:00:00.000Z`,
    receivedAt: `2026-01-0${day}T00:00:00.000Z`,
    data: { note: 'x'.repeat(100) },
    attachments: [],
    ...extra,
  });
  const asOf = Date.parse('2026-02-01T00:00:00Z');

  it('sets aside an item that would take it past its budget, counted by what reads it, and keeps one that replaces its own', () => {
    const [ada, bob, cy] = [user('a1', 'ada', 1), user('b1', 'bob', 1), user('c1', 'cy', 1)];
    const state = new EvidenceState(asOf, storedBytes(ada) + storedBytes(bob));
    for (const item of [ada, bob, cy]) state.add(item);
    // A newer, smaller item of a subject held fits in the room its older one leaves.
    const adaLater = user('a2', 'ada', 2, { data: {} });
    state.add(adaLater);
    const attested = user('t1', 'policy', 1, { kind: 'attestation', controls: ['GOV-01', 'IAM-01'] });
    state.add(attested);
    expect(state.items().map((item) => item.id)).toEqual(['a2', 'b1']);
    expect(state.bytes).toBe(storedBytes(adaLater) + storedBytes(bob));
    expect(state.setAside).toEqual({
      items: 2,
      bytes: storedBytes(cy) + storedBytes(attested),
      budgetBytes: storedBytes(ada) + storedBytes(bob),
      byReader: new Map([
        ['idp.user', 1],
        ['attestation\u0001GOV-01', 1],
        ['attestation\u0001IAM-01', 1],
      ]),
    });
  });

  it("keeps the item that carries a finding's texts while another item names it, whatever the order", () => {
    const finding = (id: string, subject: string, day: number, data: Record<string, unknown>): EvidenceItem =>
      user(id, subject, day, { kind: 'scanner.finding', data: { check: 'c', findingUid: 'f', ...data } });
    const carrier = finding('x', 'r1', 1, { message: 'M', resourceCount: 2 });
    const other = finding('y', 'r2', 1, { textsIn: 'x' });
    const newer = finding('z', 'r1', 2, { message: 'fixed' });
    for (const order of [
      [carrier, other, newer],
      [newer, other, carrier],
      [other, newer, carrier],
    ]) {
      const state = new EvidenceState(asOf);
      for (const item of order) state.add(item);
      expect(state.items().map((item) => item.id)).toEqual(['x', 'y', 'z']);
      // Once r2 is scanned again, nothing names it: it is left out.
      state.add(finding('w', 'r2', 2, { message: 'fixed too' }));
      expect(state.items().map((item) => item.id)).toEqual(['w', 'z']);
    }
  });
});

describe('the daily job over its budget', () => {
  it('still publishes, failing each control that reads what it set aside with the reason, and saves no checkpoint', async () => {
    const setAside = vi.spyOn(logs, 'evidenceSetAside').mockImplementation(() => undefined);
    const store = new RecordingStore(new MemoryStore());
    const evidence = new EvidenceStore(store, { settleMs: 0 });
    const users = Array.from({ length: 10 }, (_, n): EvidenceInput => ({
      id: `user-${n}`,
      kind: 'idp.user',
      source: 'idp',
      subject: `user-${n}@example.com`,
      collectedAt: '2026-05-01T02:00:00Z',
      data: { ...(evidenceKinds['idp.user'].example as Record<string, unknown>) },
    }));
    await evidence.ingest(users, { receivedAt: new Date('2026-05-01T03:00:00Z') });
    const stored = await evidence.readBatch((await everyBatch(evidence))[0]!);
    // Room for the first three users, in the order they are read.
    const budget = stored.slice(0, 3).reduce((total, item) => total + storedBytes(item), 0);
    store.reset();
    const { stored: report, created } = await produceDailyReport({
      store,
      catalog: compiled,
      timeZone: 'UTC',
      now: new Date('2026-05-01T06:00:00Z'),
      date: '2026-05-01',
      trigger: 'test',
      evidence,
      stateBudgetBytes: budget,
    });
    expect(created).toBe(true);
    const iam01 = report.report.controls.find((result) => result.id === 'IAM-01')!;
    expect([iam01.status, iam01.findings[0]]).toEqual([
      'failing',
      {
        outcome: 'error',
        kind: 'idp.user',
        message:
          '7 idp.user items were left out of this evaluation: the evidence it holds would have been larger than its ' +
          `budget of ${budget.toLocaleString('en')} bytes (docs/storage.md). IAM-01 cannot pass until the evidence fits.`,
        evidence: [],
      },
    ]);
    // Every control that reads idp.user fails; those that do not are untouched.
    const readers = compiled.catalog.controls.filter((control) => control.evidence.some((r) => r.kind === 'idp.user'));
    for (const control of readers) {
      expect(report.report.controls.find((result) => result.id === control.id)!.status).toBe('failing');
    }
    const others = report.report.controls.filter((result) => !readers.some((control) => control.id === result.id));
    expect(others.flatMap((result) => result.findings).filter((finding) => finding.message.includes('left out'))).toEqual([]);
    expect(store.of('create').filter((name) => name.startsWith('state/'))).toEqual([]);
    expect(setAside.mock.calls).toEqual([
      ['2026-05-01', 7, stored.slice(3).reduce((t, item) => t + storedBytes(item), 0), budget],
    ]);
    setAside.mockRestore();
  });
});

async function everyBatch(evidence: EvidenceStore): Promise<string[]> {
  const names: string[] = [];
  for await (const name of evidence.batchesBetween(-Infinity, Infinity)) names.push(name);
  return names;
}
