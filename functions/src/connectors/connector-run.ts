/**
 * Runs one connector under its collection run: what the worker does with a queued run.
 *
 * The connector yields items subject by subject; they are checked against the description as
 * an HTTP batch would be, stored in batches of `maxBatchItems` under the run (admitted, ingested,
 * counted, as `POST /api/evidence?run=` does), and the run is completed with the count sent per
 * kind. Nothing but the current batch and the subjects' names is held, however large the
 * organisation. A connector that fails ends the run incomplete (`failed`, with why), so a
 * population never shrinks for it; what it sent stays stored. A cancel request writes
 * `run.cancelled` and ends the collection run; the runner sees it at its next batch or
 * vendor call and stops.
 */
import { createHash } from 'node:crypto';
import { maxBatchItems } from '@evident/contract';
import type { EvidenceInput } from '../assessment/model.js';
import { EventConflict } from '../common/event-log.js';
import { logs } from '../logs.js';
import type { EvidenceStore } from '../evidence/evidence-store.js';
import { RunEnded, RunFull } from '../runs/run-errors.js';
import type { CollectionRun, RunStore } from '../runs/run-store.js';
import {
  noProgress,
  writeCancelled,
  type ConnectorProgress,
  type ConnectorRunEvent,
  type ConnectorRunLog,
  type ConnectorRunProblem,
} from './connector-run-model.js';
import { ConnectorFailure, type CollectedItem, type Connector, type SettingValue } from './connector.js';

type Actor = CollectionRun['openedBy'];

export interface RunnerDeps {
  runs: RunStore;
  evidence: EvidenceStore;
  /**
   * What is wrong with a batch as `POST /api/evidence` would judge it (the description's schema
   * of each kind's data), in words; undefined when nothing is. A connector is code we ship, so a
   * refusal is our fault: the run fails with `internal` rather than store what no check can read.
   */
  checkBatch(items: readonly EvidenceInput[]): string | undefined;
  now(): Date;
  /** How often, at most, progress is written while calls go on without a batch being stored. */
  progressEveryMs?: number;
}

export interface RunInput {
  connector: Connector;
  run: CollectionRun;
  log: ConnectorRunLog;
  settings: Readonly<Record<string, SettingValue>>;
  secrets: Readonly<Record<string, string>>;
  /** Who ends the run: the actor that asked for it. */
  actor: Actor;
  /** What the connector still lacks with the secrets the worker was given (connector-listing.ts `needsOf`). */
  needs: readonly string[];
  standIn?: { endpoint: string; token: string };
}

/** Raised inside the runner once the run was cancelled: unwinds the connector's loop. */
class Cancelled extends Error {}

/** A batch the description refuses: a fault of the connector's code, never the vendor's. */
class BatchRefused extends Error {}

/**
 * Collects the run to its end. A run whose log already has events was started by an attempt
 * that was lost (the task queue retried it): a connector cannot resume halfway, so the run is
 * ended as failed instead of collected twice.
 */
export async function runConnector(deps: RunnerDeps, input: RunInput): Promise<void> {
  const { log, run } = input;
  await log.refresh();
  if (log.ended) return;
  if (log.lastId > 0) {
    await failRun(deps, input, {
      reason: 'worker_lost',
      detail: 'The worker that was collecting this run stopped; the run is ended rather than collected twice.',
    });
    return;
  }
  try {
    await log.appendAt(1, 'run.started', { kinds: [...run.kinds] }, deps.now());
  } catch (error) {
    if (error instanceof EventConflict) return; // another attempt, or a cancel, got there first
    throw error;
  }
  await new Collection(deps, input).run();
}

class Collection {
  readonly #deps: RunnerDeps;
  readonly #input: RunInput;
  readonly #progress: ConnectorProgress = noProgress();
  readonly #seen = new Set<string>();
  readonly #sentByKind = new Map<string, number>();
  readonly #abort = new AbortController();
  #batch: EvidenceInput[] = [];
  /** Events are written one after another, in the order they happen. */
  #writing: Promise<unknown> = Promise.resolve();
  #lastProgressAt = 0;
  #cancelled = false;

