/**
 * A stand-in for Cloud Asset Inventory's gRPC API (`google.cloud.asset.v1.AssetService`), on
 * loopback, for driving the real `@google-cloud/asset` client in tests and the bench. It is not
 * Google's service: it serves `ListAssets` only, from the protos the client ships, over a
 * deterministic organisation (asset-fixture.ts).
 *
 * Held to the description: a request is checked as the proto documents it (`parent` an
 * organisation, folder or project; `content_type` RESOURCE or IAM_POLICY; `asset_types` known;
 * `page_size` at most 1,000, 100 when unset; a `page_token` only for the request it was issued
 * for) and refused with the status the service gives (INVALID_ARGUMENT, NOT_FOUND for another
 * scope); every `resource.data` it sends is validated against its type's published shape
 * (resource-shapes.ts). A refused request or an invalid answer is recorded in `violations`
 * (tests assert there are none) and answered INTERNAL so the connector cannot pass unnoticed.
 *
 * Faults, as Google answers them (status code, message, and `google.rpc` details in
 * `grpc-status-details-bin`): a rate limit (RESOURCE_EXHAUSTED with RetryInfo) at call k, an
 * outage (UNAVAILABLE or INTERNAL) of one listing from its page k on, a revoked token (UNAUTHENTICATED), a missing
 * permission (PERMISSION_DENIED with ErrorInfo IAM_PERMISSION_DENIED naming it). It counts
 * calls, the most in flight at once, and can charge a latency per call.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type FixtureAsset, organization } from './asset-fixture.ts';
import { listAssetsPageSize, policyOnlyAssetTypes, resourceShapes } from './resource-shapes.ts';

const require = createRequire(import.meta.url);
/** The protos `@google-cloud/asset` ships, and the common Google types google-gax ships beside them. */
const includeDirs = [
  join(dirname(require.resolve('@google-cloud/asset/package.json')), 'build', 'protos'),
  join(dirname(require.resolve('google-gax')), '..', 'protos'),
];

type ContentType = 'RESOURCE' | 'IAM_POLICY';

export interface StandInFaults {
  /** Call k (1-based) answers RESOURCE_EXHAUSTED with RetryInfo of this many seconds. */
  rateLimit?: { atCall: number; retryDelaySeconds: number };
  /**
   * The listing of this content type fails with this status from its page k (1-based) on, every
   * retry included; other listings go on, so what a test sees yielded before is deterministic.
   */
  outage?: { contentType: ContentType; fromPage: number; code: 'UNAVAILABLE' | 'INTERNAL' };
  /** Calls for this content type are refused: the credential lacks its permission. */
  permissionDenied?: ContentType;
}

export interface AssetStandInOptions {
  assets: Iterable<FixtureAsset>;
  /** The bearer token a call must carry; a revoked one (see `revoke`) is refused. */
  token: string;
  latencyMs?: number;
  faults?: StandInFaults;
}

interface ListAssetsRequest {
  parent: string;
  assetTypes?: string[];
  contentType?: string;
  pageSize?: number;
  pageToken?: string;
  readTime?: unknown;
  relationshipTypes?: string[];
}

/** A status the stand-in answers, with the google.rpc details Google attaches. */
class Refusal {
  readonly code: grpc.status;
  readonly message: string;
  readonly details: { type: 'RetryInfo' | 'ErrorInfo'; value: Record<string, unknown> }[];

  constructor(code: grpc.status, message: string, details: Refusal['details'] = []) {
    this.code = code;
    this.message = message;
    this.details = details;
  }
}

const permissionOf: Record<ContentType, string> = {
  RESOURCE: 'cloudasset.assets.listResource',
  IAM_POLICY: 'cloudasset.assets.listIamPolicy',
};

/** `ListAssetsResponse.assets` (field 2, length-delimited) as a protobuf tag. */
const assetsField = (2 << 3) | 2;

interface EncodedAsset {
  assetType: string;
  hasData: boolean;
  /** The encoded Asset with its resource, or why its data broke the description. */
  resource: Uint8Array | string;
  iamPolicy: Uint8Array | undefined;
}

const scopePattern = /^(organizations\/\d+|folders\/\d+|projects\/[a-z][-a-z0-9]{4,28}[a-z0-9]|projects\/\d+)$/;
const knownAssetTypes = new Set([...Object.keys(resourceShapes), ...policyOnlyAssetTypes]);

