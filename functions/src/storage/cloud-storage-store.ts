/**
 * The object store on Cloud Storage (`@google-cloud/storage`), in production or against the
 * Storage emulator when `STORAGE_EMULATOR_HOST` is set. Preconditions map onto
 * `ifGenerationMatch` (0 means "must not exist"), so the bucket itself settles races.
 *
 * Each call is one request of the JSON API (cloud-storage-requests.ts counts them): a `read` is
 * one media download, whose response headers carry the generation, size, type, time and custom
 * metadata of the bytes it answers. Retries are the SDK's (its `RetryConditional` strategy,
 * `retryOptions` below): reads, lists and writes with a generation precondition are retried on
 * 408, 429, 5xx and broken connections; a delete without one is never retried. Downloads are
 * the exception: the SDK's retry of a media download leaves an unhandled rejection behind
 * (googleapis/google-cloud-node#8670, `ERR_STREAM_UNABLE_TO_PIPE` in teeny-request), which
 * would take the process down, so they go through a second client with SDK retries off and the
 * driver retries them itself, with the same test of what is retryable and the same backoff.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  IdempotencyStrategy,
  Storage,
  type Bucket,
  type File,
  type FileMetadata,
  type StorageOptions,
} from '@google-cloud/storage';
import { isHeaderSafe } from './cloud-storage-requests.js';
import {
  checkObjectName,
  checkPageSize,
  infoAsDownloaded,
  ObjectNotFound,
  PreconditionFailed,
  type ListOptions,
  type ObjectInfo,
  type ObjectPage,
  type ObjectStore,
  type StoredObject,
  type WriteOptions,
} from './object-store.js';

/**
 * How the SDK retries, chosen rather than inherited. Cloud Storage asks clients to retry 408,
 * 429, 5xx and broken connections with exponential backoff, and only what is idempotent:
 * `RetryConditional` retries reads, lists and the writes and deletes that carry a generation
 * precondition, never an unconditional write. At most four retries, waiting about 2, 4, 8 and
 * 8 s (plus up to 1 s of jitter; a write waits 1, 2, 4 and 8 s): under the 60 s Firebase Hosting
 * gives a request. The whole call ends within two minutes, retries included (the client's
 * default is ten), so the evidence store's settle time (five minutes) outlasts any write still
 * in flight.
 */
export const retryOptions = {
  autoRetry: true,
  idempotencyStrategy: IdempotencyStrategy.RetryConditional,
  maxRetries: 4,
  retryDelayMultiplier: 2,
  maxRetryDelay: 8,
  totalTimeout: 120,
} satisfies StorageOptions['retryOptions'];

const statusOf = (error: unknown) => (error as { code?: unknown }).code;

type ResponseHeaders = Record<string, string | string[] | undefined>;

interface Downloaded {
  data: Buffer;
  headers: ResponseHeaders;
}

const headerOf = (headers: ResponseHeaders, name: string) => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** One media download (`alt=media`): the bytes, and the response headers that describe them. */
function download(file: File): Promise<Downloaded> {
  return new Promise((resolve, reject) => {
    let headers: ResponseHeaders | undefined;
    const chunks: Buffer[] = [];
    file
      .createReadStream()
      .on('response', (response: { headers: ResponseHeaders }) => (headers = response.headers))
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('error', reject)
      .on('end', () =>
        headers ? resolve({ data: Buffer.concat(chunks), headers }) : reject(new Error('The download answered no headers.')),
      );
  });
}

/**
 * The info a download's headers give (`x-goog-generation`, `x-goog-stored-content-length`,
 * `Content-Type`, `Last-Modified`, `x-goog-meta-*`), or undefined when a header is missing or
 * a metadata value may not be the stored one (isHeaderSafe).
 */
