/**
 * The connector worker as the task queue runs it, and the schedule that queues connectors ahead
 * of the daily report. Secrets come from the environment, where the runtime binds the enabled
 * connectors' Secret Manager secrets (index.ts); they are handed to the connector and to nothing else.
 */
import { loadRouteTable, type RouteTable } from '../http/route-table.js';
import { batchChecker } from '../connectors/batch-check.js';
import { cadenceOf, isDueAt, needsOf, reportHourOf } from '../connectors/connector-listing.js';
import { cloudTasksConnectorQueue } from '../connectors/connector-queue.js';
import { ConnectorRunLog } from '../connectors/connector-run-model.js';
import { runConnector } from '../connectors/connector-run.js';
import { builtInConnectors } from '../connectors/registry.js';
import { startConnectorRun } from '../connectors/start-run.js';
import type { Connector, SettingValue } from '../connectors/connector.js';
import { loadOnce } from '../common/maybe-async.js';
import * as config from '../config.js';
import { EvidenceStore } from '../evidence/evidence-store.js';
import { logs } from '../logs.js';
import { RunNotFound } from '../runs/run-errors.js';
import { RunStore } from '../runs/run-store.js';
import { SettingsStore } from '../settings/settings-store.js';
import { openStore } from '../storage/open-store.js';
import { collectionRunIdPattern } from '@evident/contract';

const runIdShape = new RegExp(collectionRunIdPattern);

const dependencies = loadOnce(async () => {
  const store = await openStore();
  return {
    store,
    runs: new RunStore(store, config.runAbandonHours, config.populationDropPercent),
    evidence: new EvidenceStore(store),
    checkBatch: batchChecker(ingestBodyValidator(await loadRouteTable('evidence'))),
  };
});

/** The body validator of `POST /api/evidence`, which judges every batch a connector sends. */
export function ingestBodyValidator(table: RouteTable) {
  const validate = table.operations.find((operation) => operation.operationId === 'ingestEvidence')?.validate.body;
  if (!validate) throw new Error('the evidence route table has no ingestEvidence body validator');
  return validate;
}

/** The secrets of a connector that hold a value here. */
function secretsOf(connector: Connector): Record<string, string> {
  return Object.fromEntries(
    connector.secrets.flatMap((secret) => {
      const value = process.env[secret.name]?.trim();
      return value ? [[secret.name, value]] : [];
    }),
  );
}

export async function runConnectorTask(payload: { connector?: unknown; runId?: unknown }): Promise<void> {
  const connector = builtInConnectors.find((candidate) => candidate.id === payload.connector);
  const runId = payload.runId;
  // Retrying a task that names no connector or run would never help.
  if (!connector || typeof runId !== 'string' || !runIdShape.test(runId)) {
    logs.connectorRunEnded(String(payload.connector), String(runId), 'malformed task');
    return;
  }
  const deps = await dependencies();
  const now = () => new Date();
  const run = await deps.runs.get(runId, now()).catch((error: unknown) => {
    if (error instanceof RunNotFound) return undefined;
    throw error;
  });
  if (!run || run.source !== connector.source) {
    logs.connectorRunEnded(connector.id, runId, 'no such run');
    return;
  }
  const settings = (await new SettingsStore(deps.store).current())?.settings.connectors[connector.id] ?? {};
  const secrets = secretsOf(connector);
  const standIn = config.connectorStandIns()[connector.id];
  await runConnector(
    { runs: deps.runs, evidence: deps.evidence, checkBatch: deps.checkBatch, now },
    {
      connector,
      run,
      log: new ConnectorRunLog(deps.store, runId),
      settings,
      secrets,
      actor: run.openedBy,
      needs: needsOf(connector, settings, config.enabledConnectors().has(connector.id), new Set(Object.keys(secrets))),
      ...(standIn ? { standIn } : {}),
    },
  );
}

/** The hour (0–23) of `now` in the report's time zone. */
function hourIn(timeZone: string, now: Date): number {
  return Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone }).format(now));
}

/** The schedule's tick: queues every enabled, ready connector whose cadence falls on this hour. */
export async function runDueConnectors(now: Date = new Date()): Promise<StartedConnector[]> {
  const hour = hourIn(config.reportTimeZone(), now);
  const reportHour = reportHourOf(config.reportSchedule());
  return startConnectors(now, { uid: 'connector-schedule' }, (settings) => isDueAt(hour, cadenceOf(settings), reportHour));
}

/** Development only (`devRunConnectors`): queues every enabled, ready connector now, whatever its cadence. */
export function runEveryConnector(now: Date = new Date()): Promise<StartedConnector[]> {
  return startConnectors(now, { uid: 'dev-trigger' }, () => true);
}

export interface StartedConnector {
  connector: string;
  /** The run queued, or why none was. */
  runId?: string;
  refused?: 'not_ready' | 'busy' | 'queue_unavailable';
}

async function startConnectors(
  now: Date,
  actor: { uid: string },
  wanted: (settings: Readonly<Record<string, SettingValue>>) => boolean,
): Promise<StartedConnector[]> {
  const store = await openStore();
  const runs = new RunStore(store, config.runAbandonHours, config.populationDropPercent);
  const saved = (await new SettingsStore(store).current())?.settings.connectors ?? {};
  const enabled = config.enabledConnectors();
  const queue = cloudTasksConnectorQueue();
  const started: StartedConnector[] = [];
  for (const connector of builtInConnectors.filter((candidate) => enabled.has(candidate.id))) {
    const settings = saved[connector.id] ?? {};
    if (!wanted(settings)) continue;
    const outcome = await startConnectorRun({ runs, queue, now: () => now }, connector, { settings, enabled: true, actor });
    if ('started' in outcome) {
      started.push({ connector: connector.id, runId: outcome.started.id });
      continue;
    }
    started.push({ connector: connector.id, refused: outcome.refused });
    if (outcome.refused === 'queue_unavailable') logs.connectorQueueFailed(connector.id, outcome.runId, outcome.error);
    else logs.connectorRunEnded(connector.id, '', `not started: ${outcome.refused}`);
  }
  return started;
}