  constructor(deps: RunnerDeps, input: RunInput) {
    this.#deps = deps;
    this.#input = input;
  }

  async run(): Promise<void> {
    const { connector, run } = this.#input;
    this.#lastProgressAt = this.#deps.now().getTime();
    try {
      if (this.#input.needs.length > 0) {
        throw new ConnectorFailure(
          'not_configured',
          `${connector.title} cannot run: it needs ${this.#input.needs.join('; and ')}.`,
        );
      }
      const collector = await connector.load();
      for await (const item of collector.collect(this.#context())) {
        if (this.#cancelled) throw new Cancelled();
        this.#progress.items += 1;
        const key = `${item.kind}\n${item.subject}`;
        // A subject seen twice (a listing that shifted between pages) counts once: the first.
        if (this.#seen.has(key)) continue;
        this.#seen.add(key);
        this.#batch.push(this.#stored(item));
        if (this.#batch.length >= maxBatchItems) await this.#flush();
      }
      await this.#flush();
      await this.#settle();
      const declared = Object.fromEntries(run.kinds.map((kind) => [kind, this.#sentByKind.get(kind) ?? 0]));
      const ended = await this.#deps.runs.complete(run.id, declared, this.#input.actor, this.#deps.now());
      await this.#append('run.completed', { status: ended.status === 'complete' ? 'complete' : 'incomplete', counts: declared });
      logs.connectorRunEnded(connector.id, run.id, 'run.completed');
    } catch (error) {
      // Whatever ended it, the connector's calls still in flight are no longer wanted.
      this.#abort.abort();
      await this.#settle().catch(() => undefined);
      // The collection run ended under it: a cancel request did that, and writes `run.cancelled`.
      if (error instanceof RunEnded) await writeCancelled(this.#input.log, this.#input.actor.uid, this.#deps.now);
      if (this.#cancelled || error instanceof Cancelled || error instanceof RunEnded) return;
      if (!(error instanceof ConnectorFailure)) {
        logs.connectorRunError(connector.id, run.id, scrub(describeError(error), this.#input.secrets));
      }
      await failRun(this.#deps, this.#input, scrubProblem(problemOf(error), this.#input.secrets));
    }
  }

  #context() {
    const { settings, secrets, standIn } = this.#input;
    return {
      settings,
      secrets,
      signal: this.#abort.signal,
      now: this.#deps.now,
      ...(standIn ? { standIn } : {}),
      progress: {
        called: () => {
          this.#progress.calls += 1;
          const now = this.#deps.now().getTime();
          if (now - this.#lastProgressAt >= (this.#deps.progressEveryMs ?? 2000)) this.#queueProgress();
        },
        rateLimited: (seconds: number, reason: string) => {
          this.#progress.rateLimitWaits += 1;
          this.#progress.waitedSeconds += seconds;
          this.#queue('rate_limit.waited', { seconds, reason });
        },
      },
    };
  }

  /** The item as stored: this connector's source, an id only this run and subject give. */
  #stored(item: CollectedItem): EvidenceInput {
    const id = createHash('sha256').update(`${this.#input.run.id}\n${item.kind}\n${item.subject}`).digest('hex');
    return {
      id: `cn-${id.slice(0, 40)}`,
      kind: item.kind,
      source: this.#input.connector.source,
      subject: item.subject,
      collectedAt: item.collectedAt,
      data: item.data,
    } as EvidenceInput;
  }

  async #flush(): Promise<void> {
    if (this.#batch.length === 0) return;
    const batch = this.#batch;
    this.#batch = [];
    const refused = this.#deps.checkBatch(batch);
    if (refused) throw new BatchRefused(refused);
    const { runs, evidence } = this.#deps;
    const id = this.#input.run.id;
    const receivedAt = this.#deps.now();
    await runs.admit(id, batch, receivedAt);
    const outcomes = await evidence.ingest(batch, { receivedAt, extra: { runId: id } });
    await runs.recordBatch(
      id,
      batch.map((item, index) => ({ id: outcomes[index]!.id, kind: item.kind, subject: item.subject })),
    );
    for (const item of batch) this.#sentByKind.set(item.kind, (this.#sentByKind.get(item.kind) ?? 0) + 1);
    this.#progress.sent += batch.length;
    this.#queueProgress();
    await this.#settle();
    // Writing the progress read the log to its end: a cancel written meanwhile made it conflict.
    if (this.#cancelled) throw new Cancelled();
  }

  #queueProgress(): void {
    this.#lastProgressAt = this.#deps.now().getTime();
    this.#queue('run.progress', { ...this.#progress });
  }

  #queue<T extends ConnectorRunEvent['type']>(type: T, data: Extract<ConnectorRunEvent, { type: T }>['data']): void {
    this.#writing = this.#writing.then(() => this.#append(type, data as never));
  }

  /** Waits for the events queued so far; a cancel that got in first stops the run. */
  async #settle(): Promise<void> {
    const writing = this.#writing;
    this.#writing = Promise.resolve();
    await writing;
  }

  async #append<T extends ConnectorRunEvent['type']>(type: T, data: Extract<ConnectorRunEvent, { type: T }>['data']) {
    if (this.#cancelled) return;
    try {
      await this.#input.log.append(type, data as never, this.#deps.now());
    } catch (error) {
      if (!(error instanceof EventConflict)) throw error;
      // The only other writer of a running run's log is a cancel request.
      this.#cancelled = true;
      this.#abort.abort();
    }
  }
}

/** Ends the collection run incomplete and writes `run.failed`, unless something else ended it first. */
async function failRun(deps: RunnerDeps, input: RunInput, problem: ConnectorRunProblem): Promise<void> {
  try {
    await deps.runs.fail(input.run.id, problem.detail, input.actor, deps.now());
    await input.log.append('run.failed', { problem }, deps.now());
    logs.connectorRunEnded(input.connector.id, input.run.id, 'run.failed', problem.reason);
  } catch (error) {
    if (error instanceof EventConflict || error instanceof RunEnded) return;
    throw error;
  }
}

/** Why the run failed: a connector's own words, the description's refusal, else ours. */
export function problemOf(error: unknown): ConnectorRunProblem {
  if (error instanceof ConnectorFailure) {
    return {
      reason: error.reason,
      detail: error.message,
      ...(error.permission !== undefined ? { permission: error.permission } : {}),
    };
  }
  if (error instanceof RunFull) {
    return {
      reason: 'internal',
      detail:
        `The organisation holds more than one collection run may receive (${error.max.toLocaleString('en')} ` +
        `${error.limit}); what was sent is stored, and the run is incomplete.`,
    };
  }
  if (error instanceof BatchRefused) {
    return { reason: 'internal', detail: `The connector collected an item the API description refuses: ${error.message}` };
  }
  return { reason: 'internal', detail: 'The connector stopped on an unexpected error; the logs have its details.' };
}

const describeError = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);

/**
 * Text with every secret of the run taken out, and each of its lines (a private key's), so no
 * message a vendor's SDK wrote can carry one into a log or a problem.
 */
export function scrub(text: string, secrets: Readonly<Record<string, string>>): string {
  const pieces = Object.values(secrets)
    .flatMap((secret) => [secret, ...secret.split('\n')])
    .map((piece) => piece.trim())
    .filter((piece) => piece.length >= 8 && !piece.startsWith('-----'))
    .sort((a, b) => b.length - a.length);
  return pieces.reduce((scrubbed, piece) => scrubbed.split(piece).join('[secret]'), text);
}

const scrubProblem = (problem: ConnectorRunProblem, secrets: Readonly<Record<string, string>>): ConnectorRunProblem => ({
  ...problem,
  detail: scrub(problem.detail, secrets),
});
