/**
 * The storage benchmark: what a day's work costs in object reads, simulated Cloud Storage time
 * (25 ms a call, 100 in flight; scripts/lib/latency-store.ts) and memory, over a store holding
 * 30 and then 365 days of history at 5,000 subjects a day — today's design beside the design
 * before partitions, measured the same way (legacy-design.ts). The history is built through the
 * real ingest and daily job in storage-history.ts; each run is measured in a process of its own
 * (storage-probe.ts).
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { HistoryOptions } from './storage-history.ts';
import type { ProbeResult } from './storage-probe.ts';

export interface StorageFigures {
  days: number;
  objects: number;
  /** Items received on the measured day: what the daily run should read, plus a little. */
  newItems: number;
  listing: ProbeResult;
  daily: ProbeResult;
  legacyListing?: ProbeResult;
  legacyDaily?: ProbeResult;
}

export async function benchStorage(
  options: Pick<HistoryOptions, 'measureAt' | 'subjects'> & { baselineAt: number[]; log: (line: string) => void },
): Promise<StorageFigures[]> {
  const history: HistoryOptions = {
    measureAt: options.measureAt,
    subjects: options.subjects,
    batchSize: 500,
    baselineAt: options.baselineAt,
  };
  const child = fork(join(import.meta.dirname, 'storage-history.ts'), [JSON.stringify(history)], {
    serialization: 'advanced',
    execArgv: ['--max-old-space-size=20480'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const figures: StorageFigures[] = [];
  await new Promise<void>((resolve, reject) => {
    child.on(
      'message',
      (message: { kind: string; day?: number; seconds?: number; objects?: number; results?: Record<string, unknown> }) => {
        if (message.kind === 'progress') {
          options.log(
            `  history: day ${message.day} built in ${message.seconds!.toFixed(0)} s, ${message.objects!.toLocaleString('en')} objects`,
          );
        }
        if (message.kind === 'measured') {
          const results = message.results!;
          const days = results['days'] as number;
          figures.push({
            days,
            objects: results['objects'] as number,
            newItems: options.subjects,
            listing: results['listing'] as ProbeResult,
            daily: results['daily'] as ProbeResult,
            ...(results['legacy-daily']
              ? { legacyListing: results['legacy-listing'] as ProbeResult, legacyDaily: results['legacy-daily'] as ProbeResult }
              : {}),
          });
        }
      },
    );
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the storage history process exited with ${code}`))));
  });
  return figures;
}
