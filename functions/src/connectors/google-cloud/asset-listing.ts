/**
 * A lane of Cloud Asset Inventory listings (`ListAssets` of one content type over the scope),
 * page by page, on the SDK client's own gRPC stub (list-assets-call.ts). A listing's pages follow
 * one another, each page token arriving with the page before, and a lane's listings follow one
 * another; so that each call waits on the service alone, the next one (the listing's next page,
 * or the lane's next listing) is sent as soon as a page's bytes arrive and its token is read from
 * them, and the page is decoded (list-assets-page.ts) while that call is out.
 *
 * Retries, as the client's configuration has them for ListAssets: UNAVAILABLE and
 * DEADLINE_EXCEEDED are tried again after 100 ms, then × 1.3 (with the client's jitter), three
 * attempts in all, so an outage fails the run in seconds, not after the client's ten-minute
 * default. RESOURCE_EXHAUSTED, which the client does not retry for ListAssets, is waited out for
 * the delay the service asks in its RetryInfo, reported as a rate-limit wait. google-gax's own
 * parser reads the status details (ErrorInfo, RetryInfo) from the trailers. Every other refusal
 * becomes a ConnectorFailure in Evident's words: the service's text is never passed on.
 */
import { GoogleError, Status } from 'google-gax';
import { type CollectContext, ConnectorFailure } from '../connector.js';
import { type AssetService, type ContentType, listAssetsBytes, type ListAssetsRequest } from './list-assets-call.js';
import { type Asset, assetsOf, DataFields, pageSummary } from './list-assets-page.js';

export interface Listing {
  contentType: ContentType;
  /** The asset types asked for; empty for every type. */
  assetTypes: string[];
  /** The top-level fields of each resource's data that are read; the rest is not decoded. */
  dataFields: readonly string[];
}

/** One page of a lane: its listing's, and whether it is that listing's last. */
export interface Page {
  listing: Listing;
  assets: Asset[];
  last: boolean;
}

/** ListAssetsRequest.page_size: "Default is 100, minimum is 1, and maximum is 1000." */
export const listAssetsPageSize = 1000;
/** Rate-limit waits for one page before the run gives up. */
const maxRateLimitWaits = 5;
/** The per-minute quota's window: the wait when the service names none. */
const defaultRateLimitSeconds = 60;
/** The client's backoff for ListAssets' transient failures, and the attempts allowed here. */
const transientRetry = { codes: [Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED], firstDelayMs: 100, multiplier: 1.3, attempts: 3 };

/** The permission each content type needs, as roles/cloudasset.viewer grants it. */
export const permissionFor: Record<ContentType, string> = {
  RESOURCE: 'cloudasset.assets.listResource',
  IAM_POLICY: 'cloudasset.assets.listIamPolicy',
};

/** A failed call as google-gax's parser leaves it: the status, and the details of its trailers. */
interface CallError {
  code?: number;
  reason?: string;
  errorInfoMetadata?: Record<string, string>;
  statusDetails?: unknown[];
}

function describe(listing: Listing): string {
  return `ListAssets ${listing.contentType}${listing.assetTypes.length > 0 ? ` ${listing.assetTypes.join(', ')}` : ''}`;
}

/**
 * The pages of a lane's listings, in order, to the end of the last. A page is decoded one turn
 * of the event loop after the next call is made, so that the call is written to the connection
 * first. The stub is awaited by each call: one that could not be built (no credential found)
 * fails the call, as the client's own call would.
 */
export async function* pagesOf(
  service: Promise<AssetService>,
  scope: string,
  listings: readonly Listing[],
  context: CollectContext,
): AsyncGenerator<Page> {
  const fetch = (index: number, pageToken: string) => {
    const bytes = pageOf(service, scope, listings[index]!, pageToken, context);
    // Settled later by the loop; the handler only keeps an abandoned lane's failure quiet.
    bytes.catch(() => undefined);
    return { index, bytes };
  };
  const dataFields = listings.map((listing) => new DataFields(listing.dataFields));
  let pending = listings.length > 0 ? fetch(0, '') : undefined;
  while (pending) {
    const { index } = pending;
    const listing = listings[index]!;
    const bytes = await pending.bytes;
    const { nextPageToken, assets } = readPage(() => pageSummary(bytes), scope, listing);
    context.progress.called(describe(listing), assets);
    const last = nextPageToken === '';
    const next = last ? index + 1 : index;
    pending = next < listings.length ? fetch(next, nextPageToken) : undefined;
    await new Promise((resolve) => setImmediate(resolve));
    context.signal.throwIfAborted();
    yield { listing, assets: readPage(() => assetsOf(bytes, dataFields[index]!), scope, listing), last };
  }
}

