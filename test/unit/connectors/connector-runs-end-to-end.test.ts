/**
 * Whole connector runs, vendor to store: the GitHub and Okta connectors, through their SDKs
 * against their stand-ins, run by the runner on a memory store. A complete run defines the
 * source's population; a run whose vendor answers 500 halfway ends incomplete (`failed`) with
 * what it sent stored and the population unchanged; a revoked credential fails the run as
 * `credential_rejected`, the token in no stored word.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchChecker } from '../../../functions/src/connectors/batch-check.ts';
import type { Connector } from '../../../functions/src/connectors/connector.ts';
import { runConnector } from '../../../functions/src/connectors/connector-run.ts';
import { ConnectorRunLog } from '../../../functions/src/connectors/connector-run-model.ts';
import { githubCollector } from '../../../functions/src/connectors/github/collect-github.ts';
import { githubConnector } from '../../../functions/src/connectors/github/github-connector.ts';
import { oktaConnector } from '../../../functions/src/connectors/okta/okta-connector.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { ingestBodyValidator } from '../../../functions/src/jobs/connector-job.ts';
import { logs } from '../../../functions/src/logs.ts';
import { populationsIndexPrefix } from '../../../functions/src/runs/run-layout.ts';
import { RunStore } from '../../../functions/src/runs/run-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { buildFixture, fixtureToday } from '../../stand-ins/github/fixture.ts';
import { startGitHubStandIn } from '../../stand-ins/github/github-stand-in.ts';
import { startOktaStandIn } from '../../stand-ins/okta/okta-stand-in.ts';
import { tableOf } from '../../support/families.ts';

const actor = { uid: 'u-ada' };
const now = () => new Date(fixtureToday);

interface Vendor {
  /** Starts the vendor's stand-in; `fault` makes it fail from some call on, or refuse the credential. */
  start(
    fault?: 'fails-halfway' | 'revoked',
  ): Promise<{ settings: Record<string, string>; secrets: Record<string, string>; close(): Promise<void> }>;
  connector: Connector;
  /** The kind whose population the test follows. */
  kind: string;
}

const githubToken = 'github_pat_11AAAAAAA0end0to0end0token0000';
const oktaToken = '00end-to-end-okta-token-aaaaaaaaaaaaaaaaaaaa';

const vendors: Record<string, Vendor> = {
  GitHub: {
    // The SDK's own 5xx retries, on a back-off of a millisecond a unit, so a persisting 500 fails at once.
    connector: { ...githubConnector, load: async () => githubCollector({ retryAfterBaseMs: 1 }) },
    kind: 'repo.branch_protection',
    async start(fault) {
      const standIn = await startGitHubStandIn({
        fixture: buildFixture(250, 'acme'),
        token: githubToken,
        ...(fault === 'fails-halfway' ? { failFrom: 60 } : {}),
        ...(fault === 'revoked' ? { revoked: true } : {}),
      });
      return {
        settings: { organization: 'acme', baseUrl: standIn.origin },
        secrets: { GITHUB_CREDENTIAL: githubToken },
        close: () => standIn.close(),
      };
    },
  },
  Okta: {
    connector: oktaConnector,
    kind: 'idp.user',
    async start(fault) {
      const standIn = await startOktaStandIn({
        users: 450,
        token: oktaToken,
        ...(fault === 'fails-halfway' ? { failFromCall: 200 } : {}),
      });
      return {
        settings: { orgUrl: standIn.url },
        secrets: { OKTA_CREDENTIAL: fault === 'revoked' ? '00revoked-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaa' : oktaToken },
        close: () => standIn.close(),
      };
    },
  },
};

let store: MemoryStore;
let runs: RunStore;

beforeEach(() => {
  vi.spyOn(logs, 'connectorRunEnded').mockImplementation(() => undefined);
  store = new MemoryStore();
  runs = new RunStore(
    store,
    () => 6,
    () => 10,
  );
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function runOnce(vendor: Vendor, fault?: 'fails-halfway' | 'revoked') {
  const served = await vendor.start(fault);
  try {
    const { connector } = vendor;
    const run = await runs.open({ source: connector.source, kinds: connector.kinds, openedBy: actor }, now());
    const log = new ConnectorRunLog(store, run.id);
    const checkBatch = batchChecker(ingestBodyValidator(await tableOf('evidence')()));
    await runConnector(
      { runs, evidence: new EvidenceStore(store), checkBatch, now },
      { connector, run, log, settings: served.settings, secrets: served.secrets, actor, needs: [] },
    );
    return { ended: await runs.get(run.id, now()), log };
  } finally {
    await served.close();
  }
}

/** The newest complete population of the connector's source and the followed kind: its run and count. */
async function newestPopulation(vendor: Vendor) {
  const { items } = await store.list(populationsIndexPrefix(vendor.connector.source, vendor.kind), { pageSize: 1 });
  return { name: items[0]!.name, count: Number(items[0]!.metadata['count']) };
}

for (const [name, vendor] of Object.entries(vendors)) {
  describe(`a ${name} connector run`, () => {
    it('that completes defines the population; one that fails halfway leaves it as it was', async () => {
      const complete = await runOnce(vendor);
      expect([complete.ended.status, complete.log.events.at(-1)!.type]).toEqual(['complete', 'run.completed']);
      const before = await newestPopulation(vendor);
      expect(before.name.endsWith(complete.ended.id)).toBe(true);
      expect(before.count).toBe(complete.ended.received![vendor.kind]);

      const failed = await runOnce(vendor, 'fails-halfway');
      expect([failed.ended.status, failed.ended.incompleteReason, failed.log.events.at(-1)!.type]).toEqual([
        'incomplete',
        'failed',
        'run.failed',
      ]);
      const problem = (failed.log.events.at(-1)!.data as { problem: { reason: string } }).problem;
      expect(problem.reason).toBe('vendor_unavailable');
      // What it sent before the vendor failed is stored under the run, and the population is the complete run's.
      const sent = failed.log.events.flatMap((event) => (event.type === 'run.progress' ? [event.data.sent] : []));
      const receipts = await store.list(`runs/${failed.ended.id}/receipts/`);
      expect(receipts.items.reduce((sum, receipt) => sum + Number(receipt.metadata['items']), 0)).toBe(sent.at(-1) ?? 0);
      expect(await newestPopulation(vendor)).toEqual(before);
    });

    it('with a revoked credential fails as credential_rejected, the token in no word of it', async () => {
      const { ended, log } = await runOnce(vendor, 'revoked');
      const problem = (log.events.at(-1)!.data as { problem: { reason: string; detail: string } }).problem;
      expect([ended.status, ended.incompleteReason, problem.reason]).toEqual(['incomplete', 'failed', 'credential_rejected']);
      const stored = JSON.stringify([ended, log.events]);
      expect(stored).not.toContain(githubToken);
      expect(stored).not.toContain('00revoked-token');
    });
  });
}