export class AssetServiceStandIn {
  /** ListAssets calls answered (refused ones included). */
  calls = 0;
  /** The most calls in flight at once. */
  peakInFlight = 0;
  /** Requests or answers that broke the description; a test asserts this stays empty. */
  readonly violations: string[] = [];
  /** Every request, in order, as the client sent it. */
  readonly requests: ListAssetsRequest[] = [];
  endpoint = '';

  /** Each asset with its content encoded once, as an `Asset` message, when its data matched its description. */
  readonly #assets: EncodedAsset[];
  readonly #options: AssetStandInOptions;
  readonly #server = new grpc.Server();
  readonly #revoked = new Set<string>();
  readonly #validators = new Map<string, (data: unknown) => boolean>();
  readonly #rpc: protobuf.Root;
  /** Each listing's assets by `listingKey`, so a page costs the stand-in its slice, not a pass over the organisation. */
  readonly #listings = new Map<string, EncodedAsset[]>();
  #inFlight = 0;

  constructor(options: AssetStandInOptions) {
    this.#options = options;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    for (const [type, schema] of Object.entries(resourceShapes)) this.#validators.set(type, ajv.compile(schema));
    this.#rpc = new protobuf.Root();
    this.#rpc.resolvePath = (_origin, target) =>
      includeDirs.map((dir) => join(dir, target)).find((path) => existsSync(path)) ?? target;
    this.#rpc.loadSync([
      'google/rpc/status.proto',
      'google/rpc/error_details.proto',
      'google/cloud/asset/v1/asset_service.proto',
    ]);
    this.#assets = [...options.assets].map((asset) => this.#encode(asset));
  }

  /**
   * An asset's answers, encoded once: the data served is the data validated, and a page is then
   * only concatenated, so the stand-in's own cost does not blur the connector's figures.
   */
  #encode(asset: FixtureAsset): EncodedAsset {
    const Asset = this.#rpc.lookupType('google.cloud.asset.v1.Asset');
    const encode = (content: Record<string, unknown>) => Asset.encode(Asset.fromObject(assetMessage(asset, content))).finish();
    const validate = this.#validators.get(asset.assetType);
    const invalid = asset.data !== undefined && validate !== undefined && !validate(asset.data);
    return {
      assetType: asset.assetType,
      hasData: asset.data !== undefined,
      resource: invalid
        ? `${asset.name}: resource.data does not match ${asset.assetType}'s description`
        : encode({ resource: resourceMessage(asset) }),
      iamPolicy: asset.iamPolicy && encode({ iamPolicy: asset.iamPolicy }),
    };
  }

  /** Listens on 127.0.0.1 on a free port. */
  async start(): Promise<this> {
    const definition = protoLoader.loadSync('google/cloud/asset/v1/asset_service.proto', {
      includeDirs,
      keepCase: false,
      longs: String,
      enums: String,
      defaults: false,
      oneofs: true,
    });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      google: { cloud: { asset: { v1: { AssetService: { service: grpc.ServiceDefinition } } } } };
    };
    const service = loaded.google.cloud.asset.v1.AssetService.service;
    // Pages are written as encoded bytes (see #page), so ListAssets passes them through.
    const listAssets = { ...service['ListAssets']!, responseSerialize: (page: Buffer) => page };
    this.#server.addService(
      { ...service, ListAssets: listAssets },
      {
        listAssets: (call: grpc.ServerUnaryCall<ListAssetsRequest, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
          void this.#listAssets(call, callback);
        },
      },
    );
    const port = await new Promise<number>((resolve, reject) => {
      this.#server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      );
    });
    this.endpoint = `127.0.0.1:${port}`;
    return this;
  }

  /** From now on the token is refused as revoked. */
  revoke(token: string): void {
    this.#revoked.add(token);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.tryShutdown(() => resolve()));
  }

  async #listAssets(call: grpc.ServerUnaryCall<ListAssetsRequest, Buffer>, callback: grpc.sendUnaryData<Buffer>) {
    const number = ++this.calls;
    this.#inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.#inFlight);
    this.requests.push(call.request);
    try {
      // The latency is the whole call's, as a service's is: the page is made within it, not after it.
      const started = performance.now();
      const answer = this.#answer(number, call.request, call.metadata);
      const left = (this.#options.latencyMs ?? 0) - (performance.now() - started);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      if (answer instanceof Refusal) callback(this.#error(answer));
      else callback(null, answer);
    } finally {
      this.#inFlight--;
    }
  }

  #answer(number: number, request: ListAssetsRequest, metadata: grpc.Metadata): Refusal | Buffer {
    const credential = this.#checkCredential(metadata);
    if (credential) return credential;
    const { faults = {} } = this.#options;
    if (faults.rateLimit?.atCall === number) {
      return new Refusal(
        grpc.status.RESOURCE_EXHAUSTED,
        "Quota exceeded for quota metric 'List Assets Requests' and limit 'List Assets Requests per minute' of " +
          "service 'cloudasset.googleapis.com' for consumer 'project_number:100000'.",
        [
          {
            type: 'ErrorInfo',
            value: {
              reason: 'RATE_LIMIT_EXCEEDED',
              domain: 'googleapis.com',
              metadata: { service: 'cloudasset.googleapis.com' },
            },
          },
          { type: 'RetryInfo', value: { retryDelay: { seconds: faults.rateLimit.retryDelaySeconds } } },
        ],
      );
    }
    const invalid = this.#checkRequest(request);
    if (invalid) return invalid;
    const contentType = request.contentType as ContentType;
    const { outage } = faults;
    if (outage?.contentType === contentType && pageNumber(request) >= outage.fromPage) {
      const said = outage.code === 'UNAVAILABLE' ? 'The service is currently unavailable.' : 'Internal error encountered.';
      return new Refusal(grpc.status[outage.code], said);
    }
    if (faults.permissionDenied === contentType) {
      const permission = permissionOf[contentType];
      return new Refusal(
        grpc.status.PERMISSION_DENIED,
        `Permission '${permission}' denied on resource '${request.parent}' (or it may not exist).`,
        [
          {
            type: 'ErrorInfo',
            value: {
              reason: 'IAM_PERMISSION_DENIED',
              domain: 'cloudasset.googleapis.com',
              metadata: { permission, resource: request.parent },
            },
          },
        ],
      );
    }
    return this.#page(request, contentType);
  }

  #checkCredential(metadata: grpc.Metadata): Refusal | undefined {
    const [authorization] = metadata.get('authorization');
    const token = typeof authorization === 'string' ? /^Bearer (.+)$/.exec(authorization)?.[1] : undefined;
    if (token === this.#options.token && !this.#revoked.has(token)) return undefined;
    return new Refusal(
      grpc.status.UNAUTHENTICATED,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid ' +
        'authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      [{ type: 'ErrorInfo', value: { reason: 'ACCESS_TOKEN_TYPE_UNSUPPORTED', domain: 'googleapis.com' } }],
    );
  }

  #checkRequest(request: ListAssetsRequest): Refusal | undefined {
    const refuse = (message: string, code = grpc.status.INVALID_ARGUMENT) => {
      this.violations.push(`ListAssets ${JSON.stringify(request)}: ${message}`);
      return new Refusal(code, message);
    };
    if (!scopePattern.test(request.parent ?? '')) return refuse(`Invalid parent: ${request.parent}`);
    if (request.parent !== organization) return new Refusal(grpc.status.NOT_FOUND, `Resource ${request.parent} not found.`);
    if (request.contentType !== 'RESOURCE' && request.contentType !== 'IAM_POLICY') {
      return refuse(`Content type ${request.contentType ?? 'unset'} is not served by this stand-in.`);
    }
    const unknown = (request.assetTypes ?? []).filter((type) => !knownAssetTypes.has(type));
    if (unknown.length > 0) return refuse(`Unsupported asset types: ${unknown.join(', ')}`);
    const size = request.pageSize ?? 0;
    if (size < 0 || size > listAssetsPageSize.max) return refuse(`page_size must be between 1 and ${listAssetsPageSize.max}.`);
    if (request.readTime !== undefined || (request.relationshipTypes ?? []).length > 0) {
      return refuse('read_time and relationship_types are not served by this stand-in.');
    }
    if (request.pageToken && decodeToken(request.pageToken)?.key !== listingKey(request)) {
      return refuse('Invalid page token: it was not issued for this request.');
    }
    return undefined;
  }

  /** The assets a listing holds, in order, worked out at its first page (the organisation does not change). */
  #listed(request: ListAssetsRequest, contentType: ContentType): EncodedAsset[] {
    const key = listingKey(request);
    const known = this.#listings.get(key);
    if (known) return known;
    const types = new Set(request.assetTypes ?? []);
    const listed = this.#assets.filter(
      (asset) =>
        (types.size === 0 || types.has(asset.assetType)) &&
        (contentType === 'RESOURCE' ? asset.hasData || types.size === 0 : asset.iamPolicy !== undefined),
    );
    this.#listings.set(key, listed);
    return listed;
  }

  #page(request: ListAssetsRequest, contentType: ContentType): Buffer | Refusal {
    const listed = this.#listed(request, contentType);
    const offset = request.pageToken ? decodeToken(request.pageToken)!.offset : 0;
    const size = request.pageSize || listAssetsPageSize.default;
    const writer = protobuf.Writer.create();
    for (const asset of listed.slice(offset, offset + size)) {
      const bytes = contentType === 'RESOURCE' ? asset.resource : asset.iamPolicy!;
      if (typeof bytes === 'string') {
        this.violations.push(bytes);
        return new Refusal(grpc.status.INTERNAL, bytes);
      }
      writer.uint32(assetsField).bytes(bytes);
    }
    const next = offset + size;
    const Response = this.#rpc.lookupType('google.cloud.asset.v1.ListAssetsResponse');
    const envelope = Response.fromObject({
      readTime: { seconds: 1_795_000_000 },
      nextPageToken: next < listed.length ? encodeToken({ offset: next, key: listingKey(request) }) : '',
    });
    return Buffer.concat([Response.encode(envelope).finish(), writer.finish()]);
  }

  #error(refusal: Refusal): Partial<grpc.StatusObject> {
    const Status = this.#rpc.lookupType('google.rpc.Status');
    const details = refusal.details.map(({ type, value }) => {
      const message = this.#rpc.lookupType(`google.rpc.${type}`);
      return { type_url: `type.googleapis.com/google.rpc.${type}`, value: message.encode(message.fromObject(value)).finish() };
    });
    const metadata = new grpc.Metadata();
    const status = Status.encode(Status.fromObject({ code: refusal.code, message: refusal.message, details })).finish();
    metadata.set('grpc-status-details-bin', Buffer.from(status));
    return { code: refusal.code, details: refusal.message, metadata };
  }
}

