/**
 * One `ListAssets` call on `@google-cloud/asset`'s own gRPC stub, its answer kept as bytes.
 *
 * The stub is the grpc-js client google-gax builds for the SDK client (`client.initialize()`):
 * its channel carries the SDK's credentials (TLS and the application default credentials'
 * token; the stand-in's plain channel in tests), endpoint and universe domain. Calling it
 * rather than the client's `listAssets` lets a listing read the next page token from the bytes
 * and ask for the next page at once (asset-listing.ts): the client hands a page back only once
 * it has decoded every asset and turned it into a plain object, and that work sat between one
 * call and the next. The request is serialised by the stub's own serialiser and carries the
 * headers the client adds: the routing header naming the scope, and `x-goog-api-client`.
 */
import { createRequire } from 'node:module';
import type { v1 } from '@google-cloud/asset';
import { grpc, GrpcClient, routingHeader, version as gaxVersion } from 'google-gax';

export type ContentType = 'RESOURCE' | 'IAM_POLICY';

/** The stub's `ListAssets`: grpc-js keeps the method's path and serialiser on it. */
interface AssetServiceStub extends grpc.Client {
  listAssets: { path: string; requestSerialize: (request: ListAssetsRequest) => Buffer };
}

export interface ListAssetsRequest {
  parent: string;
  assetTypes: string[];
  contentType: ContentType;
  pageSize: number;
  pageToken: string;
}

/** The SDK client's stub and what every call sends besides its request. */
export interface AssetService {
  stub: AssetServiceStub;
  /** The client's own header, and the stand-in's token where there is one. */
  headers: Record<string, string>;
}

/** ListAssets' per-call deadline in the client's configuration (asset_service_client_config.json). */
const callTimeoutMs = 60_000;

/** What the client sends as `x-goog-api-client`, from the same versions it reads. */
function clientHeader(): string {
  const gapic = (createRequire(import.meta.url)('@google-cloud/asset/package.json') as { version: string }).version;
  return `gax/${String(gaxVersion)} gapic/${gapic} gl-node/${process.versions.node} grpc/${new GrpcClient().grpcVersion}`;
}

/** The client's stub, built (and authenticated) by google-gax as its first call would. */
export async function assetServiceOf(client: v1.AssetServiceClient, headers: Record<string, string> = {}): Promise<AssetService> {
  const stub = (await client.initialize()) as unknown as AssetServiceStub;
  return { stub, headers: { 'x-goog-api-client': clientHeader(), ...headers } };
}

/**
 * One call: the answer's bytes, or the grpc-js error with its status, message and trailers.
 * An abort cancels the call (it then fails CANCELLED, and the caller sees the abort).
 */
export function listAssetsBytes(service: AssetService, request: ListAssetsRequest, signal: AbortSignal): Promise<Buffer> {
  const metadata = new grpc.Metadata();
  for (const [name, value] of Object.entries(service.headers)) metadata.set(name, value);
  metadata.set('x-goog-request-params', routingHeader.fromParams({ parent: request.parent }));
  const { path, requestSerialize } = service.stub.listAssets;
  return new Promise((resolve, reject) => {
    const call = service.stub.makeUnaryRequest(
      path,
      requestSerialize,
      (bytes: Buffer) => bytes,
      request,
      metadata,
      { deadline: Date.now() + callTimeoutMs },
      (error, bytes) => {
        signal.removeEventListener('abort', cancel);
        if (error) reject(error);
        else resolve(bytes!);
      },
    );
    const cancel = () => call.cancel();
    signal.addEventListener('abort', cancel, { once: true });
  });
}
