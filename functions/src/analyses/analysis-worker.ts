/**
 * The analysis worker: one attempt at a run, as the task queue dispatches it.
 *
 * An attempt may be a retry of one that died half-way, or run beside a duplicate delivery, so
 * it never assumes it is first. It takes the evidence snapshot and cut-off from the persisted
 * `run.started`, re-evaluates the controls already reported (the result is the same: the
 * evaluation is a pure function of the snapshot) and persists only what comes after. Every
 * event has its number fixed in advance (control i is event i + 1), so an attempt that fell
 * behind a twin finds the twin's event at that number: the same event (carry on) or another,
 * such as a cancel (stop).
 */
import { dayIn, endOfDay } from '../assessment/dates.js';
import {
  assembleReport,
  awaitingReviewOf,
  controlsInOrder,
  evaluateEach,
  type CompiledCatalog,
  type EvaluationInput,
} from '../assessment/evaluate.js';
import { summaryOf } from '../assessment/report-summary.js';
import type { ControlPopulation, ControlResult, SourcePopulation } from '../assessment/model.js';
import { submissionsIn, type SubmissionReviews } from '../assessment/submission-review.js';
import { canonicalJson } from '../evidence/canonical-json.js';
import type { CheckpointStore } from '../evidence/checkpoint-store.js';
import { loadSnapshot } from '../evidence/evidence-snapshot.js';
import type { EvidenceStore } from '../evidence/evidence-store.js';
import type { ExceptionStore } from '../exceptions/exception-store.js';
import { logs } from '../logs.js';
import { ReportImmutable, type ReportStore } from '../reports/report-store.js';
import type { AnalysisEvent, AnalysisEventType, DescribeFailure, RunFailure, RunRecord } from './analysis-model.js';
import type { AnalysisStore } from './analysis-store.js';
import { EventConflict, type RunLog } from './run-log.js';

export interface WorkerDeps {
  analyses: AnalysisStore;
  evidence: EvidenceStore;
  checkpoints: CheckpointStore;
  reports: ReportStore;
  compiled: CompiledCatalog;
  timeZone: string;
  now: () => Date;
  /** The exceptions in force when a run publishes today's report; none without. */
  exceptions?: ExceptionStore;
  /** Words a failure as the problem its `run.failed` event carries (http/domain-problems.ts). */
  describeFailure: DescribeFailure;
  /** What collection runs say of each (source, kind) as of a cut-off (runs/population-inputs.ts); none without. */
  populationsAsOf?: (asOf: Date) => Promise<SourcePopulation[]>;
  /** Stores the populations of the controls a publishing run evaluated (populations/control-population-store.ts). */
  writePopulations?: (run: { date: string; runId: string }, populations: readonly ControlPopulation[]) => Promise<void>;
  /**
   * Given when submissions count only once accepted (`SUBMISSION_REVIEW=required`): their
   * reviews, by submission id. A review counts by its time, so every attempt of a run, however
   * late, makes the same of them.
   */
  submissionReviews?: (submissionIds: string[]) => Promise<SubmissionReviews>;
  /** Test-only fault injection: called after each persisted control event. */
  afterControl?: (record: RunRecord, index: number) => Promise<void>;
}

export interface Attempt {
  /** 1 for the first delivery. */
  number: number;
  /** The queue will not retry this one: on an error, the run is marked failed. */
  final: boolean;
}

/** The run stopped because someone else (a cancel, a twin attempt) decided its next event. */
class Superseded extends Error {
  readonly by: AnalysisEvent;

  constructor(by: AnalysisEvent) {
    super(`superseded by event ${by.id} (${by.type})`);
    this.by = by;
  }
}

export async function runAnalysis(deps: WorkerDeps, runId: string, attempt: Attempt): Promise<void> {
  const started = performance.now();
  const record = await deps.analyses.get(runId);
  if (!record) {
    logs.analysisAttemptEnded(runId, attempt.number, 'unknown run', 0);
    return;
  }
  const log = deps.analyses.log(runId);
  try {
    await log.refresh();
    if (!log.ended) await evaluateRun(deps, record, log);
    await deps.analyses.describe(runId); // files the ended run in the list, for cheap listing
    logs.analysisAttemptEnded(runId, attempt.number, log.events.at(-1)?.type ?? 'none', Math.round(performance.now() - started));
  } catch (error) {
    if (error instanceof Superseded) {
      logs.analysisAttemptEnded(runId, attempt.number, `stopped: ${error.message}`, Math.round(performance.now() - started));
      return;
    }
    logs.analysisAttemptFailed(runId, attempt.number, attempt.final, error);
    if (!attempt.final) throw error; // the queue retries
    await persist(
      log,
      'run.failed',
      { problem: deps.describeFailure({ failure: 'attempts_failed', attempts: attempt.number }) },
      deps.now(),
    ).catch((reason: unknown) => {
      if (!(reason instanceof Superseded)) throw reason;
    });
  }
}