function infoFromHeaders(name: string, headers: ResponseHeaders): ObjectInfo | undefined {
  const generation = headerOf(headers, 'x-goog-generation');
  const size = headerOf(headers, 'x-goog-stored-content-length');
  const updated = Date.parse(headerOf(headers, 'last-modified') ?? '');
  if (!generation || !/^\d{1,19}$/.test(generation) || !size || !/^\d{1,15}$/.test(size) || !Number.isFinite(updated))
    return undefined;
  const metadata: Record<string, string> = {};
  for (const [header, value] of Object.entries(headers)) {
    if (!header.startsWith('x-goog-meta-')) continue;
    if (typeof value !== 'string' || !isHeaderSafe(value)) return undefined;
    metadata[header.slice('x-goog-meta-'.length)] = value;
  }
  return {
    name,
    generation,
    size: Number(size),
    contentType: headerOf(headers, 'content-type') ?? 'application/octet-stream',
    metadata,
    updated: new Date(updated).toISOString(),
  };
}

function infoOf(metadata: FileMetadata): ObjectInfo {
  const custom: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.metadata ?? {})) if (typeof value === 'string') custom[key] = value;
  return {
    name: metadata.name ?? '',
    generation: String(metadata.generation),
    size: Number(metadata.size ?? 0),
    contentType: metadata.contentType ?? 'application/octet-stream',
    metadata: custom,
    updated: metadata.updated ?? new Date(0).toISOString(),
  };
}

export interface CloudStorageOptions {
  /** The project; without it the SDK finds it from the credentials. */
  projectId?: string;
  bucket: string;
  /** Another endpoint than Cloud Storage's, e.g. a stand-in on loopback (then no credentials are sent). */
  apiEndpoint?: string;
  /** Overrides of `retryOptions` (tests wait less). */
  retry?: Partial<typeof retryOptions>;
}

/** The store on a bucket: one client for everything but downloads, one without SDK retries for them. */
export function openCloudStorageStore(options: CloudStorageOptions): CloudStorageStore {
  const retry = { ...retryOptions, ...options.retry };
  const client = (autoRetry: boolean) =>
    new Storage({
      ...(options.projectId ? { projectId: options.projectId } : {}),
      ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
      retryOptions: { ...retry, autoRetry },
    });
  return new CloudStorageStore(client(true).bucket(options.bucket), client(false).bucket(options.bucket));
}

export class CloudStorageStore implements ObjectStore {
  readonly bucket: Bucket;
  /** The same bucket through a client that never retries: `#download` does. */
  readonly #downloads: Bucket;

  constructor(bucket: Bucket, downloads: Bucket) {
    this.bucket = bucket;
    this.#downloads = downloads;
  }

  /**
   * A media download, retried as the SDK retries the other calls: what its `retryableErrorFn`
   * deems retryable (408, 429, 5xx, reset connections), at most `maxRetries` times, waiting
   * `retryDelayMultiplier`^n seconds plus up to one of jitter, at most `maxRetryDelay`, all
   * within `totalTimeout`.
   */
  async #download(name: string): Promise<Downloaded> {
    const { maxRetries, retryDelayMultiplier, maxRetryDelay, totalTimeout, retryableErrorFn } = this.bucket.storage.retryOptions;
    const deadline = performance.now() + totalTimeout! * 1000;
    for (let retry = 1; ; retry++) {
      try {
        return await download(this.#downloads.file(name));
      } catch (error) {
        const wait = Math.min(retryDelayMultiplier! ** retry * 1000 + Math.random() * 1000, maxRetryDelay! * 1000);
        if (retry > maxRetries! || !retryableErrorFn!(error as never) || performance.now() + wait > deadline) throw error;
        await sleep(wait);
      }
    }
  }

