/**
 * The connector runner (functions/src/connectors/connector-run.ts) with a connector made for the
 * test, on a memory store: items stored under the run in batches and counted, the run completed
 * with its population; a subject yielded twice counted once; a connector failing halfway ends
 * the run incomplete and the population it had stays; rate-limit waits and progress as events in
 * order; a cancel stops it; a lost attempt ends its run; an item the description refuses fails
 * the run; secrets never reach a problem or a log.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchChecker } from '../../../functions/src/connectors/batch-check.ts';
import {
  ConnectorFailure,
  type CollectedItem,
  type Connector,
  type CollectContext,
} from '../../../functions/src/connectors/connector.ts';
import { problemOf, runConnector, scrub, type RunInput } from '../../../functions/src/connectors/connector-run.ts';
import { RunFull } from '../../../functions/src/runs/run-errors.ts';
import { ConnectorRunLog, describeConnectorRun, writeCancelled } from '../../../functions/src/connectors/connector-run-model.ts';
import { ingestBodyValidator } from '../../../functions/src/jobs/connector-job.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { populationsIndexPrefix } from '../../../functions/src/runs/run-layout.ts';
import { RunStore } from '../../../functions/src/runs/run-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { tableOf } from '../../support/families.ts';

const ada = { uid: 'u-ada', email: 'ada@example.com' };
const now = new Date('2026-11-27T05:00:00Z');
const secret = 'ghp_S3cr3tTokenValue0123456789';

const user = (n: number, overrides: Record<string, unknown> = {}): CollectedItem => ({
  kind: 'idp.user',
  subject: `user${n}@example.com`,
  collectedAt: now.toISOString(),
  data: {
    email: `user${n}@example.com`,
    active: true,
    mfaEnabled: n % 7 !== 0,
    admin: false,
    employmentStatus: 'active',
    ...overrides,
  },
});

const tenant: CollectedItem = {
  kind: 'idp.settings',
  subject: 'example.okta.com',
  collectedAt: now.toISOString(),
  data: { mfaRequired: true, passwordMinLength: 14, sessionTimeoutMinutes: 720, ssoEnforced: true, lockoutThreshold: 10 },
};

/** A connector whose collect is the test's own generator. */
function connectorOf(collect: (context: CollectContext) => AsyncIterable<CollectedItem>): Connector {
  return {
    id: 'test-idp',
    title: 'Test IdP',
    source: 'test-idp-connector',
    kinds: ['idp.user', 'idp.settings'],
    settings: [],
    secrets: [{ name: 'TEST_IDP_TOKEN', description: 'an API token' }],
    credentials: 'an API token',
    permissions: ['read users'],
    load: async () => ({ collect }),
  };
}

async function* users(count: number, context: CollectContext, from = 1): AsyncIterable<CollectedItem> {
  for (let n = from; n < from + count; n++) {
    if (n % 100 === 1) context.progress.called('users', 100);
    yield user(n);
  }
}

let store: MemoryStore;
let runs: RunStore;
let evidence: EvidenceStore;
let checkBatch: ReturnType<typeof batchChecker>;

