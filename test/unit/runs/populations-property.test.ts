/**
 * The evidence-state property extended to collection runs: over random histories of runs
 * (complete, abandoned, cancelled, with counts that disagree, overlapping, late, with drops
 * acknowledged before or after a report) and items sent outside any run, every report the daily
 * job stores — from checkpoints and the run store — is, byte for byte, the report an evaluation
 * of every item received would give with the populations an independent reading of the same
 * history says (the oracle below, written from docs/collectors.md, not from the run store).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../../functions/src/assessment/dates.ts';
import { compileCatalog, evaluate } from '../../../functions/src/assessment/evaluate.ts';
import type { EvidenceInput, EvidenceItem, Report, SourcePopulation } from '../../../functions/src/assessment/model.ts';
import { subjectsDigest } from '../../../functions/src/assessment/populations.ts';
import { CheckpointStore } from '../../../functions/src/evidence/checkpoint-store.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { RunStore } from '../../../functions/src/runs/run-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';

const compiled = compileCatalog(compileCatalogSources(paths.catalog));
const minute = 60_000;
const hour = 60 * minute;
const abandonHours = 6;
const dropPercent = 10;
const firstDay = '2026-05-04';
const sources = ['okta', 'mdm'] as const;
const kinds = ['idp.user', 'endpoint.device'] as const;
type Kind = (typeof kinds)[number];
const actor = { uid: 'u-collector', email: 'collector@example.com' };

beforeAll(() => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const) {
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  }
});

interface RunSpec {
  source: number;
  day: number;
  /** Minutes after midnight UTC it opens. */
  opensAt: number;
  kinds: number; // 1: users, 2: devices, 3: both
  /** Per kind, which of five subjects it reports (a bit each). */
  users: number;
  devices: number;
  bits: number;
  end: 'complete' | 'late' | 'mismatch' | 'cancel' | 'never';
  /** Hours after it ends that someone acknowledges its drops, if anyone does. */
  acknowledgeAfter: number | null;
}

interface LooseSpec {
  source: number;
  kind: number;
  subject: number;
  day: number;
  at: number;
  bits: number;
}

const runSpec: fc.Arbitrary<RunSpec> = fc.record({
  source: fc.nat({ max: 1 }),
  day: fc.nat({ max: 6 }),
  opensAt: fc.integer({ min: 0, max: 23 * 60 }),
  kinds: fc.integer({ min: 1, max: 3 }),
  users: fc.nat({ max: 31 }),
  devices: fc.nat({ max: 31 }),
  bits: fc.nat({ max: 0xff }),
  end: fc.constantFrom('complete', 'complete', 'late', 'mismatch', 'cancel', 'never'),
  acknowledgeAfter: fc.option(fc.integer({ min: 1, max: 30 })),
});

const looseSpec: fc.Arbitrary<LooseSpec> = fc.record({
  source: fc.nat({ max: 2 }),
  kind: fc.nat({ max: 1 }),
  subject: fc.nat({ max: 4 }),
  day: fc.nat({ max: 6 }),
  at: fc.integer({ min: 0, max: 23 * 60 }),
  bits: fc.nat({ max: 0xff }),
});

const history = fc.record({
  runs: fc.array(runSpec, { maxLength: 10 }),
  loose: fc.array(looseSpec, { maxLength: 12 }),
  /** Minutes after midnight UTC each day's report is made; null for a day without one. */
  reports: fc.array(fc.option(fc.integer({ min: 30, max: 23 * 60 }), { nil: null }), { minLength: 8, maxLength: 8 }),
});
type History = typeof history extends fc.Arbitrary<infer T> ? T : never;

const dayStart = (day: number) => Date.parse(`${addDays(firstDay, day)}T00:00:00Z`);
const subjectsOf = (mask: number, prefix: string) => [0, 1, 2, 3, 4].filter((n) => mask & (1 << n)).map((n) => `${prefix}${n}`);