/** What every evaluation of a run reads: the same snapshot, and what it had to set aside. */
type Snapshot = Pick<EvaluationInput, 'asOf' | 'evidence' | 'setAside' | 'populations' | 'submissionReviews'>;
type StartedEvent = Extract<AnalysisEvent, { type: 'run.started' }>;

async function evaluateRun(deps: WorkerDeps, record: RunRecord, log: RunLog): Promise<void> {
  const fail = (failure: RunFailure, id?: number) =>
    persist(log, 'run.failed', { problem: deps.describeFailure(failure) }, deps.now(), id);

  const scope = record.controls ? new Set(record.controls) : undefined;
  const known = new Set(deps.compiled.catalog.controls.map((control) => control.id));
  const gone = record.controls?.filter((id) => !known.has(id)) ?? [];
  if (gone.length > 0) {
    return void (await fail({ failure: 'controls_gone', controls: gone }));
  }
  const today = dayIn(deps.timeZone, deps.now());
  const alreadyPublished = record.publish && (await deps.analyses.wasPublished(record.id));
  if (record.publish && !alreadyPublished && record.date !== today) {
    // Failed rather than completed: what was asked, to make the result the day's report, cannot happen.
    return void (await fail({ failure: 'past_day', date: record.date, today }));
  }

  const controls = controlsInOrder(deps.compiled.catalog, scope);
  const snapshot = await snapshotAtStart(deps, record, await startRun(deps, record, log, controls.length));
  const { results, populations } = await reportControls(deps, record, log, { snapshot, scope, total: controls.length });

  const last = controls.length + 2;
  let published: boolean;
  try {
    published = alreadyPublished || (record.publish ? await publish(deps, record, snapshot, results, populations) : false);
  } catch (error) {
    // Midnight passed while the run evaluated: the day it was to publish is now a past day's.
    if (!(error instanceof ReportImmutable)) throw error;
    logs.pastReportKept(record.date, record.id, error.today);
    return void (await fail({ failure: 'past_day', date: record.date, today: error.today }, last));
  }
  await persist(log, 'run.completed', { summary: summaryOf(results), published }, deps.now(), last);
}

/** The run's `run.started` event, which fixes its evidence's cut-off: the one an earlier attempt persisted, or a new one. */
async function startRun(deps: WorkerDeps, record: RunRecord, log: RunLog, total: number): Promise<StartedEvent> {
  const end = endOfDay(deps.timeZone, record.date);
  const first = log.events[0];
  const startedEvent =
    first?.type === 'run.started'
      ? first
      : await persist(
          log,
          'run.started',
          {
            date: record.date,
            asOf: (deps.now() < end ? deps.now() : end).toISOString(),
            total,
          },
          deps.now(),
          1,
        );
  if (startedEvent.type !== 'run.started') throw new Superseded(startedEvent);
  return startedEvent;
}

/** The evidence as it was when the run started, whichever attempt this is. */
async function snapshotAtStart(deps: WorkerDeps, record: RunRecord, startedEvent: StartedEvent): Promise<Snapshot> {
  const asOf = new Date(startedEvent.data.asOf);
  const [{ items, setAside }, populations] = await Promise.all([
    loadSnapshot({
      evidence: deps.evidence,
      checkpoints: deps.checkpoints,
      date: record.date,
      asOf,
      receivedUpTo: new Date(startedEvent.time),
    }),
    deps.populationsAsOf?.(asOf) ?? [],
  ]);
  const submissionReviews = await deps.submissionReviews?.(submissionsIn(items));
  return {
    asOf,
    evidence: items,
    ...(setAside ? { setAside } : {}),
    populations,
    ...(submissionReviews ? { submissionReviews } : {}),
  };
}

/**
 * Evaluates the controls in order and persists each result the log does not hold yet (control
 * i is event i + 1); one it holds must be this very result. The results, in order, and the
 * populations of the controls it evaluated.
 */
