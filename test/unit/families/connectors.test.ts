/**
 * `/api/connectors` through the connectors family, with a connector made for the test and the
 * runs handed to an in-process worker instead of Cloud Tasks: what a connector needs before it
 * can run (the deployment's `CONNECTORS`, its saved settings), what it feeds, starting a run
 * (202 with Location, queued), one run at a time, the run's progress and events once the worker
 * ran it, cancelling, a queue that refuses a run, and each refusal as its exact problem.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProblemCode } from '@evident/contract/problems';
import { batchChecker } from '../../../functions/src/connectors/batch-check.ts';
import type { CollectedItem, Connector } from '../../../functions/src/connectors/connector.ts';
import type { ConnectorQueue, ConnectorTask } from '../../../functions/src/connectors/connector-queue.ts';
import { runConnector } from '../../../functions/src/connectors/connector-run.ts';
import { ConnectorRunLog } from '../../../functions/src/connectors/connector-run-model.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { createConnectorsFamily } from '../../../functions/src/families/connectors.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { ingestBodyValidator } from '../../../functions/src/jobs/connector-job.ts';
import { logs } from '../../../functions/src/logs.ts';
import { RunStore } from '../../../functions/src/runs/run-store.ts';
import { defaultVersionOf } from '../../../functions/src/settings/settings-model.ts';
import { SettingsStore } from '../../../functions/src/settings/settings-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

type ConnectorView = components['schemas']['Connector'];
type ConnectorRun = components['schemas']['ConnectorRun'];

const catalog = compileCatalogSources(paths.catalog);
const store = new MemoryStore();
let clock = new Date('2026-11-27T05:00:00Z');
/** Each run opens a minute after the one before, so the newest is the one opened last. */
const tick = () => (clock = new Date(clock.getTime() + 60_000));
const runs = new RunStore(
  store,
  () => 6,
  () => 10,
);

const devices: Connector = {
  id: 'test-mdm',
  title: 'Test MDM',
  source: 'test-mdm-connector',
  kinds: ['endpoint.device'],
  settings: [
    { name: 'tenant', description: 'the MDM tenant to read', required: true, example: 'acme' },
    { name: 'region', description: 'where the tenant lives', required: false, example: 'eu' },
  ],
  secrets: [{ name: 'TEST_MDM_TOKEN', description: 'an API token with read access to devices' }],
  credentials: 'An API token.',
  permissions: ['Devices: read'],
  load: async () => ({
    async *collect(context) {
      for (let n = 1; n <= 3; n++) {
        context.progress.called('devices', 1);
        yield device(n);
      }
    },
  }),
};

const device = (n: number): CollectedItem => ({
  kind: 'endpoint.device',
  subject: `LAPTOP-${n}`,
  collectedAt: clock.toISOString(),
  data: {
    owner: `user${n}@example.com`,
    platform: 'macos',
    diskEncrypted: true,
    edrInstalled: true,
    edrHealthy: true,
    osSupported: true,
    screenLockMinutes: 5,
    firewallEnabled: true,
  },
});

let enabled = new Set<string>();
const queued: ConnectorTask[] = [];
let queueFails = false;
const queue: ConnectorQueue = {
  enqueue: async (task) => {
    if (queueFails) throw new Error('queue down');
    queued.push(task);
  },
};
let served: Served;

beforeAll(async () => {
  for (const name of ['connectorRunEnded', 'connectorQueueFailed'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  setMode('public');
  served = await serve(
    createConnectorsFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => clock,
      verifyToken: fakeVerifier(),
      loadTable: tableOf('connectors'),
      connectors: [devices],
      enabled: () => enabled,
      queue: () => queue,
    }),
  );
});

