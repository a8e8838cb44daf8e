/**
 * The `connectors` family: the built-in connectors and what each needs, a run started on demand
 * (opened here as a collection run, collected by the worker off the request path), its progress
 * as a resumable stream, and cancelling it.
 */
import { describeConnector, type ConnectorView } from '../connectors/connector-listing.js';
import { startConnectorRun } from '../connectors/start-run.js';
import { cloudTasksConnectorQueue, type ConnectorQueue } from '../connectors/connector-queue.js';
import {
  ConnectorRunLog,
  describeConnectorRun,
  writeCancelled,
  type ConnectorRun,
  type ConnectorRunEvent,
} from '../connectors/connector-run-model.js';
import type { Connector, SettingValue } from '../connectors/connector.js';
import { builtInConnectors } from '../connectors/registry.js';
import { loadOnce, type MaybePromise } from '../common/maybe-async.js';
import * as config from '../config.js';
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { rethrowAsProblem } from '../http/domain-problems.js';
import {
  EventStream,
  resumePoint,
  settingsLimits,
  throughBufferingProxy,
  wantsJson,
  type StreamLimits,
} from '../http/event-stream.js';
import type { OperationInput, OperationResult, RequestContext } from '../http/operation-types.js';
import { ApiProblem } from '../http/problem.js';
import { logs } from '../logs.js';
import { RunNotFound } from '../runs/run-errors.js';
import { RunStore, type CollectionRun } from '../runs/run-store.js';
import { SettingsStore } from '../settings/settings-store.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type ConnectorsFamilyOptions = FamilyOptions &
  ServiceOptions & {
    /** The connectors offered; the built-in ones unless a test brings its own. */
    connectors?: readonly Connector[];
    /** The connectors the deployment runs (`CONNECTORS`). */
    enabled?: () => ReadonlySet<string>;
    /** Where runs are sent; Cloud Tasks unless a test hands them to an in-process worker. */
    queue?: () => ConnectorQueue;
    streamLimits?: (buffered: boolean) => StreamLimits;
  };

/** Seconds a client is asked to wait before retrying when the queue refused a run. */
const queueRetryAfterSeconds = 5;

interface Dependencies {
  services: () => MaybePromise<Services>;
  runs: () => MaybePromise<RunStore>;
  connectors: readonly Connector[];
  enabled: () => ReadonlySet<string>;
  queue: () => ConnectorQueue;
  limits: (buffered: boolean) => StreamLimits;
  logs: Map<string, ConnectorRunLog>;
}

export function createConnectorsFamily(options: ConnectorsFamilyOptions = {}) {
  const services = servicesFrom(options);
  let queue: ConnectorQueue | undefined;
  const deps: Dependencies = {
    services,
    runs: loadOnce(async () => new RunStore((await services()).store, config.runAbandonHours, config.populationDropPercent)),
    connectors: options.connectors ?? builtInConnectors,
    enabled: options.enabled ?? config.enabledConnectors,
    queue: () => (queue ??= (options.queue ?? cloudTasksConnectorQueue)()),
    limits: options.streamLimits ?? settingsLimits,
    logs: new Map(),
  };

  return createFamily(
    'connectors',
    {
      listConnectors: async () => {
        const settings = await connectorSettings(deps);
        const items = await Promise.all(deps.connectors.map((connector) => view(deps, connector, settings)));
        return { status: 200, body: { items } };
      },
      getConnector: async ({ path }) => {
        const connector = connectorOrThrow(deps, path.connector);
        return { status: 200, body: await view(deps, connector, await connectorSettings(deps)) };
      },
      startConnectorRun: (input, context) => startRun(deps, input, context),
      getConnectorRun: async ({ path }) => ({ status: 200, body: await runOrThrow(deps, path.connector, path.id) }),
      cancelConnectorRun: (input, context) => cancelRun(deps, input, context),
      streamConnectorRunEvents: (input, context) => streamEvents(deps, input, context),
    },
    options,
  );
}

function connectorOrThrow(deps: Dependencies, id: string): Connector {
  const connector = deps.connectors.find((candidate) => candidate.id === id);
  if (!connector) throw new ApiProblem('connector_not_found', `There is no connector "${id}". GET /api/connectors lists them.`);
  return connector;
}

/** Every connector's non-secret settings in the newest settings version (one `list`, one read). */
async function connectorSettings(deps: Dependencies): Promise<Record<string, Record<string, SettingValue>>> {
  const saved = await new SettingsStore((await deps.services()).store).current();
  return saved?.settings.connectors ?? {};
}

async function newestRun(deps: Dependencies, connector: Connector): Promise<CollectionRun | undefined> {
  const s = await deps.services();
  const page = await (await deps.runs()).page({ source: connector.source, limit: 1 }, s.now());
  return page.items[0];
}