/** Which page of its listing a request asks for, 1-based. */
function pageNumber(request: ListAssetsRequest): number {
  const offset = request.pageToken ? (decodeToken(request.pageToken)?.offset ?? 0) : 0;
  return Math.floor(offset / (request.pageSize || listAssetsPageSize.default)) + 1;
}

function listingKey(request: ListAssetsRequest): string {
  return [request.parent, request.contentType, ...(request.assetTypes ?? [])].join('|');
}

function encodeToken(token: { offset: number; key: string }): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function decodeToken(token: string): { offset: number; key: string } | undefined {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString()) as { offset: number; key: string };
  } catch {
    return undefined;
  }
}

function assetMessage(asset: FixtureAsset, content: Record<string, unknown>) {
  return {
    name: asset.name,
    assetType: asset.assetType,
    ancestors: asset.ancestors,
    updateTime: { seconds: 1_794_900_000 },
    ...content,
  };
}

function resourceMessage(asset: FixtureAsset) {
  const [service] = asset.assetType.split('/');
  return {
    version: 'v1',
    discoveryName: asset.assetType.split('/')[1],
    discoveryDocumentUri: `https://${service}/$discovery/rest`,
    parent: `//cloudresourcemanager.googleapis.com/${asset.ancestors[0]}`,
    data: structOf(asset.data ?? {}),
  };
}

/** A JSON object as a google.protobuf.Struct message. */
function structOf(json: Record<string, unknown>): { fields: Record<string, unknown> } {
  return { fields: Object.fromEntries(Object.entries(json).map(([key, value]) => [key, valueOf(value)])) };
}

function valueOf(value: unknown): Record<string, unknown> {
  if (value === null) return { nullValue: 'NULL_VALUE' };
  if (Array.isArray(value)) return { listValue: { values: value.map(valueOf) } };
  switch (typeof value) {
    case 'string':
      return { stringValue: value };
    case 'number':
      return { numberValue: value };
    case 'boolean':
      return { boolValue: value };
    default:
      return { structValue: structOf(value as Record<string, unknown>) };
  }
}