/** A page that cannot be read fails the run as grpc-js fails an answer it cannot parse: INTERNAL. */
function readPage<T>(read: () => T, scope: string, listing: Listing): T {
  try {
    return read();
  } catch {
    throw failureOf({ code: Status.INTERNAL }, scope, listing);
  }
}

/** One page's bytes, after the retries and rate-limit waits its call may need. */
async function pageOf(
  service: Promise<AssetService>,
  scope: string,
  listing: Listing,
  pageToken: string,
  context: CollectContext,
): Promise<Buffer> {
  const request: ListAssetsRequest = {
    parent: scope,
    assetTypes: listing.assetTypes,
    contentType: listing.contentType,
    pageSize: listAssetsPageSize,
    pageToken,
  };
  let waits = 0;
  let attempts = 0;
  for (;;) {
    context.signal.throwIfAborted();
    try {
      return await listAssetsBytes(await service, request, context.signal);
    } catch (error) {
      context.signal.throwIfAborted();
      const failure = GoogleError.parseGRPCStatusDetails(error as GoogleError) as CallError;
      attempts++;
      if (transientRetry.codes.includes(failure.code ?? -1) && attempts < transientRetry.attempts) {
        const backoffMs = transientRetry.firstDelayMs * transientRetry.multiplier ** (attempts - 1);
        await delay(Math.random() * backoffMs, context.signal);
        continue;
      }
      if (failure.code !== Status.RESOURCE_EXHAUSTED || waits >= maxRateLimitWaits) throw failureOf(failure, scope, listing);
      waits++;
      attempts = 0;
      const seconds = retryDelayOf(failure) ?? defaultRateLimitSeconds;
      context.progress.rateLimited(seconds, 'Cloud Asset Inventory quota: ListAssets requests per minute');
      await delay(seconds * 1000, context.signal);
    }
  }
}

/** The delay a RetryInfo detail asks for, in seconds. */
function retryDelayOf(error: CallError): number | undefined {
  for (const detail of error.statusDetails ?? []) {
    const retryDelay = (detail as { retryDelay?: { seconds?: unknown; nanos?: unknown } }).retryDelay;
    if (retryDelay) return Number(retryDelay.seconds ?? 0) + Number(retryDelay.nanos ?? 0) / 1e9;
  }
  return undefined;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

/** A refusal in Evident's words; the status name is the vendor's, the rest is ours. */
export function failureOf(error: CallError, scope: string, listing: Listing): ConnectorFailure {
  const status = typeof error.code === 'number' ? Status[error.code] : undefined;
  switch (error.code) {
    case Status.UNAUTHENTICATED:
      return new ConnectorFailure(
        'credential_rejected',
        'Google Cloud refused the service account credential (UNAUTHENTICATED): it is revoked, expired or not a valid access token.',
      );
    case Status.PERMISSION_DENIED: {
      if (error.reason === 'SERVICE_DISABLED') {
        return new ConnectorFailure(
          'permission_missing',
          'The Cloud Asset API is not enabled in the service account\u2019s project (PERMISSION_DENIED, SERVICE_DISABLED).',
          'serviceusage: cloudasset.googleapis.com enabled',
        );
      }
      const named = error.errorInfoMetadata?.['permission'];
      const permission = named && /^cloudasset\.assets\.[A-Za-z]+$/.test(named) ? named : permissionFor[listing.contentType];
      return new ConnectorFailure(
        'permission_missing',
        `The service account lacks ${permission} on ${scope} (PERMISSION_DENIED): grant it roles/cloudasset.viewer there.`,
        permission,
      );
    }
    case Status.NOT_FOUND:
    case Status.INVALID_ARGUMENT:
      return new ConnectorFailure(
        'not_found',
        `Cloud Asset Inventory does not know the scope ${scope} (${status}): check the organisation, folder or project it names.`,
      );
    default:
      return new ConnectorFailure(
        'vendor_unavailable',
        status
          ? `Cloud Asset Inventory failed ${describe(listing)} (${status}) after its retries.`
          : `Cloud Asset Inventory could not be reached for ${describe(listing)}, or no credential could be obtained for it.`,
      );
  }
}
