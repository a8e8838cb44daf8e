/**
 * One Cloud Asset Inventory listing (`ListAssets` of one content type over the scope), page by
 * page through `@google-cloud/asset`. The next page is asked for as soon as a page arrives, so
 * the service's latency overlaps the reading of the page before.
 *
 * Retries: the client's own settings retry UNAVAILABLE and DEADLINE_EXCEEDED with backoff,
 * capped here at a few attempts so an outage fails the run in seconds, not after the client's
 * ten-minute default. The client does not retry RESOURCE_EXHAUSTED for ListAssets, so this
 * module waits out the delay the service asks for in its RetryInfo, reporting it as a
 * rate-limit wait. Every other refusal becomes a ConnectorFailure in Evident's words: an SDK
 * error's text is never passed on.
 */
import type { protos, v1 } from '@google-cloud/asset';
import { type CallOptions, createMaxRetriesBackoffSettings, createRetryOptions, Status } from 'google-gax';
import { type CollectContext, ConnectorFailure } from '../connector.js';

export type Asset = protos.google.cloud.asset.v1.IAsset;
export type ContentType = 'RESOURCE' | 'IAM_POLICY';

export interface Listing {
  contentType: ContentType;
  /** The asset types asked for; empty for every type. */
  assetTypes: string[];
}

/** ListAssetsRequest.page_size: "Default is 100, minimum is 1, and maximum is 1000." */
export const listAssetsPageSize = 1000;
/** Rate-limit waits for one page before the run gives up. */
const maxRateLimitWaits = 5;
/** The per-minute quota's window: the wait when the service names none. */
const defaultRateLimitSeconds = 60;

/** The permission each content type needs, as roles/cloudasset.viewer grants it. */
export const permissionFor: Record<ContentType, string> = {
  RESOURCE: 'cloudasset.assets.listResource',
  IAM_POLICY: 'cloudasset.assets.listIamPolicy',
};

const transientRetry = createRetryOptions(
  [Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED],
  // 100 ms, then × 1.3 (the client's own backoff for ListAssets); gax counts maxRetries as attempts: 3 in all.
  createMaxRetriesBackoffSettings(100, 1.3, 60_000, 60_000, 1, 60_000, 3),
);

interface GaxError {
  code?: number;
  reason?: string;
  errorInfoMetadata?: Record<string, string>;
  statusDetails?: unknown[];
}

function describe(listing: Listing): string {
  return `ListAssets ${listing.contentType}${listing.assetTypes.length > 0 ? ` ${listing.assetTypes.join(', ')}` : ''}`;
}

/** Pages of one listing, to the end; each page's assets as the client decoded them. */
export async function* pagesOf(
  client: v1.AssetServiceClient,
  scope: string,
  listing: Listing,
  context: CollectContext,
  callOptions: CallOptions,
): AsyncGenerator<Asset[]> {
  const fetch = (pageToken: string) => pageOf(client, scope, listing, pageToken, context, callOptions);
  let pending: Promise<{ assets: Asset[]; next: string }> | undefined = fetch('');
  while (pending) {
    const page: { assets: Asset[]; next: string } = await pending;
    pending = page.next ? fetch(page.next) : undefined;
    // Settled later by the loop; the handler only keeps an abandoned listing's failure quiet.
    pending?.catch(() => undefined);
    yield page.assets;
  }
}

async function pageOf(
  client: v1.AssetServiceClient,
  scope: string,
  listing: Listing,
  pageToken: string,
  context: CollectContext,
  callOptions: CallOptions,
): Promise<{ assets: Asset[]; next: string }> {
  const request = {
    parent: scope,
    assetTypes: listing.assetTypes,
    contentType: listing.contentType,
    pageSize: listAssetsPageSize,
    pageToken,
  };
  for (let waits = 0; ; waits++) {
    context.signal.throwIfAborted();
    try {
      const [assets, , response] = await client.listAssets(request, {
        ...callOptions,
        autoPaginate: false,
        retry: transientRetry,
      });
      context.progress.called(describe(listing), assets.length);
      return { assets, next: response?.nextPageToken ?? '' };
    } catch (error) {
      const failure = error as GaxError;
      if (failure.code !== Status.RESOURCE_EXHAUSTED || waits >= maxRateLimitWaits) throw failureOf(failure, scope, listing);
      const seconds = retryDelayOf(failure) ?? defaultRateLimitSeconds;
      context.progress.rateLimited(seconds, 'Cloud Asset Inventory quota: ListAssets requests per minute');
      await delay(seconds * 1000, context.signal);
    }
  }
}

/** The delay a RetryInfo detail asks for, in seconds. */
function retryDelayOf(error: GaxError): number | undefined {
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
export function failureOf(error: GaxError, scope: string, listing: Listing): ConnectorFailure {
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
          ? `Cloud Asset Inventory failed ${describe(listing)} (${status}) after the client\u2019s retries.`
          : `Cloud Asset Inventory could not be reached for ${describe(listing)}, or no credential could be obtained for it.`,
      );
  }
}