beforeEach(async () => {
  vi.spyOn(logs, 'connectorRunEnded').mockImplementation(() => undefined);
  store = new MemoryStore();
  runs = new RunStore(
    store,
    () => 6,
    () => 10,
  );
  evidence = new EvidenceStore(store);
  checkBatch = batchChecker(ingestBodyValidator(await tableOf('evidence')()));
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function start(connector: Connector, overrides: Partial<RunInput> = {}) {
  const run = await runs.open({ source: connector.source, kinds: connector.kinds, openedBy: ada }, now);
  const log = new ConnectorRunLog(store, run.id);
  const input: RunInput = {
    connector,
    run,
    log,
    settings: {},
    secrets: { TEST_IDP_TOKEN: secret },
    actor: ada,
    needs: [],
    ...overrides,
  };
  return {
    run,
    log,
    input,
    go: () => runConnector({ runs, evidence, checkBatch, now: () => now, progressEveryMs: Infinity }, input),
  };
}

const typesOf = (log: ConnectorRunLog) => log.events.map((event) => event.type);
const sentOf = (log: ConnectorRunLog) => log.events.flatMap((event) => (event.type === 'run.progress' ? [event.data.sent] : []));

describe('a connector run', () => {
  it('stores every item under the run in batches of 500 and completes it with the counts per kind', async () => {
    const connector = connectorOf(async function* (context) {
      yield* users(1234, context);
      context.progress.called('policies', 1);
      yield tenant;
    });
    const { run, log, go } = await start(connector);
    await go();

    expect(typesOf(log)).toEqual(['run.started', 'run.progress', 'run.progress', 'run.progress', 'run.completed']);
    expect(sentOf(log)).toEqual([500, 1000, 1235]);
    expect(log.events.at(-1)!.data).toEqual({ status: 'complete', counts: { 'idp.settings': 1, 'idp.user': 1234 } });
    const ended = await runs.get(run.id, now);
    expect([ended.status, ended.declared, ended.received]).toEqual([
      'complete',
      { 'idp.settings': 1, 'idp.user': 1234 },
      { 'idp.settings': 1, 'idp.user': 1234 },
    ]);
    const population = await runs.population(run.id, 'idp.user');
    expect([population.count, population.subjects[0], population.subjects.at(-1)]).toEqual([
      1234,
      'user1000@example.com',
      'user9@example.com',
    ]);
    const described = describeConnectorRun(connector.id, ended, log.events);
    expect([described.state, described.progress]).toEqual([
      'succeeded',
      { calls: 14, items: 1235, sent: 1235, rateLimitWaits: 0, waitedSeconds: 0 },
    ]);
    const stored = await evidence.get(
      `cn-${(await import('node:crypto')).createHash('sha256').update(`${run.id}\nidp.user\nuser7@example.com`).digest('hex').slice(0, 40)}`,
    );
    expect([stored.source, stored.subject, stored.runId, stored.data['mfaEnabled']]).toEqual([
      'test-idp-connector',
      'user7@example.com',
      run.id,
      false,
    ]);
  });

  it('counts a subject the vendor listed twice once, keeping the first', async () => {
    const connector = connectorOf(async function* () {
      yield user(1);
      yield user(2);
      yield user(1, { admin: true });
    });
    const { run, log, go } = await start(connector);
    await go();
    expect(log.events.at(-1)!.data).toEqual({ status: 'complete', counts: { 'idp.settings': 0, 'idp.user': 2 } });
    expect((await runs.get(run.id, now)).received).toEqual({ 'idp.settings': 0, 'idp.user': 2 });
  });

  it('ends the run incomplete when the connector fails halfway, keeping what it sent and the population before it', async () => {
    const complete = await start(connectorOf((context) => users(1000, context)));
    await complete.go();
    const failing = connectorOf(async function* (context) {
      yield* users(700, context);
      throw new ConnectorFailure('vendor_unavailable', 'Test IdP answered 500 to GET /api/v1/users after 3 tries.');
    });
    const { run, log, go } = await start(failing);
    await go();

    expect(typesOf(log)).toEqual(['run.started', 'run.progress', 'run.failed']);
    expect(sentOf(log)).toEqual([500]);
    expect(log.events.at(-1)!.data).toEqual({
      problem: { reason: 'vendor_unavailable', detail: 'Test IdP answered 500 to GET /api/v1/users after 3 tries.' },
    });
    const ended = await runs.get(run.id, now);
    expect([ended.status, ended.incompleteReason, ended.note]).toEqual([
      'incomplete',
      'failed',
      'Test IdP answered 500 to GET /api/v1/users after 3 tries.',
    ]);
    // The newest complete population of the source is still the first run's, of 1,000.
    const index = await store.list(populationsIndexPrefix(failing.source, 'idp.user'));
    expect(index.items.map((item) => [item.name.endsWith(complete.run.id), item.metadata['count']])).toEqual([[true, '1000']]);
    expect(describeConnectorRun(failing.id, ended, log.events).state).toBe('failed');
  });

  it('records each rate-limit wait the connector reports, in order with its progress', async () => {
    const connector = connectorOf(async function* (context) {
      yield* users(500, context);
      context.progress.rateLimited(1, 'secondary rate limit');
      yield* users(10, context, 501);
    });
    const { run, log, go } = await start(connector);
    await go();
    expect(typesOf(log)).toEqual(['run.started', 'run.progress', 'rate_limit.waited', 'run.progress', 'run.completed']);
    expect(log.events[2]!.data).toEqual({ seconds: 1, reason: 'secondary rate limit' });
    expect(describeConnectorRun(connector.id, await runs.get(run.id, now), log.events).progress).toEqual({
      calls: 6,
      items: 510,
      sent: 510,
      rateLimitWaits: 1,
      waitedSeconds: 1,
    });
  });

  it('stops at its next batch once cancelled, and the run reads cancelled', async () => {
    const hooks: { cancel?: () => Promise<void> } = {};
    let aborted = false;
    const connector = connectorOf(async function* (context) {
      context.signal.addEventListener('abort', () => (aborted = true));
      yield* users(500, context);
      await hooks.cancel!();
      yield* users(600, context, 501);
    });
    const { run, log, go } = await start(connector);
    hooks.cancel = async () => {
      await runs.cancel(run.id, undefined, ada, now);
      await writeCancelled(new ConnectorRunLog(store, run.id), ada.uid, () => now);
    };
    await go();
    await log.refresh();
    expect(typesOf(log)).toEqual(['run.started', 'run.progress', 'run.cancelled']);
    expect(aborted).toBe(true);
    const ended = await runs.get(run.id, now);
    expect([ended.status, describeConnectorRun(connector.id, ended, log.events).state]).toEqual(['cancelled', 'cancelled']);
    expect((await store.list(`runs/${run.id}/receipts/`)).items).toHaveLength(1);
  });

  it('ends a run whose first attempt was lost instead of collecting it twice', async () => {
    let collected = 0;
    const connector = connectorOf(async function* () {
      collected++;
      yield user(1);
    });
    const { run, log, go } = await start(connector);
    await log.append('run.started', { kinds: ['idp.settings', 'idp.user'] }, now);
    await go();
    expect([collected, typesOf(log)]).toEqual([0, ['run.started', 'run.failed']]);
    expect((log.events[1]!.data as { problem: { reason: string } }).problem.reason).toBe('worker_lost');
    expect((await runs.get(run.id, now)).incompleteReason).toBe('failed');
  });

  it('fails the run, storing nothing of the batch, when an item breaks its kind\u2019s schema', async () => {
    vi.spyOn(logs, 'connectorRunError').mockImplementation(() => undefined);
    const connector = connectorOf(async function* () {
      yield user(1);
      yield user(2, { mfaEnabled: 'yes' });
    });
    const { run, log, go } = await start(connector);
    await go();
    expect(log.events.at(-1)!.data).toEqual({
      problem: {
        reason: 'internal',
        detail:
          'The connector collected an item the API description refuses: idp.user "user2@example.com": /data/mfaEnabled must be boolean',
      },
    });
    expect((await runs.get(run.id, now)).status).toBe('incomplete');
    expect((await store.list('evidence/')).items).toEqual([]);
  });

  it('fails a run that lacks a setting or secret with not_configured, calling no vendor', async () => {
    let loaded = false;
    const connector: Connector = {
      ...connectorOf(users.bind(null, 1) as never),
      load: async () => ((loaded = true), { collect: () => users(1, {} as never) }),
    };
    const { log, go } = await start(connector, { needs: ['the secret TEST_IDP_TOKEN: an API token'] });
    await go();
    expect([loaded, log.events.at(-1)!.data]).toEqual([
      false,
      { problem: { reason: 'not_configured', detail: 'Test IdP cannot run: it needs the secret TEST_IDP_TOKEN: an API token.' } },
    ]);
  });

  it('never lets a secret reach the problem or the log, whatever the connector threw', async () => {
    const errors: string[] = [];
    vi.spyOn(logs, 'connectorRunError').mockImplementation((_connector, _run, error) => void errors.push(error));
    const leaky = connectorOf(async function* () {
      yield user(1);
      throw new Error(`request failed with headers {"authorization":"token ${secret}"}`);
    });
    const first = await start(leaky);
    await first.go();
    expect(first.log.events.at(-1)!.data).toEqual({
      problem: { reason: 'internal', detail: 'The connector stopped on an unexpected error; the logs have its details.' },
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"authorization":"token [secret]"');
    expect(errors[0]).not.toContain(secret);

    const careless = connectorOf(async function* () {
      yield user(1);
      throw new ConnectorFailure('credential_rejected', `The token ${secret} was refused.`);
    });
    const second = await start(careless);
    await second.go();
    expect(second.log.events.at(-1)!.data).toEqual({
      problem: { reason: 'credential_rejected', detail: 'The token [secret] was refused.' },
    });
  });
});

describe('the problem of a run that failed', () => {
  it('says so, naming the bound, when the organisation holds more than a run may receive', () => {
    expect(problemOf(new RunFull('run-0mwyiiow0-75d3a515154f', 'items', 200_000))).toEqual({
      reason: 'internal',
      detail:
        'The organisation holds more than one collection run may receive (200,000 items); what was sent is stored, and the run is incomplete.',
    });
  });
});

describe('scrubbing secrets out of text', () => {
  it('takes out a whole secret and each line of a private key', () => {
    const key = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----';
    expect(scrub(`bad key MIIEvQIBADANBgkqhkiG9w0BAQEFAASC near BKcwggSjAgEAAoIBAQC7 and ${secret}`, { A: key, B: secret })).toBe(
      'bad key [secret] near [secret] and [secret]',
    );
  });
});
