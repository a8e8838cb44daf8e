/**
 * The object store on Cloud Storage (`@google-cloud/storage`), in production or against the
 * Storage emulator when `STORAGE_EMULATOR_HOST` is set. Preconditions map onto
 * `ifGenerationMatch` (0 means "must not exist"), so the bucket itself settles races.
 */
import type { Bucket, File, FileMetadata } from '@google-cloud/storage';
import {
  checkObjectName,
  checkPageSize,
  ObjectNotFound,
  PreconditionFailed,
  type ListOptions,
  type ObjectInfo,
  type ObjectPage,
  type ObjectStore,
  type StoredObject,
  type WriteOptions,
} from './object-store.js';

const statusOf = (error: unknown) => (error as { code?: unknown }).code;

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

export class CloudStorageStore implements ObjectStore {
  readonly bucket: Bucket;

  constructor(bucket: Bucket) {
    this.bucket = bucket;
  }

  #file(name: string, generation?: string): File {
    checkObjectName(name);
    return generation === undefined ? this.bucket.file(name) : this.bucket.file(name, { generation: Number(generation) });
  }

  async read(name: string): Promise<StoredObject> {
    // Metadata first, then the bytes of exactly that generation; if it was replaced in
    // between, its bytes are gone (404) and the read starts over on the new generation.
    for (let attempt = 0; attempt < 5; attempt++) {
      const info = await this.stat(name);
      try {
        const [data] = await this.#file(name, info.generation).download();
        return { data, info };
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
      }
    }
    throw new ObjectNotFound(name);
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
      await this.#file(name).delete(
        options.ifGeneration === undefined ? {} : { ifGenerationMatch: Number(options.ifGeneration) },
      );
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