async function reportControls(
  deps: WorkerDeps,
  record: RunRecord,
  log: RunLog,
  run: { snapshot: Snapshot; scope: Set<string> | undefined; total: number },
): Promise<{ results: ControlResult[]; populations: ControlPopulation[] }> {
  const results: ControlResult[] = [];
  const populations: ControlPopulation[] = [];
  // Only a run that publishes stores its populations: others would gather them for nothing.
  const keep = record.publish ? (population: ControlPopulation) => void populations.push(population) : undefined;
  let index = 0;
  for (const result of evaluateEach(deps.compiled, run.snapshot, run.scope, keep)) {
    index++;
    results.push(result);
    const known = log.events[index]; // control `index` is event `index + 1`
    if (known) {
      // Reported by an earlier or a twin attempt: it must be this very result, or the run is not ours.
      if (known.type !== 'control.evaluated' || known.data.controlId !== result.id || known.data.status !== result.status)
        throw new Superseded(known);
      continue;
    }
    await persist(
      log,
      'control.evaluated',
      {
        controlId: result.id,
        title: result.title,
        severity: result.severity,
        status: result.status,
        findings: result.findings.length,
        index,
        total: run.total,
      },
      deps.now(),
      index + 1,
    );
    await deps.afterControl?.(record, index);
  }
  return { results, populations };
}

/**
 * Appends an event unless the same one is already there (a twin attempt wrote it). Anything
 * else in its place means the run is no longer ours to continue.
 */
async function persist<T extends AnalysisEventType>(
  log: RunLog,
  type: T,
  data: Extract<AnalysisEvent, { type: T }>['data'],
  now: Date,
  id?: number,
): Promise<AnalysisEvent> {
  try {
    return id === undefined ? await log.append(type, data as never, now) : await log.appendAt(id, type, data as never, now);
  } catch (error) {
    if (!(error instanceof EventConflict)) throw error;
    // The log is this run's, so what it holds is one of its events.
    const existing = error.existing as AnalysisEvent;
    if (existing.type === type && (type === 'run.started' || canonicalJson(existing.data) === canonicalJson(data))) {
      return existing;
    }
    throw new Superseded(existing);
  }
}

/**
 * Makes the run's result today's report: its controls replace theirs in the current report
 * (evaluated in full from the same snapshot when there is none yet), and the summary, readiness
 * and diff are assembled again over every control, so a partial run never publishes a score
 * over only its own controls. The report replaced is kept as a version. With a compare-and-swap
 * on the report's generation so a concurrent publisher or daily job is never overwritten
 * unseen. Success is recorded (`markPublished`), so a retry — even after another run has
 * published since, or after midnight — never publishes this result again. A first write after
 * midnight is refused by the store (`ReportImmutable`): the day is judged at the write.
 */
async function publish(
  deps: WorkerDeps,
  record: RunRecord,
  snapshot: Snapshot,
  results: ControlResult[],
  populations: readonly ControlPopulation[],
): Promise<boolean> {
  const { asOf } = snapshot;
  // Before the report names this run, as the daily job does; the controls carried over keep the
  // populations of the version that evaluated them (families/control-population.ts).
  await deps.writePopulations?.({ date: record.date, runId: record.id }, populations);
  for (let attempt = 1; ; attempt++) {
    const current = await deps.reports.find(record.date, { fresh: true });
    if (current?.report.runId === record.id) {
      await deps.analyses.markPublished(record.id);
      return true;
    }
    // This run's results over the current report's (with none yet, over a full evaluation of the same snapshot).
    const base = current?.report.controls ?? (record.controls ? [...evaluateEach(deps.compiled, snapshot)] : []);
    const merged = new Map(base.map((result) => [result.id, result]));
    for (const result of results) merged.set(result.id, result);
    const controls = [...merged.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    const [previous, exceptions] = await Promise.all([
      deps.reports.latestBefore(record.date),
      deps.exceptions?.inForce(record.date, asOf) ?? [],
    ]);
    const awaitingReview = awaitingReviewOf(snapshot);
    const report = assembleReport(
      deps.compiled,
      {
        date: record.date,
        timeZone: deps.timeZone,
        asOf,
        generatedAt: deps.now(),
        runId: record.id,
        previous: previous?.report ?? null,
        exceptions,
        ...(awaitingReview ? { awaitingReview } : {}),
      },
      controls,
    );
    const outcome = await deps.reports.publish(report, current, deps.now, { by: 'analysis', startedBy: record.createdBy });
    if (outcome === 'published') {
      await deps.analyses.markPublished(record.id);
      return true;
    }
    if (attempt >= 10) throw new Error(`today's report kept changing while ${record.id} published it`);
  }
}
