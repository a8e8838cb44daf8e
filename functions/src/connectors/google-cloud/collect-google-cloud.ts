/**
 * The Google Cloud connector's collect: Cloud Asset Inventory `ListAssets` over the scope,
 * through `@google-cloud/asset`, as two lanes of listings at once (each listing's pages follow
 * one another, as page tokens require):
 *
 *   lane 1: IAM policies of every asset type → findings at once, and the set of buckets that
 *           grant a role to anyone; then the buckets → `storage.bucket` (public access needs
 *           that set, so buckets come after the policies);
 *   lane 2: log sinks (kept: a handful per project), then log buckets, KMS keys and alert
 *           policies in one listing → `crypto.key`, `monitoring.alert_policy`.
 *
 * A sink's retention is its destination's, so while buckets and log buckets stream past, the
 * retention of those that some sink writes to is noted; the sinks are yielded last. Nothing else
 * is held: each page becomes its items at once and is let go before they are handed on, and the
 * lanes hand over whole pages, so the cost of interleaving them is paid once a page, not once
 * an item.
 */
import { createRequire } from 'node:module';
import { v1 } from '@google-cloud/asset';
import { type CallOptions, grpc, GrpcClient, lro } from 'google-gax';
import type { CollectContext, CollectedItem, Collector } from '../connector.js';
import { ConnectorFailure } from '../connector.js';
import {
  alertPolicyData,
  auditLogFinding,
  bucketData,
  bucketRetention,
  cryptoKeyData,
  fieldsRead,
  logBucketRetention,
  publicPolicyFinding,
  publicPrincipals,
  type ResourceJson,
  type Retention,
  sinkData,
  type SinkSummary,
  sinkSummary,
} from './asset-evidence.js';
import { type Asset, type Listing, pagesOf } from './asset-listing.js';
import { jsonOfStruct, policyJson } from './asset-json.js';
import { scopePattern } from './scope.js';

const types = {
  bucket: 'storage.googleapis.com/Bucket',
  cryptoKey: 'cloudkms.googleapis.com/CryptoKey',
  logSink: 'logging.googleapis.com/LogSink',
  logBucket: 'logging.googleapis.com/LogBucket',
  alertPolicy: 'monitoring.googleapis.com/AlertPolicy',
} as const;

/** What one run learns in one lane and needs in the other. */
interface RunState {
  scope: string;
  collectedAt: string;
  publicBuckets: Set<string>;
  sinks: SinkSummary[];
  /** Sink destinations (as asset names) and, once seen, their retention. */
  destinations: Map<string, Retention | undefined>;
}

export const collector: Collector = { collect };

/**
 * Loads the protos a client is built from, as creating the first client would: the service's and
 * those of its long-running operations (≈45 ms of CPU and 3 MB, once a process: google-gax keeps
 * them by content, and every client after finds them loaded). Loading the connector does it, so
 * a collection's time is its client, its calls and its pages. The service's protos object is the
 * one the client itself requires.
 */
export function loadClientProtos(): void {
  const require = createRequire(import.meta.url);
  new GrpcClient().loadProtoJSON(require('@google-cloud/asset/build/protos/protos.json') as object);
  lro({});
}

async function* collect(context: CollectContext): AsyncGenerator<CollectedItem> {
  const scope = String(context.settings['scope'] ?? '');
  if (!scopePattern.test(scope)) {
    throw new ConnectorFailure(
      'not_configured',
      'The setting "scope" must name organizations/<number>, folders/<number> or projects/<id>.',
    );
  }
  const { client, callOptions } = clientFor(context);
  const state: RunState = {
    scope,
    collectedAt: context.now().toISOString(),
    publicBuckets: new Set(),
    sinks: [],
    destinations: new Map(),
  };
  const pages = (listing: Listing) => pagesOf(client, scope, listing, context, callOptions);
  try {
    const sinksRead = readSinks(pages({ contentType: 'RESOURCE', assetTypes: [types.logSink] }), state);
    sinksRead.catch(() => undefined);
    for await (const items of merge([policiesThenBuckets(pages, state, sinksRead), otherResources(pages, state, sinksRead)])) {
      for (const collected of items) yield collected;
    }
    for (const sink of state.sinks) {
      yield item(state, 'logging.sink', sink.subject, sinkData(sink, state.destinations.get(`//${sink.destination}`)));
    }
  } finally {
    await client.close();
  }
}

/**
 * The client: application default credentials in a deployment; in tests and the emulators the
 * stand-in's address, without TLS, and its token as the `authorization` header. Neither Google
 * nor the metadata server is asked: the universe domain is named, so the client does not look
 * for application default credentials (on a machine outside Google Cloud, a probe of the
 * metadata server) to learn it.
 */
