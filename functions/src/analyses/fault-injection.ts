/**
 * Test-only fault injection for the analysis worker, so the integration tests can prove that a
 * run survives a worker dying half-way and being retried by the real (emulated) task queue.
 *
 * It is read from `EVIDENT_FAULT_INJECTION` and honoured only inside the Firebase emulators:
 * `{"crashOnDate": "2025-01-07", "afterControls": 5}` makes the first attempt at any run for
 * that date throw after persisting its fifth control ("first" is decided by a create-only
 * marker object, so it holds across the emulator's worker processes);
 * `{"slowOnDate": "2025-01-08", "delayMs": 200}` makes runs for that date pause after each
 * control, so a test can watch one live, cancel it, or outlast a connection's time limit.
 * With either set, every attempt that returns (completed, or stopped by a cancel) leaves a marker,
 * so a test waits for the worker to have stopped instead of sleeping and hoping it has.
 */
import * as config from '../config.js';
import { PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import type { RunRecord } from './analysis-model.js';

interface Fault {
  crashOnDate?: string;
  afterControls?: number;
  slowOnDate?: string;
  delayMs?: number;
}

export class InjectedCrash extends Error {
  constructor(runId: string, index: number) {
    super(`injected crash in ${runId} after control ${index} (EVIDENT_FAULT_INJECTION)`);
    this.name = 'InjectedCrash';
  }
}

export function injectedFaults(store: ObjectStore): ((record: RunRecord, index: number) => Promise<void>) | undefined {
  const setting = config.faultInjection();
  if (!setting) return undefined;
  const fault = JSON.parse(setting) as Fault;
  return async (record, index) => {
    if (record.date === fault.slowOnDate) await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 0));
    if (record.date !== fault.crashOnDate || index !== fault.afterControls) return;
    try {
      await store.create(`test-faults/crashed/${record.id}`, '1');
    } catch (error) {
      if (error instanceof PreconditionFailed) return; // crashed once already
      throw error;
    }
    throw new InjectedCrash(record.id, index);
  };
}

/** Test-only: marks that an attempt at a run returned, as `test-faults/attempts-ended/<run>/<attempt>`. */
export function attemptEndMarker(store: ObjectStore): ((runId: string, attempt: number) => Promise<void>) | undefined {
  if (!config.faultInjection()) return undefined;
  return async (runId, attempt) => {
    await store.create(`test-faults/attempts-ended/${runId}/${attempt}`, '1').catch((error: unknown) => {
      if (!(error instanceof PreconditionFailed)) throw error;
    });
  };
}
