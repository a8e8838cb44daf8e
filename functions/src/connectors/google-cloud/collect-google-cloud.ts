/**
 * The Google Cloud connector's collect: Cloud Asset Inventory `ListAssets` over the scope,
 * on `@google-cloud/asset`'s gRPC stub, as two lanes of listings at once, each with one call
 * out at a time (a listing's pages follow one another, as page tokens require; asset-listing.ts):
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
import { grpc, GrpcClient, lro, protobufFromJSON } from 'google-gax';
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
import { type Listing, type Page, pagesOf } from './asset-listing.js';
import { jsonOfStruct, policyJson } from './asset-json.js';
import { assetServiceOf } from './list-assets-call.js';
import type { Asset } from './list-assets-page.js';
import { scopePattern } from './scope.js';

const types = {
  bucket: 'storage.googleapis.com/Bucket',
  cryptoKey: 'cloudkms.googleapis.com/CryptoKey',
  logSink: 'logging.googleapis.com/LogSink',
  logBucket: 'logging.googleapis.com/LogBucket',
  alertPolicy: 'monitoring.googleapis.com/AlertPolicy',
} as const;

const listings = {
  policies: { contentType: 'IAM_POLICY', assetTypes: [], dataFields: [] },
  buckets: { contentType: 'RESOURCE', assetTypes: [types.bucket], dataFields: fieldsRead.bucket },
  sinks: { contentType: 'RESOURCE', assetTypes: [types.logSink], dataFields: fieldsRead.sink },
  others: {
    contentType: 'RESOURCE',
    assetTypes: [types.logBucket, types.cryptoKey, types.alertPolicy],
    dataFields: [...fieldsRead.logBucket, ...fieldsRead.cryptoKey, ...fieldsRead.alertPolicy],
  },
} as const satisfies Record<string, Listing>;

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
 * Loads the protos a client is built from, as creating the first client would: the service's (as
 * gRPC definitions and as the protobufjs root the client looks its long-running results up in)
 * and those of its long-running operations (≈100 ms of CPU and 3 MB, once a process: google-gax
 * keeps them by content, and every client after finds them loaded). Loading the connector does
 * it, so a collection's time is its client, its calls and its pages. The service's protos object
 * is the one the client itself requires.
 */
