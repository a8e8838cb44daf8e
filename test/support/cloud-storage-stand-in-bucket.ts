/**
 * The state behind the Cloud Storage stand-in (cloud-storage-stand-in.ts): one bucket's live
 * objects with their generations, the JSON API's preconditions and listing, and the Object
 * resource as the JSON API answers it (cloud-storage-json-api.ts). Nothing here speaks HTTP.
 */
import { createHash } from 'node:crypto';
import { maxListResults } from './cloud-storage-json-api.ts';

export interface StoredVersion {
  name: string;
  data: Buffer;
  contentType: string;
  metadata: Record<string, string>;
  generation: string;
  created: Date;
}

/** A refusal the stand-in answers as a JSON API error. */
export class ApiError extends Error {
  readonly status: 400 | 404 | 412;

  constructor(status: 400 | 404 | 412, message: string) {
    super(message);
    this.status = status;
  }
}

/** The generation preconditions of a request, as its query gives them. */
export interface Preconditions {
  ifGenerationMatch?: string;
  ifGenerationNotMatch?: string;
}

const crcTable = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  return crc >>> 0;
});

/** CRC32C (Castagnoli), the checksum Cloud Storage keeps for every object. */
export function crc32c(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The JSON API's `crc32c`: base64 of the big-endian checksum. */
export function crc32cBase64(data: Buffer): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32c(data));
  return bytes.toString('base64');
}

const md5Base64 = (data: Buffer) => createHash('md5').update(data).digest('base64');

/** Names in the order Cloud Storage lists them: by their UTF-8 bytes. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

export class StandInBucket {
  readonly name: string;
  readonly #objects = new Map<string, StoredVersion>();
  #lastGeneration = 0;

  constructor(name: string) {
    this.name = name;
  }

  /** A generation never given before in this bucket, like Cloud Storage's microsecond stamps. */
  #nextGeneration(now: Date): string {
    this.#lastGeneration = Math.max(this.#lastGeneration + 1, now.getTime() * 1000);
    return String(this.#lastGeneration);
  }

  /** Whether the live object (or its absence, generation 0) satisfies the request's preconditions. */
  #check(name: string, conditions: Preconditions): void {
    const current = this.#objects.get(name)?.generation ?? '0';
    const { ifGenerationMatch, ifGenerationNotMatch } = conditions;
    if (ifGenerationMatch !== undefined && ifGenerationMatch !== current)
      throw new ApiError(412, 'At least one of the pre-conditions you specified did not hold.');
    if (ifGenerationNotMatch !== undefined && ifGenerationNotMatch === current)
      throw new ApiError(412, 'At least one of the pre-conditions you specified did not hold.');
  }

  get(name: string, conditions: Preconditions = {}, generation?: string): StoredVersion {
    const found = this.#objects.get(name);
    if (!found || (generation !== undefined && generation !== found.generation))
      throw new ApiError(404, `No such object: ${this.name}/${name}`);
    this.#check(name, conditions);
    return found;
  }

  insert(version: Omit<StoredVersion, 'generation' | 'created'>, conditions: Preconditions, now = new Date()): StoredVersion {
    this.#check(version.name, conditions);
    const stored = { ...version, generation: this.#nextGeneration(now), created: now };
    this.#objects.set(version.name, stored);
    return stored;
  }

  delete(name: string, conditions: Preconditions = {}): void {
    if (!this.#objects.has(name)) throw new ApiError(404, `No such object: ${this.name}/${name}`);
    this.#check(name, conditions);
    this.#objects.delete(name);
  }

  /** One page of `objects.list`: names under the prefix, in [startOffset, endOffset), after the page token's name. */
  list(query: { prefix?: string; startOffset?: string; endOffset?: string; pageToken?: string; maxResults?: number }): {
    items: StoredVersion[];
    nextPageToken?: string;
  } {
    const { prefix = '', startOffset, endOffset } = query;
    const after = query.pageToken ? Buffer.from(query.pageToken, 'base64').toString('utf8') : undefined;
    const pageSize = Math.min(query.maxResults ?? maxListResults, maxListResults);
    const names = [...this.#objects.keys()]
      .filter(
        (name) =>
          name.startsWith(prefix) &&
          (startOffset === undefined || byteOrder(name, startOffset) >= 0) &&
          (endOffset === undefined || byteOrder(name, endOffset) < 0) &&
          (after === undefined || byteOrder(name, after) > 0),
      )
      .sort(byteOrder);
    const page = names.slice(0, pageSize);
    const items = page.map((name) => this.#objects.get(name)!);
    if (names.length <= pageSize) return { items };
    return { items, nextPageToken: Buffer.from(page.at(-1)!, 'utf8').toString('base64') };
  }

  /** The Object resource of a stored version, with the fields the description gives it. */
  resource(version: StoredVersion, origin: string): Record<string, unknown> {
    const path = `b/${this.name}/o/${encodeURIComponent(version.name)}`;
    const time = version.created.toISOString();
    return {
      kind: 'storage#object',
      id: `${this.name}/${version.name}/${version.generation}`,
      selfLink: `${origin}/storage/v1/${path}`,
      mediaLink: `${origin}/download/storage/v1/${path}?generation=${version.generation}&alt=media`,
      name: version.name,
      bucket: this.name,
      generation: version.generation,
      metageneration: '1',
      contentType: version.contentType,
      storageClass: 'STANDARD',
      size: String(version.data.length),
      md5Hash: md5Base64(version.data),
      crc32c: crc32cBase64(version.data),
      etag: Buffer.from(`${version.generation}/1`).toString('base64'),
      timeCreated: time,
      updated: time,
      timeStorageClassUpdated: time,
      timeFinalized: time,
      ...(Object.keys(version.metadata).length > 0 ? { metadata: version.metadata } : {}),
    };
  }

  /** The hashes of a media download, as `x-goog-hash` carries them. */
  hashHeader(version: StoredVersion): string {
    return `crc32c=${crc32cBase64(version.data)},md5=${md5Base64(version.data)}`;
  }
}