function clientFor(context: CollectContext): { client: v1.AssetServiceClient; callOptions: CallOptions } {
  if (!context.standIn) return { client: new v1.AssetServiceClient(), callOptions: {} };
  const { endpoint, token } = context.standIn;
  const separator = endpoint.lastIndexOf(':');
  const client = new v1.AssetServiceClient({
    apiEndpoint: endpoint.slice(0, separator),
    port: Number(endpoint.slice(separator + 1)),
    sslCreds: grpc.credentials.createInsecure(),
    clientOptions: { universeDomain: 'googleapis.com' },
  });
  return { client, callOptions: { otherArgs: { headers: { authorization: `Bearer ${token}` } } } };
}

function item(state: RunState, kind: CollectedItem['kind'], subject: string, data: ResourceJson): CollectedItem {
  return { kind, subject, collectedAt: state.collectedAt, data };
}

async function readSinks(sinkPages: AsyncIterable<Asset[]>, state: RunState): Promise<void> {
  for await (const page of sinkPages) {
    for (const asset of page) {
      const sink = sinkSummary(asset.name ?? '', jsonOfStruct(asset.resource?.data, fieldsRead.sink));
      state.sinks.push(sink);
      if (sink.destination) state.destinations.set(`//${sink.destination}`, undefined);
    }
  }
}

/** Notes a destination's retention when some sink writes to it. */
function noteRetention(state: RunState, name: string, retention: () => Retention): void {
  if (state.destinations.has(name)) state.destinations.set(name, retention());
}

async function* policiesThenBuckets(
  pages: (listing: Listing) => AsyncIterable<Asset[]>,
  state: RunState,
  sinksRead: Promise<void>,
): AsyncGenerator<CollectedItem[]> {
  for await (const page of pages({ contentType: 'IAM_POLICY', assetTypes: [] })) {
    const items: CollectedItem[] = [];
    for (const asset of page) {
      const name = asset.name ?? '';
      const type = asset.assetType ?? '';
      const policy = policyJson(asset.iamPolicy);
      if (type === types.bucket) {
        if (publicPrincipals(policy).length > 0) state.publicBuckets.add(name);
        continue;
      }
      items.push(item(state, 'scanner.finding', name, publicPolicyFinding(name, type, policy, state.scope)));
      if (isScopeItself(state.scope, name, type))
        items.push(item(state, 'scanner.finding', name, auditLogFinding(name, type, policy, state.scope)));
    }
    yield items;
  }
  await sinksRead;
  for await (const page of pages({ contentType: 'RESOURCE', assetTypes: [types.bucket] })) {
    yield page.map((asset) => {
      const name = asset.name ?? '';
      const bucket = jsonOfStruct(asset.resource?.data, fieldsRead.bucket);
      noteRetention(state, name, () => bucketRetention(bucket));
      return item(state, 'storage.bucket', name, bucketData(bucket, state.publicBuckets.has(name)));
    });
  }
}

async function* otherResources(
  pages: (listing: Listing) => AsyncIterable<Asset[]>,
  state: RunState,
  sinksRead: Promise<void>,
): AsyncGenerator<CollectedItem[]> {
  await sinksRead;
  const listing: Listing = { contentType: 'RESOURCE', assetTypes: [types.logBucket, types.cryptoKey, types.alertPolicy] };
  for await (const page of pages(listing)) {
    const items: CollectedItem[] = [];
    for (const asset of page) {
      const name = asset.name ?? '';
      const data = (fields: readonly string[]) => jsonOfStruct(asset.resource?.data, fields);
      if (asset.assetType === types.logBucket) noteRetention(state, name, () => logBucketRetention(data(fieldsRead.logBucket)));
      else if (asset.assetType === types.cryptoKey)
        items.push(item(state, 'crypto.key', name, cryptoKeyData(data(fieldsRead.cryptoKey))));
      else if (asset.assetType === types.alertPolicy)
        items.push(item(state, 'monitoring.alert_policy', name, alertPolicyData(data(fieldsRead.alertPolicy))));
    }
    yield items;
  }
}

/**
 * The organisation, folder or project the run collects: its audit configuration is the one that
 * applies to everything in the scope. A project's asset is named by its number, so a project
 * scope (named by id) is the one project the listing holds.
 */
function isScopeItself(scope: string, name: string, type: string): boolean {
  if (scope.startsWith('projects/')) return type === 'cloudresourcemanager.googleapis.com/Project';
  return name === `//cloudresourcemanager.googleapis.com/${scope}`;
}

/** Values of several lanes as each arrives (here: pages of items), holding at most one per lane. */
async function* merge<T>(lanes: AsyncIterable<T>[]): AsyncGenerator<T> {
  const iterators = lanes.map((lane) => lane[Symbol.asyncIterator]());
  const next = (index: number) => iterators[index]!.next().then((result) => ({ index, result }));
  const pending = new Map(iterators.map((_, index) => [index, next(index)]));
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(index);
        continue;
      }
      pending.set(index, next(index));
      yield result.value;
    }
  } finally {
    for (const [index, promise] of pending) {
      promise.catch(() => undefined);
      void iterators[index]!.return?.(undefined)?.catch(() => undefined);
    }
  }
}