export function loadClientProtos(): void {
  const protos = createRequire(import.meta.url)('@google-cloud/asset/build/protos/protos.json') as object;
  new GrpcClient().loadProtoJSON(protos);
  protobufFromJSON(protos);
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
  const { client, headers } = clientFor(context);
  const state: RunState = {
    scope,
    collectedAt: context.now().toISOString(),
    publicBuckets: new Set(),
    sinks: [],
    destinations: new Map(),
  };
  try {
    const service = assetServiceOf(client, headers);
    service.catch(() => undefined);
    const pages = (lane: readonly Listing[]) => pagesOf(service, scope, lane, context);
    const sinksRead = Promise.withResolvers<void>();
    sinksRead.promise.catch(() => undefined);
    const lanes = [
      policiesThenBuckets(pages([listings.policies, listings.buckets]), state, sinksRead.promise),
      sinksThenOthers(pages([listings.sinks, listings.others]), state, sinksRead),
    ];
    for await (const items of merge(lanes)) {
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
 * HTTP/2's flow-control window for the client's connection and each of its calls. grpc-js keeps
 * HTTP/2's default of 64 KiB, so a page of 1,000 assets (up to 0.8 MB in the bench, megabytes
 * with real resources' data) came 64 KiB at a time, each part waiting for this process to
 * acknowledge the one before: a round trip to the service, and on a busy instance a wait for the
 * event loop, a dozen times a page. 16 MiB, grpc-go's ceiling for the window it sizes itself,
 * lets both lanes' pages come in one go; a call's answer is read whole anyway.
 */
const flowControlWindow = 16 * 1024 * 1024;

/**
 * The client: application default credentials in a deployment; in tests and the emulators the
 * stand-in's address, without TLS, and its token as the `authorization` header. Neither Google
 * nor the metadata server is asked: the universe domain is named, so the client does not look
 * for application default credentials (on a machine outside Google Cloud, a probe of the
 * metadata server) to learn it.
 */
function clientFor(context: CollectContext): { client: v1.AssetServiceClient; headers: Record<string, string> } {
  const window = { 'grpc-node.flow_control_window': flowControlWindow };
  if (!context.standIn) return { client: new v1.AssetServiceClient(window), headers: {} };
  const { endpoint, token } = context.standIn;
  const separator = endpoint.lastIndexOf(':');
  const client = new v1.AssetServiceClient({
    apiEndpoint: endpoint.slice(0, separator),
    port: Number(endpoint.slice(separator + 1)),
    sslCreds: grpc.credentials.createInsecure(),
    clientOptions: { universeDomain: 'googleapis.com' },
    ...window,
  });
  return { client, headers: { authorization: `Bearer ${token}` } };
}

function item(state: RunState, kind: CollectedItem['kind'], subject: string, data: ResourceJson): CollectedItem {
  return { kind, subject, collectedAt: state.collectedAt, data };
}

function readSinks(sinks: Asset[], state: RunState): void {
  for (const asset of sinks) {
    const sink = sinkSummary(asset.name ?? '', jsonOfStruct(asset.resource?.data, fieldsRead.sink));
    state.sinks.push(sink);
    if (sink.destination) state.destinations.set(`//${sink.destination}`, undefined);
  }
}

/** Notes a destination's retention when some sink writes to it. */
function noteRetention(state: RunState, name: string, retention: () => Retention): void {
  if (state.destinations.has(name)) state.destinations.set(name, retention());
}

/** Lane 1. Buckets need the sinks too (whose destinations they may be): read on lane 2 first. */
async function* policiesThenBuckets(
  pages: AsyncIterable<Page>,
  state: RunState,
  sinksRead: Promise<void>,
): AsyncGenerator<CollectedItem[]> {
  for await (const page of pages) {
    if (page.listing === listings.policies) yield policyItems(page.assets, state);
    else {
      await sinksRead;
      yield page.assets.map((asset) => {
        const name = asset.name ?? '';
        const bucket = jsonOfStruct(asset.resource?.data, fieldsRead.bucket);
        noteRetention(state, name, () => bucketRetention(bucket));
        return item(state, 'storage.bucket', name, bucketData(bucket, state.publicBuckets.has(name)));
      });
    }
  }
}

function policyItems(policies: Asset[], state: RunState): CollectedItem[] {
  const items: CollectedItem[] = [];
  for (const asset of policies) {
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
  return items;
}

/** Lane 2: the sinks, which both lanes need before any bucket, then the other resources. */
async function* sinksThenOthers(
  pages: AsyncIterable<Page>,
  state: RunState,
  sinksRead: PromiseWithResolvers<void>,
): AsyncGenerator<CollectedItem[]> {
  try {
    for await (const page of pages) {
      if (page.listing === listings.sinks) {
        readSinks(page.assets, state);
        if (page.last) sinksRead.resolve();
      } else yield otherItems(page.assets, state);
    }
  } catch (error) {
    sinksRead.reject(error);
    throw error;
  }
}

function otherItems(assets: Asset[], state: RunState): CollectedItem[] {
  const items: CollectedItem[] = [];
  for (const asset of assets) {
    const name = asset.name ?? '';
    const data = (fields: readonly string[]) => jsonOfStruct(asset.resource?.data, fields);
    if (asset.assetType === types.logBucket) noteRetention(state, name, () => logBucketRetention(data(fieldsRead.logBucket)));
    else if (asset.assetType === types.cryptoKey)
      items.push(item(state, 'crypto.key', name, cryptoKeyData(data(fieldsRead.cryptoKey))));
    else if (asset.assetType === types.alertPolicy)
      items.push(item(state, 'monitoring.alert_policy', name, alertPolicyData(data(fieldsRead.alertPolicy))));
  }
  return items;
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