  #file(name: string, generation?: string): File {
    checkObjectName(name);
    return generation === undefined ? this.bucket.file(name) : this.bucket.file(name, { generation: Number(generation) });
  }

  async read(name: string): Promise<StoredObject> {
    for (let attempt = 0; attempt < 5; attempt++) {
      let downloaded: Downloaded;
      try {
        checkObjectName(name);
        downloaded = await this.#download(name);
      } catch (error) {
        if (statusOf(error) === 404) throw new ObjectNotFound(name);
        throw error;
      }
      const info = infoFromHeaders(name, downloaded.headers) ?? (await this.#infoAt(name, downloaded.headers));
      // The generation was replaced between the download and the metadata request: read again.
      if (info) return { data: downloaded.data, info: infoAsDownloaded(info) };
    }
    throw new ObjectNotFound(name);
  }

  /** The info of the generation a download answered, from the JSON API; undefined once it is gone. */
  async #infoAt(name: string, headers: ResponseHeaders): Promise<ObjectInfo | undefined> {
    const generation = headerOf(headers, 'x-goog-generation');
    if (generation === undefined || !/^\d{1,19}$/.test(generation))
      throw new Error(`The download of "${name}" named no generation.`);
    try {
      const [metadata] = await this.#file(name, generation).getMetadata();
      return infoOf(metadata);
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async stat(name: string): Promise<ObjectInfo> {
    try {
      const [metadata] = await this.#file(name).getMetadata();
      return infoOf(metadata);
    } catch (error) {
      if (statusOf(error) === 404) throw new ObjectNotFound(name);
      throw error;
    }
  }

  create(name: string, data: Buffer | string, options: WriteOptions = {}): Promise<ObjectInfo> {
    return this.#save(name, data, '0', options);
  }

  replace(name: string, data: Buffer | string, ifGeneration: string, options: WriteOptions = {}): Promise<ObjectInfo> {
    return this.#save(name, data, ifGeneration, options);
  }

  async #save(name: string, data: Buffer | string, ifGeneration: string, options: WriteOptions): Promise<ObjectInfo> {
    const file = this.#file(name);
    try {
      await file.save(typeof data === 'string' ? Buffer.from(data, 'utf8') : data, {
        resumable: false,
        contentType: options.contentType ?? 'application/octet-stream',
        metadata: { metadata: { ...options.metadata } },
        preconditionOpts: { ifGenerationMatch: Number(ifGeneration) },
      });
    } catch (error) {
      // A replace of a missing object fails its precondition too, as it does locally.
      if (statusOf(error) === 412 || (statusOf(error) === 404 && ifGeneration !== '0'))
        throw new PreconditionFailed(name, ifGeneration);
      throw error;
    }
    return infoOf(file.metadata);
  }

  async delete(name: string, options: { ifGeneration?: string } = {}): Promise<void> {
    try {
      const file = this.#file(name);
      if (options.ifGeneration === undefined) {
        // Never retried: a retry after a lost answer would find nothing and report a 404. Sent
        // as one plain request because the SDK's own delete turns retries off for the whole
        // client while it runs, for every other call in flight too.
        await file.request({ method: 'DELETE', uri: '', maxRetries: 0 } as Parameters<File['request']>[0]);
      } else {
        await file.delete({ ifGenerationMatch: Number(options.ifGeneration) });
      }
    } catch (error) {
      if (statusOf(error) === 404) throw new ObjectNotFound(name);
      if (statusOf(error) === 412) throw new PreconditionFailed(name, options.ifGeneration ?? '');
      throw error;
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ObjectPage> {
    const [files, nextQuery] = await this.bucket.getFiles({
      prefix,
      maxResults: checkPageSize(options.pageSize),
      autoPaginate: false,
      ...(options.pageToken ? { pageToken: options.pageToken } : {}),
      ...(options.startOffset ? { startOffset: options.startOffset } : {}),
      ...(options.endOffset ? { endOffset: options.endOffset } : {}),
    });
    const page: ObjectPage = { items: files.map((file) => infoOf(file.metadata)) };
    const token = (nextQuery as { pageToken?: string } | null | undefined)?.pageToken;
    if (token) page.nextPageToken = token;
    return page;
  }
}
