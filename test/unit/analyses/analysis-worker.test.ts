/**
 * The analysis worker in process, over a real local-folder store holding demo evidence: its
 * events match the engine's own evaluation, a crashed attempt resumes without duplicating or
 * reordering anything, twin attempts write one sequence, a cancel stops it, the last attempt
 * marks the run failed, and publishing merges into today's report with a compare-and-swap; with
 * submission review required, the reviews are read once and what awaits review is published.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeRun, type AnalysisEvent, type RunRecord } from '../../../functions/src/analyses/analysis-model.ts';
import { abandonedAfterMs, AnalysisStore } from '../../../functions/src/analyses/analysis-store.ts';
import { runAnalysis, type WorkerDeps } from '../../../functions/src/analyses/analysis-worker.ts';
import { compileCatalog, evaluate } from '../../../functions/src/assessment/evaluate.ts';
import { describeRunFailure } from '../../../functions/src/http/domain-problems.ts';
import { seedDemoHistory } from '../../../scripts/lib/demo/seed.ts';
import { CheckpointStore } from '../../../functions/src/evidence/checkpoint-store.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { reportObjectName, ReportStore } from '../../../functions/src/reports/report-store.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { everyItem } from '../../support/every-item.ts';
import { demoSeedDependencies } from '../../support/demo-seed.ts';

const compiled = compileCatalog(compileCatalogSources(paths.catalog));
const today = '2026-11-21';
const now = new Date('2026-11-21T09:00:00Z');
let dir: string;
let store: LocalFolderStore;

/** A fresh set of stores over the same folder, as a separate worker instance would have. */
function instance(overrides: Partial<WorkerDeps> = {}): WorkerDeps {
  return {
    analyses: new AnalysisStore(store),
    evidence: new EvidenceStore(store),
    checkpoints: new CheckpointStore(store),
    reports: new ReportStore(store),
    compiled,
    timeZone: 'UTC',
    now: () => now,
    describeFailure: describeRunFailure,
    ...overrides,
  };
}

async function newRun(request: Partial<Omit<RunRecord, 'id' | 'createdAt'>> = {}): Promise<RunRecord> {
  const { record } = await new AnalysisStore(store).create(
    { date: today, controls: null, publish: false, createdBy: { uid: 'test' }, ...request },
    { now },
  );
  return record;
}

async function eventsOf(runId: string): Promise<AnalysisEvent[]> {
  const log = new AnalysisStore(store).log(runId);
  await log.refresh();
  return [...log.events];
}

/** Events without their persistence times, to compare runs. */
const timeless = (events: AnalysisEvent[]) => events.map(({ id, type, data }) => ({ id, type, data }));

const first = { number: 1, final: false };
const last = { number: 4, final: true };