async function view(
  deps: Dependencies,
  connector: Connector,
  settings: Record<string, Record<string, SettingValue>>,
): Promise<ConnectorView> {
  const s = await deps.services();
  return describeConnector(connector, {
    settings: settings[connector.id] ?? {},
    enabled: deps.enabled().has(connector.id),
    controls: s.catalog.controls,
    newestRun: await newestRun(deps, connector),
  });
}

async function startRun(
  deps: Dependencies,
  { path }: OperationInput<'startConnectorRun'>,
  context: RequestContext,
): Promise<OperationResult<'startConnectorRun'>> {
  const connector = connectorOrThrow(deps, path.connector);
  const s = await deps.services();
  const outcome = await startConnectorRun({ runs: await deps.runs(), queue: deps.queue(), now: s.now }, connector, {
    settings: (await connectorSettings(deps))[connector.id] ?? {},
    enabled: deps.enabled().has(connector.id),
    actor: actorOf(context.caller),
  });
  if ('started' in outcome) {
    const described = describeConnectorRun(connector.id, outcome.started, []);
    return { status: 202, body: described, headers: { Location: described.links.self } };
  }
  switch (outcome.refused) {
    case 'not_ready':
      throw new ApiProblem('connector_not_ready', `${connector.title} cannot run yet; it needs ${outcome.needs.join('; and ')}.`);
    case 'busy':
      throw new ApiProblem(
        'connector_busy',
        `${connector.title} has a run going (${outcome.runId}); follow it at ` +
          `/api/connectors/${connector.id}/runs/${outcome.runId}/events, or cancel it.`,
      );
    case 'queue_unavailable':
      logs.connectorQueueFailed(connector.id, outcome.runId, outcome.error);
      throw new ApiProblem('queue_unavailable', `The task queue did not take the run of ${connector.title}; try again.`, {
        headers: { 'Retry-After': String(queueRetryAfterSeconds) },
      });
  }
}

function logOf(deps: Dependencies, store: Services['store'], id: string): ConnectorRunLog {
  let log = deps.logs.get(id);
  if (!log) {
    // Ended logs never change, so they are kept; the map is bounded by the runs one instance reads.
    if (deps.logs.size >= 100) deps.logs.delete(deps.logs.keys().next().value!);
    log = new ConnectorRunLog(store, id);
    deps.logs.set(id, log);
  }
  return log;
}

async function runOrThrow(deps: Dependencies, connectorId: string, id: string): Promise<ConnectorRun> {
  const connector = connectorOrThrow(deps, connectorId);
  const s = await deps.services();
  const run = await (await deps.runs()).get(id, s.now()).catch((error: unknown) => {
    if (error instanceof RunNotFound) return undefined;
    throw error;
  });
  if (run?.source !== connector.source) {
    throw new ApiProblem('connector_run_not_found', `${connector.title} has no run "${id}".`);
  }
  const log = logOf(deps, s.store, id);
  await log.refresh();
  return describeConnectorRun(connector.id, run, log.events);
}

/**
 * Ends the collection run as cancelled — create-only, so against a worker completing it at the
 * same moment exactly one wins — then writes `run.cancelled` after whatever the worker wrote.
 */
async function cancelRun(
  deps: Dependencies,
  { path }: OperationInput<'cancelConnectorRun'>,
  context: RequestContext,
): Promise<OperationResult<'cancelConnectorRun'>> {
  await runOrThrow(deps, path.connector, path.id);
  const s = await deps.services();
  const by = actorOf(context.caller);
  await (await deps.runs()).cancel(path.id, undefined, by, s.now()).catch(rethrowAsProblem({}));
  await writeCancelled(logOf(deps, s.store, path.id), by.uid, s.now);
  return { status: 200, body: await runOrThrow(deps, path.connector, path.id) };
}

async function streamEvents(
  deps: Dependencies,
  { path, query, headers }: OperationInput<'streamConnectorRunEvents'>,
  context: RequestContext,
): Promise<OperationResult<'streamConnectorRunEvents'>> {
  const run = await runOrThrow(deps, path.connector, path.id);
  const afterId = resumePoint(headers['Last-Event-ID'], query.lastEventId, run.lastEventId, 'run');
  const log = logOf(deps, (await deps.services()).store, path.id);
  if (wantsJson(context.header('accept'))) {
    return { status: 200, body: { events: log.events.slice(afterId) as ConnectorRunEvent[], ended: log.ended } };
  }
  if (log.ended && afterId === log.lastId) return { status: 204, body: undefined };
  return {
    status: 200,
    body: new EventStream(`connector run ${path.id}`, log, afterId, deps.limits(throughBufferingProxy(context))),
  };
}

export const handler = createConnectorsFamily();
