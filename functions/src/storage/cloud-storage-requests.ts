/**
 * How many HTTP requests the Cloud Storage driver (cloud-storage-store.ts) makes for one object
 * store call, retries aside: one each, except a `read` whose custom metadata a download's
 * headers cannot carry faithfully, which asks for that generation's metadata too. The
 * latency-charging benchmark store (scripts/lib/latency-store.ts) charges by this count, and a
 * test holds it to the requests the driver really makes (test/unit/storage/cloud-storage-store.test.ts).
 *
 * No imports: the benchmark scripts load this file as it is.
 */

export type StoreOperation = 'read' | 'stat' | 'create' | 'replace' | 'delete' | 'list';

/**
 * Whether a header value is surely the stored value: printable ASCII with no `%` or `=?`. Cloud
 * Storage documents no encoding for other values in `x-goog-meta-*` headers (percent-encoding
 * and RFC 2047 words are both seen in the wild), so the driver reads those from the JSON API.
 */
export function isHeaderSafe(value: string): boolean {
  return /^[\x20-\x24\x26-\x7e]*$/.test(value) && !value.includes('=?');
}

/** Whether a read of an object with this custom metadata needs a second request for it. */
export function readNeedsMetadataRequest(metadata: Record<string, string>): boolean {
  for (const key in metadata) if (!isHeaderSafe(metadata[key]!)) return true;
  return false;
}

/** Requests for one call, from its outcome: a `list` is one call per page, so one request. */
export function cloudStorageRequests(operation: StoreOperation, result: unknown): number {
  if (operation !== 'read' || typeof result !== 'object' || result === null || !('info' in result)) return 1;
  const { metadata } = (result as { info: { metadata: Record<string, string> } }).info;
  return readNeedsMetadataRequest(metadata) ? 2 : 1;
}