/** A subject's item: users named u0…u4, devices d0…d4 owned by a user, with data that passes some checks and fails others. */
function itemOf(kind: Kind, subject: string, source: string, collectedAt: number, bits: number, id: string): EvidenceInput {
  const n = Number(subject.slice(1));
  const data =
    kind === 'idp.user'
      ? {
          email: subject,
          active: (bits >> n) % 4 !== 3,
          mfaEnabled: ((bits >> n) & 1) === 0,
          phishingResistantMfa: true,
          admin: false,
          lastLoginDaysAgo: 1,
          employmentStatus: 'active',
        }
      : {
          owner: `u${(n + (bits & 1)) % 5}`,
          platform: 'macos',
          diskEncrypted: ((bits >> n) & 1) === 0,
          edrInstalled: true,
          edrHealthy: true,
          osSupported: true,
          osPatchAgeDays: 3,
          screenLockMinutes: 5,
          firewallEnabled: true,
        };
  return { id, kind, source, subject, collectedAt: new Date(collectedAt).toISOString(), data };
}

type Step =
  | { at: number; open: number }
  | { at: number; batch: number }
  | { at: number; end: number }
  | { at: number; acknowledge: number }
  | { at: number; loose: number }
  | { at: number; report: string };

/** Every event of the history in time order; the same instant keeps the order events are listed in. */
function timeline(h: History): Step[] {
  const steps: Step[] = [];
  h.runs.forEach((run, n) => {
    // Each run its own minute-and-seconds, so no two events of different runs share an instant.
    const opens = dayStart(run.day) + run.opensAt * minute + n * 1_000;
    steps.push({ at: opens, open: n }, { at: opens + 10 * minute, batch: n });
    if (run.end !== 'never') steps.push({ at: opens + (run.end === 'late' ? 3 * hour : hour), end: n });
    if (run.acknowledgeAfter !== null && run.end !== 'never')
      steps.push({ at: opens + (run.end === 'late' ? 3 : 1) * hour + run.acknowledgeAfter * hour, acknowledge: n });
  });
  h.loose.forEach((item, n) => steps.push({ at: dayStart(item.day) + item.at * minute + 500 + n, loose: n }));
  h.reports.forEach((at, day) => {
    if (at !== null) steps.push({ at: dayStart(day) + at * minute + 250, report: addDays(firstDay, day) });
  });
  return steps
    .map((step, order) => ({ step, order }))
    .sort((a, b) => a.step.at - b.step.at || a.order - b.order)
    .map(({ step }) => step);
}

/** What happened to a run, as the oracle knows it: when it opened and ended, how, and what it reported. */
interface RunFacts {
  id: string;
  source: string;
  kinds: Kind[];
  openedAt: number;
  expiresAt: number;
  ended?: { at: number; status: 'complete' | 'counts_disagree' | 'cancelled' };
  subjects: Map<Kind, string[]>;
  drops: Map<Kind, { previousRunId: string; previousCount: number; percent: number }>;
  acknowledgedAt?: number;
}

/**
 * The oracle: the populations as of a cut-off, read from the facts, as docs/collectors.md states
 * them — the newest complete run (by completion) that ended before the cut-off; the newest run
 * (by opening) that had ended or expired by then, when it is not complete.
 */
