/**
 * The Google Cloud connector's bench: one collection of an organisation of 20,000 assets (and
 * 10,000 IAM policies) against the Cloud Asset Inventory stand-in, charging 50 ms per call, with
 * the compiled connector calling over gRPC through the real `@google-cloud/asset` client's stub.
 *
 * Minimum calls: ListAssets answers at most 1,000 assets a page (`page_size`, asset_service.proto)
 * and one content type per request, so reading R resources and P IAM policies takes at least
 * ⌈R / 1000⌉ + ⌈P / 1000⌉ calls. The connector reads resources in three listings (sinks first,
 * whose destinations it must recognise; buckets after the policies, whose public grants they
 * need; the rest together), so it may take up to two partial pages more.
 *
 * Concurrency: Google publishes no limit on ListAssets calls in flight, only a rate (100 a minute
 * per consumer project, 800 per organisation: cloud.google.com/asset-inventory/docs/quota), and a
 * listing's pages come one after another (each page token arrives with the page before). The
 * connector runs two lanes of listings at once, so 2. Its longer lane is the IAM policies then
 * the buckets (10 + 6 calls here), so no collection takes less than 16 × 50 = 800 ms, against a
 * target of 1.2 × 31 × 50 ÷ 2 = 930 ms: each call must follow the one before within a few
 * milliseconds, which is why the connector sends it before it decodes the page (asset-listing.ts).
 *
 * What is timed: the collection, from `collect` to its last item. Loading the connector is not:
 * the bench calls the connector's `load`, as `connector-run.ts` does before every run, which
 * imports its code with `@google-cloud/asset` (≈130 ms of CPU) and loads the client's protos
 * (≈100 ms), which the collection's client would otherwise load when created. A process pays
 * both once, at its first run, and in production as here, before collecting.
 */
import { fileURLToPath } from 'node:url';
import type * as ConnectorModule from '../../../functions/src/connectors/google-cloud/google-cloud-connector.ts';
import { fixtureCounts, type FixtureSizes, organization } from '../../../test/stand-ins/google-cloud/asset-fixture.ts';
import { type StandInCounts, startStandInProcess } from '../../../test/stand-ins/google-cloud/stand-in-process.ts';
import { compiled } from '../../lib/compiled.ts';
import type { ConnectorBenchFigures } from './figures.ts';
import { figuresFromChild } from './instance.ts';
import { ownPeakRssMiB } from '../peak-memory.ts';

const latencyMs = 50;
const pageSize = 1000;
const concurrency = 2;
/**
 * 20,000 resources: 200 projects (each with its two sinks and two log buckets), 6,000 buckets
 * (one of them the organisation's audit archive), 12,000 KMS keys and 1,199 alert policies; with
 * the organisation, the projects, the buckets, a quarter of the keys and 799 BigQuery datasets
 * holding IAM policies: 10,000.
 */
const sizes: FixtureSizes = { projects: 200, buckets: 5_999, cryptoKeys: 12_000, alertPolicies: 1_199, datasets: 799 };

/** One collection, in this process: its figures, memory being this process's peak. */
async function collectOnce(): Promise<ConnectorBenchFigures> {
  const { googleCloudConnector } = await compiled<typeof ConnectorModule>('connectors/google-cloud/google-cloud-connector.js');
  const collector = await googleCloudConnector.load();
  const token = 'bench-token';
  // In its own process, so the figures are the connector's: its memory, and no CPU shared with the server.
  const standIn = await startStandInProcess({ sizes, token, latencyMs });
  const counts = fixtureCounts(sizes);
  const subjects = new Set<string>();
  let items = 0;
  let counted: StandInCounts | undefined;
  const started = performance.now();
  try {
    const run = collector.collect({
      settings: { scope: organization },
      secrets: {},
      signal: new AbortController().signal,
      progress: { called: () => undefined, rateLimited: () => undefined },
      now: () => new Date(),
      standIn: { endpoint: standIn.endpoint, token },
    });
    for await (const item of run) {
      items++;
      if (item.kind !== 'scanner.finding') subjects.add(item.subject);
    }
  } finally {
    counted = await standIn.stop();
  }
  const wallMs = Math.round(performance.now() - started);
  if (counted.violations.length > 0) throw new Error(`The stand-in saw requests off the description: ${counted.violations[0]}`);
  return {
    connector: 'google-cloud',
    subjects: subjects.size,
    items,
    calls: counted.calls,
    minimumCalls: Math.ceil(counts.resources / pageSize) + Math.ceil(counts.policies / pageSize),
    concurrency,
    latencyMs,
    wallMs,
    peakRssMiB: Math.round(ownPeakRssMiB()),
  };
}

/**
 * Runs the collection in a fresh Node process (the stand-in in another), so its peak memory is the
 * connector's alone, not the bench's, and reads the figures it prints.
 */
export function measure(): Promise<ConnectorBenchFigures> {
  return figuresFromChild(fileURLToPath(import.meta.url), 'Google Cloud');
}

if (import.meta.main) {
  if (process.argv.includes('--child')) process.stdout.write(JSON.stringify(await collectOnce()));
  else console.log(await measure());
}
