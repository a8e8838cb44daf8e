/**
 * The stream benchmark: many clients follow one analysis run while a writer persists its
 * events at a steady pace, as the worker does. It measures, for the `analyses` function under
 * functions-framework over the local-folder store and for a bare `node:http` SSE server fed
 * from memory (the baseline), the delay from an event persisted to a client receiving it,
 * whether every client got every event once and in order, and memory per open stream.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AnalysisEvent } from '../../functions/src/analyses/analysis-model.ts';
import type * as AnalysisStoreModule from '../../functions/src/analyses/analysis-store.ts';
import type * as LocalFolderStoreModule from '../../functions/src/storage/local-folder-store.ts';
import { followEventStream } from '../../hosting/src/lib/event-stream.ts';
import { paths } from '../lib/paths.ts';
import { median } from './median.ts';

export interface StreamTarget {
  name: string;
  start(): ChildProcess;
  /** Where clients follow the run. */
  eventsUrl(runId: string): string;
  /** Persists (or, for the baseline, emits) one event. */
  emit(event: AnalysisEvent): Promise<void>;
  /** Answers once the server takes requests (and has loaded what a stream needs). */
  ready(runId: string): Promise<void>;
}

export interface StreamFigures {
  medianDelayMs: number;
  clientsWithEveryEvent: number;
  memoryPerStreamKiB: number;
}

const residentKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function followRun(
  target: StreamTarget,
  runId: string,
  options: { clients: number; events: number; intervalMs: number },
): Promise<StreamFigures> {
  const child = target.start();
  try {
    await target.ready(runId);
    const before = residentKiB(child.pid!);
    const persistedAt = new Map<number, number>();
    const received: { id: number; at: number }[][] = Array.from({ length: options.clients }, () => []);
    let open = 0;
    const following = received.map((events) =>
      followEventStream<AnalysisEvent>(target.eventsUrl(runId), {
        onEvent: (event) => events.push({ id: event.data.id, at: performance.now() }),
        isTerminal: (event) => event.type === 'run.completed',
        onConnectionChange: (state) => {
          if (state === 'open') open++;
        },
      }),
    );
    while (open < options.clients) await sleep(10);
    await sleep(200);
    const memoryPerStreamKiB = (residentKiB(child.pid!) - before) / options.clients;

    const total = options.events + 2;
    for (let id = 1; id <= total; id++) {
      await target.emit(syntheticEvent(id, total));
      persistedAt.set(id, performance.now());
      await sleep(options.intervalMs);
    }
    await Promise.all(following);

    const expected = Array.from({ length: total }, (_, n) => n + 1).join(',');
    return {
      medianDelayMs: median(received.flat().map(({ id, at }) => Math.max(0, at - persistedAt.get(id)!))),
      clientsWithEveryEvent: received.filter((events) => events.map((event) => event.id).join(',') === expected).length,
      memoryPerStreamKiB,
    };
  } finally {
    child.kill('SIGKILL');
  }
}

/** Events shaped like a real run's: started, one per control, completed. */
function syntheticEvent(id: number, total: number): AnalysisEvent {
  const time = new Date().toISOString();
  if (id === 1) return { id, type: 'run.started', time, data: { date: time.slice(0, 10), asOf: time, total: total - 2 } };
  if (id === total) {
    const counts = { passing: total - 2, failing: 0, stale: 0, missing: 0, not_applicable: 0 };
    return { id, type: 'run.completed', time, data: { summary: { score: 100, counts, controls: total - 2 }, published: false } };
  }
  return {
    id,
    type: 'control.evaluated',
    time,
    data: {
      controlId: `BEN-${String(id).padStart(3, '0')}`,
      title: 'Bench',
      severity: 'low',
      status: 'passing',
      findings: 0,
      index: id - 1,
      total: total - 2,
    },
  };
}

/** The run the benchmark follows, created in the store the function reads; its events are appended by `emit`. */
export async function benchRun(storeDir: string): Promise<{ runId: string; emit: (event: AnalysisEvent) => Promise<void> }> {
  // The built modules (the bench builds first): the sources import each other as `.js`.
  const built = (path: string) => import(new URL(`file://${paths.functions}/lib/${path}`).href);
  const { AnalysisStore } = (await built('analyses/analysis-store.js')) as typeof AnalysisStoreModule;
  const { LocalFolderStore } = (await built('storage/local-folder-store.js')) as typeof LocalFolderStoreModule;
  const analyses = new AnalysisStore(new LocalFolderStore(storeDir));
  const { record } = await analyses.create(
    { date: new Date().toISOString().slice(0, 10), controls: null, publish: false, createdBy: { uid: 'bench' } },
    { now: new Date() },
  );
  const log = analyses.log(record.id);
  return {
    runId: record.id,
    emit: async (event) => {
      await log.append(event.type, event.data as never, new Date());
    },
  };
}