function oracle(facts: readonly RunFacts[], cutoff: number): SourcePopulation[] {
  const populations: SourcePopulation[] = [];
  for (const source of [...sources].sort()) {
    for (const kind of [...kinds].sort()) {
      const runs = facts.filter((run) => run.source === source && run.kinds.includes(kind) && run.openedAt < cutoff);
      if (runs.length === 0) continue;
      const decided = [...runs]
        .sort((a, b) => b.openedAt - a.openedAt)
        .map((run) => ({ run, outcome: outcomeAt(run, cutoff) }))
        .find(({ outcome }) => outcome !== undefined);
      if (!decided) continue;
      const complete = runs
        .filter((run) => run.ended?.status === 'complete' && run.ended.at < cutoff)
        .sort((a, b) => b.ended!.at - a.ended!.at)[0];
      const subjects = complete ? [...complete.subjects.get(kind)!].sort() : [];
      const drop = complete?.drops.get(kind);
      populations.push({
        source,
        kind,
        ...(complete
          ? {
              complete: {
                runId: complete.id,
                openedAt: new Date(complete.openedAt).toISOString(),
                endedAt: new Date(complete.ended!.at).toISOString(),
                count: subjects.length,
                sha256: subjectsDigest(subjects),
                subjects: new Set(subjects),
                ...(drop
                  ? { drop: { ...drop, acknowledged: complete.acknowledgedAt !== undefined && complete.acknowledgedAt < cutoff } }
                  : {}),
              },
            }
          : {}),
        ...(decided.outcome!.status === 'complete' ? {} : { incomplete: decided.outcome!.incomplete }),
      });
    }
  }
  return populations;
}

function outcomeAt(run: RunFacts, cutoff: number) {
  if (run.ended && run.ended.at < cutoff) {
    if (run.ended.status === 'complete') return { status: 'complete' as const };
    const reason = run.ended.status;
    return {
      status: 'incomplete' as const,
      incomplete: { runId: run.id, reason, endedAt: new Date(run.ended.at).toISOString() },
    };
  }
  if (run.expiresAt <= cutoff) {
    return {
      status: 'incomplete' as const,
      incomplete: { runId: run.id, reason: 'abandoned' as const, endedAt: new Date(run.expiresAt).toISOString() },
    };
  }
  return undefined;
}

