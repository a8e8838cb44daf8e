/**
 * Starting a connector run, on demand (the API) or on schedule: refused while the connector is
 * not ready or has a run going; otherwise its collection run is opened and handed to the task
 * queue. A run the queue refuses is ended at once, so it neither blocks the next one nor reads as
 * running until it is abandoned.
 */
import type { CollectionRun, RunStore } from '../runs/run-store.js';
import { needsOf } from './connector-listing.js';
import type { ConnectorQueue } from './connector-queue.js';
import type { Connector, SettingValue } from './connector.js';

type Actor = CollectionRun['openedBy'];

export type StartRefusal =
  | { refused: 'not_ready'; needs: string[] }
  | { refused: 'busy'; runId: string }
  | { refused: 'queue_unavailable'; runId: string; error: unknown };

export type StartOutcome = { started: CollectionRun } | StartRefusal;

export async function startConnectorRun(
  deps: { runs: RunStore; queue: ConnectorQueue; now: () => Date },
  connector: Connector,
  facts: { settings: Readonly<Record<string, SettingValue>>; enabled: boolean; actor: Actor },
): Promise<StartOutcome> {
  const needs = needsOf(connector, facts.settings, facts.enabled);
  if (needs.length > 0) return { refused: 'not_ready', needs };
  const newest = (await deps.runs.page({ source: connector.source, limit: 1 }, deps.now())).items[0];
  if (newest?.status === 'running') return { refused: 'busy', runId: newest.id };
  const run = await deps.runs.open({ source: connector.source, kinds: connector.kinds, openedBy: facts.actor }, deps.now());
  try {
    await deps.queue.enqueue({ connector: connector.id, runId: run.id });
  } catch (error) {
    await deps.runs.fail(run.id, 'The task queue did not take the run.', facts.actor, deps.now());
    return { refused: 'queue_unavailable', runId: run.id, error };
  }
  return { started: run };
}