beforeAll(async () => {
  for (const name of [
    'analysisAttemptEnded',
    'analysisAttemptFailed',
    'reportPublished',
    'reportAlreadyExists',
    'evidenceSnapshotLoaded',
    'pastReportKept',
  ] as const) {
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  }
  dir = await mkdtemp(join(tmpdir(), 'evident-worker-'));
  store = new LocalFolderStore(dir);
  await seedDemoHistory(demoSeedDependencies(store, compiled), {
    today,
    timeZone: 'UTC',
    now: new Date(now.getTime() - 60_000),
    days: 2,
  });
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

describe('a run', () => {
  it('persists run.started, one control.evaluated per control in id order, and run.completed with the engine\u2019s result', async () => {
    const record = await newRun();
    await runAnalysis(instance(), record.id, first);
    const events = await eventsOf(record.id);
    const total = compiled.catalog.controls.length;
    expect(events.map((event) => event.id)).toEqual(Array.from({ length: total + 2 }, (_, n) => n + 1));
    expect(events[0]).toMatchObject({ type: 'run.started', data: { date: today, asOf: now.toISOString(), total } });

    const expected = evaluate(compiled, {
      date: today,
      timeZone: 'UTC',
      asOf: now,
      generatedAt: now,
      runId: 'x',
      evidence: await everyItem(store),
      previous: null,
    });
    expect(events.slice(1, -1).map((event) => event.data)).toEqual(
      expected.controls.map((control, n) => ({
        controlId: control.id,
        title: control.title,
        severity: control.severity,
        status: control.status,
        findings: control.findings.length,
        index: n + 1,
        total,
      })),
    );
    // Readiness and overdue controls are the published report's; a run's summary is over its scope.
    const { readiness: _readiness, overdue: _overdue, riskAccepted: _accepted, ...runSummary } = expected.summary;
    expect(events.at(-1)).toMatchObject({ type: 'run.completed', data: { published: false } });
    expect((events.at(-1)!.data as { summary: unknown }).summary).toEqual(runSummary);
    expect(describeRun(record, events)).toMatchObject({ state: 'succeeded', counts: expected.summary.counts });
  });

  it('that crashes after its fifth control resumes on retry: the same events as an uninterrupted run, none twice', async () => {
    const crashing = await newRun({ controls: ['BCK-01', 'BCK-02', 'CHG-01', 'CHG-02', 'IAM-01', 'IAM-02', 'LOG-01'] });
    const crash = new Error('worker died');
    await expect(
      runAnalysis(
        instance({
          afterControl: async (_record, index) => {
            if (index === 5) throw crash;
          },
        }),
        crashing.id,
        first,
      ),
    ).rejects.toBe(crash);
    expect((await eventsOf(crashing.id)).map((event) => event.type)).toEqual([
      'run.started',
      ...Array(5).fill('control.evaluated'),
    ]);

    await runAnalysis(instance(), crashing.id, { number: 2, final: false });
    const resumed = await eventsOf(crashing.id);

    const clean = await newRun({ controls: crashing.controls! });
    await runAnalysis(instance(), clean.id, first);
    expect(timeless(resumed)).toEqual(timeless(await eventsOf(clean.id)));
  });

  it('delivered twice at once writes one sequence of events', async () => {
    const record = await newRun();
    await Promise.all([runAnalysis(instance(), record.id, first), runAnalysis(instance(), record.id, first)]);
    const events = await eventsOf(record.id);
    const clean = await newRun();
    await runAnalysis(instance(), clean.id, first);
    expect(timeless(events)).toEqual(timeless(await eventsOf(clean.id)));
  });

  it('delivered twice with the attempts out of step still writes each control once, in order', async () => {
    const record = await newRun({ controls: ['BCK-01', 'BCK-02', 'CHG-01', 'CHG-02', 'IAM-01'] });
    let aWroteThird!: () => void;
    const aAhead = new Promise<void>((resolve) => (aWroteThird = resolve));
    const a = runAnalysis(
      instance({
        afterControl: async (_run, index) => {
          if (index === 3) aWroteThird();
        },
      }),
      record.id,
      first,
    );
    const b = runAnalysis(
      instance({
        afterControl: async (_run, index) => {
          if (index === 1) await aAhead; // B falls behind after its first control
        },
      }),
      record.id,
      first,
    );
    await Promise.all([a, b]);
    const clean = await newRun({ controls: record.controls! });
    await runAnalysis(instance(), clean.id, first);
    expect(timeless(await eventsOf(record.id))).toEqual(timeless(await eventsOf(clean.id)));
  });

  it('cancelled half-way stops at the cancel: nothing follows run.cancelled and nothing is published', async () => {
    const record = await newRun({ publish: true });
    const before = await new ReportStore(store).find(today, { fresh: true });
    await runAnalysis(
      instance({
        afterControl: async (run, index) => {
          if (index === 3) await new AnalysisStore(store).cancel(run.id, 'someone', () => now);
        },
      }),
      record.id,
      first,
    );
    const events = await eventsOf(record.id);
    expect(events.map((event) => event.type)).toEqual(['run.started', ...Array(3).fill('control.evaluated'), 'run.cancelled']);
    expect(events.at(-1)!.data).toEqual({ evaluated: 3, by: 'someone' });
    expect((await new ReportStore(store).find(today, { fresh: true }))!.generation).toBe(before!.generation);
  });

  it('failing on its last attempt ends with run.failed instead of another retry', async () => {
    const record = await newRun({ controls: ['IAM-01', 'IAM-02'] });
    const deps = instance({
      afterControl: async () => {
        throw new Error('store unavailable');
      },
    });
    await expect(runAnalysis(deps, record.id, first)).rejects.toThrow('store unavailable');
    await runAnalysis(deps, record.id, last);
    const events = await eventsOf(record.id);
    expect(events.map((event) => event.type)).toEqual(['run.started', 'control.evaluated', 'control.evaluated', 'run.failed']);
    expect(events.at(-1)!.data).toEqual({
      problem: {
        code: 'internal',
        title: 'Internal error',
        detail: 'The run failed on each of its 4 attempts; the server logs have the cause.',
      },
    });
    // An attempt after the end changes nothing.
    await runAnalysis(instance(), record.id, first);
    expect(await eventsOf(record.id)).toHaveLength(4);
  });
});

describe('publishing', () => {
  it('two scoped runs publishing at once both land in today\u2019s report; other controls keep their result', async () => {
    const reports = new ReportStore(store);
    const current = (await reports.find(today, { fresh: true }))!;
    // Mark every control in today's report as missing, so what the runs replace is visible.
    const marked = {
      ...current.report,
      controls: current.report.controls.map((control) => ({ ...control, status: 'missing' as const })),
    };
    expect(await reports.publish(marked, current, () => now, { by: 'daily', trigger: 'test' })).toBe('published');

    const a = await newRun({ controls: ['IAM-01'], publish: true });
    const b = await newRun({ controls: ['BCK-01'], publish: true });
    await Promise.all([runAnalysis(instance(), a.id, first), runAnalysis(instance(), b.id, first)]);

    const published = (await new ReportStore(store).find(today, { fresh: true }))!.report;
    const statusOf = (id: string) => published.controls.find((control) => control.id === id)!.status;
    const evaluated = async (id: string) => (await eventsOf(id)).find((event) => event.type === 'control.evaluated')!.data;
    expect(statusOf('IAM-01')).toBe((await evaluated(a.id))['status' as never]);
    expect(statusOf('BCK-01')).toBe((await evaluated(b.id))['status' as never]);
    expect(published.controls.filter((control) => control.status !== 'missing').length).toBeLessThanOrEqual(2);
    expect([a.id, b.id]).toContain(published.runId);
    expect(published.controls).toHaveLength(compiled.catalog.controls.length);
    for (const run of [a, b])
      expect((await eventsOf(run.id)).at(-1)).toMatchObject({ type: 'run.completed', data: { published: true } });
  });

  it('a retry of a run that published never publishes again, even over a newer run or after midnight', async () => {
    const a = await newRun({ controls: ['IAM-01'], publish: true });
    await runAnalysis(instance(), a.id, first);
    const completed = (await eventsOf(a.id)).at(-1)!;
    expect(completed).toMatchObject({ type: 'run.completed', data: { published: true } });
    // As if A's attempt died between publishing and persisting run.completed:
    await store.delete(`analyses/events/${a.id}/${String(completed.id).padStart(6, '0')}.json`);
    const b = await newRun({ controls: ['BCK-01'], publish: true });
    await runAnalysis(instance(), b.id, first);
    const afterB = (await new ReportStore(store).find(today, { fresh: true }))!;
    expect(afterB.report.runId).toBe(b.id);

    const nextDay = new Date('2026-11-22T00:30:00Z');
    await runAnalysis(instance({ now: () => nextDay }), a.id, { number: 2, final: false });
    expect((await eventsOf(a.id)).at(-1)).toMatchObject({ type: 'run.completed', data: { published: true } });
    expect((await new ReportStore(store).find(today, { fresh: true }))!.generation).toBe(afterB.generation);
  });

  it('a run that starts at 23:59:59 and reaches its write at 00:00:01 fails with report_immutable, leaving that day\u2019s report byte for byte', async () => {
    const beforeMidnight = new Date('2026-11-21T23:59:59Z');
    const afterMidnight = new Date('2026-11-22T00:00:01Z');
    let clock = beforeMidnight;
    const record = await newRun({ controls: ['BCK-01', 'IAM-01'], publish: true });
    const stored = await store.read(reportObjectName(today));

    await runAnalysis(
      instance({
        now: () => clock,
        // Midnight passes while the last control is evaluated, after the run decided to publish.
        afterControl: async (_run, index) => {
          if (index === 2) clock = afterMidnight;
        },
      }),
      record.id,
      first,
    );

    const events = await eventsOf(record.id);
    expect(events.map(({ id, type, time }) => ({ id, type, time }))).toEqual([
      { id: 1, type: 'run.started', time: beforeMidnight.toISOString() },
      { id: 2, type: 'control.evaluated', time: beforeMidnight.toISOString() },
      { id: 3, type: 'control.evaluated', time: beforeMidnight.toISOString() },
      { id: 4, type: 'run.failed', time: afterMidnight.toISOString() },
    ]);
    expect(events[0]!.data).toEqual({ date: today, asOf: beforeMidnight.toISOString(), total: 2 });
    expect(events[3]!.data).toEqual({
      problem: {
        code: 'report_immutable',
        title: 'Past reports are immutable',
        detail: 'The run was to publish 2026-11-21, which is no longer today (2026-11-22); past reports never change.',
      },
    });
    expect(describeRun(record, events)).toMatchObject({ state: 'failed', progress: { evaluated: 2, total: 2 } });
    expect(logs.pastReportKept).toHaveBeenCalledWith(today, record.id, '2026-11-22');

    const after = await store.read(reportObjectName(today));
    expect(after.data.equals(stored.data)).toBe(true);
    expect(after.info.generation).toBe(stored.info.generation);
    expect(await new AnalysisStore(store).wasPublished(record.id)).toBe(false);

    // A retry of the ended run changes nothing either.
    await runAnalysis(instance({ now: () => afterMidnight }), record.id, { number: 2, final: false });
    expect(await eventsOf(record.id)).toEqual(events);
    expect((await store.read(reportObjectName(today))).data.equals(stored.data)).toBe(true);
  });

  it('a run for a day that is no longer today fails instead of touching a past report', async () => {
    const record = await newRun({ publish: true, date: '2026-11-20' });
    await runAnalysis(instance(), record.id, first);
    const events = await eventsOf(record.id);
    expect(events.map((event) => event.type)).toEqual(['run.failed']);
    expect(events[0]!.data).toEqual({
      problem: {
        code: 'report_immutable',
        title: 'Past reports are immutable',
        detail: 'The run was to publish 2026-11-20, which is no longer today (2026-11-21); past reports never change.',
      },
    });
  });
});

describe('runs that lose their worker', () => {
  it('are ended with run.failed when read after the worker could no longer be running', async () => {
    const record = await newRun({ controls: ['IAM-01'] });
    const analyses = new AnalysisStore(store, { describeFailure: describeRunFailure });
    expect(await analyses.describe(record.id, new Date(now.getTime() + 60_000))).toMatchObject({ state: 'queued' });
    const late = new Date(now.getTime() + abandonedAfterMs + 1000);
    expect(await analyses.describe(record.id, late)).toMatchObject({
      state: 'failed',
      problem: { code: 'worker_lost', title: 'Analysis abandoned', detail: 'The run never started: no worker took it.' },
    });
    // A worker that turns up afterwards changes nothing.
    await runAnalysis(instance(), record.id, first);
    expect((await eventsOf(record.id)).map((event) => event.type)).toEqual(['run.failed']);
  });
});

describe('idempotency keys', () => {
  it('a retry after midnight of a request without a date answers the first run', async () => {
    const analyses = new AnalysisStore(store);
    const asSent = { date: null, controls: null, publish: false };
    const first = await analyses.create(
      { date: today, controls: null, publish: false, createdBy: { uid: 'test' } },
      { now, idempotencyKey: 'nightly-retry', asSent },
    );
    const retry = await analyses.create(
      { date: '2026-11-22', controls: null, publish: false, createdBy: { uid: 'test' } },
      { now: new Date('2026-11-22T00:10:00Z'), idempotencyKey: 'nightly-retry', asSent },
    );
    expect(retry).toEqual({ record: first.record, created: false });
  });
});

describe('with submission review required', () => {
  it('reads the reviews once and publishes what the engine makes of them: a pending submission awaits review', async () => {
    const made = await new SubmissionStore(store, new EvidenceStore(store)).create(
      {
        controls: ['PPL-06'],
        statement: 'The board approved the policy.',
        subject: 'worker review test',
        effectiveDate: today,
        notApplicable: false,
        submittedBy: { uid: 'u-ada' },
        files: [],
      },
      new Date(now.getTime() - 30_000),
    );
    const asked: string[][] = [];
    const submissionReviews = async (ids: string[]) => {
      asked.push(ids);
      return new Map();
    };
    const record = await newRun({ controls: ['PPL-06'], publish: true });
    await runAnalysis(instance({ submissionReviews }), record.id, first);

    expect(asked).toEqual([[made.id]]);
    const expected = evaluate(compiled, {
      date: today,
      timeZone: 'UTC',
      asOf: now,
      generatedAt: now,
      runId: 'x',
      evidence: await everyItem(store),
      previous: null,
      submissionReviews: new Map(),
    });
    expect(expected.awaitingReview).toEqual({
      count: 1,
      submissions: [
        {
          submissionId: made.id,
          evidenceId: made.id,
          controlIds: ['PPL-06'],
          subject: 'worker review test',
          submittedAt: made.submittedAt,
        },
      ],
    });
    const published = (await new ReportStore(store).find(today, { fresh: true }))!.report;
    expect([published.runId, published.awaitingReview]).toEqual([record.id, expected.awaitingReview]);
    const evaluated = (await eventsOf(record.id)).find((event) => event.type === 'control.evaluated')!.data;
    expect(evaluated['status' as never]).toBe(expected.controls.find((control) => control.id === 'PPL-06')!.status);
  });
});