afterAll(async () => {
  await served.close();
  vi.restoreAllMocks();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${served.url}${path}`, { headers });
const post = (path: string) => (tick(), fetch(`${served.url}${path}`, { method: 'POST' }));

async function expectProblem(answer: Response, code: ProblemCode, detail: string) {
  const instance = new URL(answer.url).pathname;
  const problem = expectedProblem(code, detail, instance, answer.headers.get('x-request-id')!);
  expect([answer.status, await answer.json()]).toEqual([problem.status, problem]);
}

async function saveTenant(): Promise<void> {
  const settings = new SettingsStore(store);
  const base = defaultVersionOf(catalog).settings;
  await settings.save(null, {
    settings: { ...base, connectors: { 'test-mdm': { tenant: 'acme', cadenceHours: 6 } } },
    savedBy: { uid: 'u-ada' },
    savedAt: clock.toISOString(),
    reason: 'Connect the MDM',
  });
}

/** What the worker does with a queued task, here in this process. */
async function work(task: ConnectorTask): Promise<void> {
  const run = await runs.get(task.runId, clock);
  await runConnector(
    {
      runs,
      evidence: new EvidenceStore(store),
      checkBatch: batchChecker(ingestBodyValidator(await tableOf('evidence')())),
      now: () => clock,
    },
    {
      connector: devices,
      run,
      log: new ConnectorRunLog(store, task.runId),
      settings: { tenant: 'acme' },
      secrets: { TEST_MDM_TOKEN: 'token' },
      actor: run.openedBy,
      needs: [],
    },
  );
}

describe('the connectors', () => {
  it('lists each connector with what it needs, what it feeds and how often it runs', async () => {
    const answer = await get('/api/connectors');
    expect(answer.status).toBe(200);
    const { items } = (await answer.json()) as { items: ConnectorView[] };
    const feeds = catalog.controls
      .filter((control) => control.evidence.some((requirement) => requirement.kind === 'endpoint.device'))
      .map((control) => ({ id: control.id, title: control.title }));
    expect(feeds.map((feed) => feed.id)).toEqual(['END-01', 'END-02', 'END-03', 'END-04']);
    expect(items).toEqual([
      {
        id: 'test-mdm',
        title: 'Test MDM',
        source: 'test-mdm-connector',
        kinds: ['endpoint.device'],
        feeds,
        settings: [
          { name: 'tenant', description: 'the MDM tenant to read', required: true, example: 'acme' },
          { name: 'region', description: 'where the tenant lives', required: false, example: 'eu' },
        ],
        secrets: [{ name: 'TEST_MDM_TOKEN', description: 'an API token with read access to devices' }],
        credentials: 'An API token.',
        permissions: ['Devices: read'],
        enabled: false,
        ready: false,
        needs: [
          'the deployment to run it: add "test-mdm" to CONNECTORS in functions/.env.<project> and deploy',
          'the setting "tenant": the MDM tenant to read',
        ],
        cadenceHours: 24,
        links: {
          self: '/api/connectors/test-mdm',
          runs: '/api/runs?source=test-mdm-connector',
          start: '/api/connectors/test-mdm/runs',
        },
      },
    ]);
  });

  it('refuses to start a connector that is not ready, naming what it needs', async () => {
    await expectProblem(
      await post('/api/connectors/test-mdm/runs'),
      'connector_not_ready',
      'Test MDM cannot run yet; it needs the deployment to run it: add "test-mdm" to CONNECTORS in functions/.env.<project> and deploy; and the setting "tenant": the MDM tenant to read.',
    );
    await expectProblem(
      await get('/api/connectors/nope'),
      'connector_not_found',
      'There is no connector "nope". GET /api/connectors lists them.',
    );
    expect(queued).toEqual([]);
  });

  it('starts a run once enabled and set, one at a time, and shows its progress once the worker ran it', async () => {
    enabled = new Set(['test-mdm']);
    await saveTenant();
    const connector = (await (await get('/api/connectors/test-mdm')).json()) as ConnectorView;
    expect([connector.ready, connector.needs, connector.cadenceHours, connector.settings[0]!.value]).toEqual([
      true,
      [],
      6,
      'acme',
    ]);

    const answer = await post('/api/connectors/test-mdm/runs');
    const started = (await answer.json()) as ConnectorRun;
    expect([answer.status, answer.headers.get('location'), started.state, started.run.status, started.run.kinds]).toEqual([
      202,
      `/api/connectors/test-mdm/runs/${started.id}`,
      'queued',
      'running',
      ['endpoint.device'],
    ]);
    expect(queued).toEqual([{ connector: 'test-mdm', runId: started.id }]);
    await expectProblem(
      await post('/api/connectors/test-mdm/runs'),
      'connector_busy',
      `Test MDM has a run going (${started.id}); follow it at /api/connectors/test-mdm/runs/${started.id}/events, or cancel it.`,
    );

    await work(queued[0]!);
    const done = (await (await get(`/api/connectors/test-mdm/runs/${started.id}`)).json()) as ConnectorRun;
    expect([done.state, done.progress, done.run.status, done.run.received, done.lastEventId]).toEqual([
      'succeeded',
      { calls: 3, items: 3, sent: 3, rateLimitWaits: 0, waitedSeconds: 0 },
      'complete',
      { 'endpoint.device': 3 },
      3,
    ]);
    const events = (await (await get(`${done.links.events}?lastEventId=1`, { Accept: 'application/json' })).json()) as {
      events: { id: number; type: string }[];
      ended: boolean;
    };
    expect([events.events.map((event) => [event.id, event.type]), events.ended]).toEqual([
      [
        [2, 'run.progress'],
        [3, 'run.completed'],
      ],
      true,
    ]);
    const stream = await get(done.links.events, { 'Last-Event-ID': '3' });
    expect(stream.status).toBe(204);
    const listed = (await (await get('/api/connectors/test-mdm')).json()) as ConnectorView;
    expect(listed.newestRun?.id).toBe(started.id);
  });

  it('cancels a queued run, and refuses to cancel it twice', async () => {
    queued.length = 0;
    const started = (await (await post('/api/connectors/test-mdm/runs')).json()) as ConnectorRun;
    const answer = await post(started.links.cancel);
    const cancelled = (await answer.json()) as ConnectorRun;
    expect([answer.status, cancelled.state, cancelled.run.status, cancelled.lastEventId]).toEqual([
      200,
      'cancelled',
      'cancelled',
      1,
    ]);
    await work(queued[0]!);
    const after = (await (await get(started.links.self)).json()) as ConnectorRun;
    expect([after.state, after.lastEventId, after.progress.sent]).toEqual(['cancelled', 1, 0]);
    await expectProblem(
      await post(started.links.cancel),
      'run_ended',
      `The collection run ${started.id} was cancelled at ${cancelled.run.endedAt}, and takes nothing more; open a new run.`,
    );
  });

  it('ends a run the queue refused at once, so the next one can start', async () => {
    queueFails = true;
    const refused = await post('/api/connectors/test-mdm/runs');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '5']);
    queueFails = false;
    const page = await runs.page({ source: 'test-mdm-connector', limit: 1 }, clock);
    expect([page.items[0]!.status, page.items[0]!.incompleteReason, page.items[0]!.note]).toEqual([
      'incomplete',
      'failed',
      'The task queue did not take the run.',
    ]);
    expect((await post('/api/connectors/test-mdm/runs')).status).toBe(202);
  });

  it('answers 404 for a run of another source or none', async () => {
    const other = await runs.open({ source: 'okta', kinds: ['idp.user'], openedBy: { uid: 'u-ada' } }, clock);
    await expectProblem(
      await get(`/api/connectors/test-mdm/runs/${other.id}`),
      'connector_run_not_found',
      `Test MDM has no run "${other.id}".`,
    );
    await expectProblem(
      await get('/api/connectors/test-mdm/runs/run-000000000-000000000000'),
      'connector_run_not_found',
      'Test MDM has no run "run-000000000-000000000000".',
    );
  });
});