/** Replays a history through the product, and beside it evaluates every item received with the oracle's populations. */
async function replay(h: History) {
  const store = new MemoryStore();
  const evidence = new EvidenceStore(store);
  const reports = new ReportStore(store);
  const checkpoints = new CheckpointStore(store);
  const runStore = new RunStore(
    store,
    () => abandonHours,
    () => dropPercent,
  );
  const received: EvidenceItem[] = [];
  const facts: RunFacts[] = [];
  const expected: Report[] = [];
  const compared: { stored: string; full: string }[] = [];
  const receive = async (items: EvidenceInput[], at: number) => {
    await evidence.ingest(items, { receivedAt: new Date(at) });
    for (const input of items)
      received.push({ ...input, id: input.id!, receivedAt: new Date(at).toISOString(), attachments: [] });
  };
  for (const step of timeline(h)) {
    if ('open' in step) {
      const spec = h.runs[step.open]!;
      const runKinds = kinds.filter((_, index) => spec.kinds & (1 << index));
      const run = await runStore.open({ source: sources[spec.source]!, kinds: runKinds, openedBy: actor }, new Date(step.at));
      facts[step.open] = {
        id: run.id,
        source: run.source,
        kinds: runKinds,
        openedAt: step.at,
        expiresAt: Date.parse(run.expiresAt),
        subjects: new Map(
          runKinds.map((kind) => [
            kind,
            subjectsOf(kind === 'idp.user' ? spec.users : spec.devices, kind === 'idp.user' ? 'u' : 'd'),
          ]),
        ),
        drops: new Map(),
      };
    } else if ('batch' in step) {
      const spec = h.runs[step.batch]!;
      const run = facts[step.batch]!;
      const items = run.kinds.flatMap((kind) =>
        run.subjects
          .get(kind)!
          .map((subject) => itemOf(kind, subject, run.source, step.at - 5 * minute, spec.bits, `${run.id}-${subject}`)),
      );
      if (items.length > 0) await receive(items, step.at);
      await runStore.recordBatch(
        run.id,
        items.map((item) => ({ id: item.id!, kind: item.kind, subject: item.subject })),
      );
    } else if ('end' in step) {
      const spec = h.runs[step.end]!;
      const run = facts[step.end]!;
      if (spec.end === 'cancel') {
        await runStore.cancel(run.id, undefined, actor, new Date(step.at));
        run.ended = { at: step.at, status: 'cancelled' };
        continue;
      }
      const off = spec.end === 'mismatch' ? 1 : 0;
      const declared = Object.fromEntries(run.kinds.map((kind) => [kind, run.subjects.get(kind)!.length + off]));
      // Past its expiry a run is refused (abandoned); `late` runs end within it.
      const ended = await runStore.complete(run.id, declared, actor, new Date(step.at));
      run.ended = { at: step.at, status: ended.status === 'complete' ? 'complete' : 'counts_disagree' };
      if (run.ended.status === 'complete') {
        for (const kind of run.kinds) {
          const previous = facts
            .filter(
              (other) =>
                other !== run && other.source === run.source && other.kinds.includes(kind) && other.ended?.status === 'complete',
            )
            .sort((a, b) => b.ended!.at - a.ended!.at)[0];
          if (!previous) continue;
          const previousCount = previous.subjects.get(kind)!.length;
          const count = run.subjects.get(kind)!.length;
          if ((previousCount - count) * 100 > dropPercent * previousCount) {
            run.drops.set(kind, {
              previousRunId: previous.id,
              previousCount,
              percent: Math.round(((previousCount - count) * 1000) / previousCount) / 10,
            });
          }
        }
      }
    } else if ('acknowledge' in step) {
      const run = facts[step.acknowledge]!;
      for (const kind of run.drops.keys()) {
        await runStore.acknowledgeDrop(run.id, kind, { by: actor, reason: 'Checked.' }, new Date(step.at));
        run.acknowledgedAt = step.at;
      }
    } else if ('loose' in step) {
      const spec = h.loose[step.loose]!;
      const kind = kinds[spec.kind]!;
      const source = spec.source === 2 ? 'hand-upload' : sources[spec.source]!;
      await receive(
        [
          itemOf(
            kind,
            `${kind === 'idp.user' ? 'u' : 'd'}${spec.subject}`,
            source,
            step.at - minute,
            spec.bits,
            `loose-${step.loose}`,
          ),
        ],
        step.at,
      );
    } else {
      const now = new Date(step.at);
      const { stored, created } = await produceDailyReport({
        store,
        catalog: compiled,
        timeZone: 'UTC',
        now,
        date: step.report,
        trigger: 'property',
        evidence: new EvidenceStore(store),
        reports,
        checkpoints,
      });
      if (!created) continue;
      const full = evaluate(compiled, {
        date: step.report,
        timeZone: 'UTC',
        asOf: now,
        generatedAt: now,
        runId: stored.report.runId,
        evidence: received,
        previous: expected[expected.length - 1] ?? null,
        populations: oracle(facts.filter(Boolean), step.at),
      });
      expected.push(full);
      compared.push({ stored: stored.bytes.toString('utf8'), full: JSON.stringify(full) });
    }
  }
  return compared;
}

describe('the daily job with collection runs', () => {
  it('stores, on every random history of runs, exactly the report evaluating every item with the populations would give', async () => {
    let compared = 0;
    let withCompleteness = 0;
    let withRuns = 0;
    await fc.assert(
      fc.asyncProperty(history, async (h) => {
        for (const { stored, full } of await replay(h)) {
          expect(stored).toBe(full);
          compared++;
          if (stored.includes('"completeness"')) withCompleteness++;
          if (stored.includes('"runs":[{')) withRuns++;
        }
      }),
      { numRuns: 100 },
    );
    // The property held over many reports, many of them shaped by runs and their doubts.
    expect(compared).toBeGreaterThan(150);
    expect(withRuns).toBeGreaterThan(50);
    expect(withCompleteness).toBeGreaterThan(30);
  }, 120_000);
});
