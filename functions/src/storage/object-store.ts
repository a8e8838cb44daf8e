/**
 * Evident's only database: named objects with generations, as Cloud Storage keeps them.
 *
 * Three drivers implement this interface with the same semantics, held to one conformance
 * suite: Cloud Storage (production; in tests against a stand-in of its JSON API), a local folder
 * (the emulator default) and memory (benchmarks).
 * Writes that must not race carry a generation precondition: `create` succeeds only if the
 * object does not exist, `replace` only if it is still at the generation the caller read.
 */

export interface ObjectInfo {
  name: string;
  /** Changes on every write of the object; compare it, never order by it across objects. */
  generation: string;
  size: number;
  contentType: string;
  /** Custom string metadata given at write time. */
  metadata: Record<string, string>;
  /** When this generation was written (ISO 8601). */
  updated: string;
}

export interface StoredObject {
  data: Buffer;
  info: ObjectInfo;
}

export interface WriteOptions {
  contentType?: string;
  metadata?: Record<string, string>;
}

/**
 * Which objects a `list` returns, besides its prefix. The offsets have Cloud Storage's meaning
 * and combine with the prefix: a name must match all three. An empty offset is no bound (the
 * Cloud Storage driver does not send it). The local drivers compare names as JavaScript
 * strings (UTF-16 code units) where Cloud Storage compares UTF-8 bytes: the two orders differ
 * only between characters above U+FFFF and those from U+E000 to U+FFFF, which Evident's
 * mostly-ASCII names never hold together.
 */
export interface ListOptions {
  /** At most this many objects per page (1–1000, default 1000). */
  pageSize?: number;
  /** The `nextPageToken` of the previous page, asked with the same prefix and offsets. */
  pageToken?: string;
  /** Only names at or after this one. */
  startOffset?: string;
  /** Only names before this one. */
  endOffset?: string;
}

export interface ObjectPage {
  items: ObjectInfo[];
  /** Present when more objects follow. */
  nextPageToken?: string;
}

export interface ObjectStore {
  /**
   * The object's bytes and info, of one generation. Cloud Storage answers both in one request,
   * the info in the download's response headers, so it is the info as headers carry it
   * (`infoAsDownloaded`); `stat` and `list` give it exactly.
   */
  read(name: string): Promise<StoredObject>;
  /** The object's metadata only. */
  stat(name: string): Promise<ObjectInfo>;
  /** Writes a new object; `PreconditionFailed` if one exists under this name. */
  create(name: string, data: Buffer | string, options?: WriteOptions): Promise<ObjectInfo>;
  /** Overwrites the object only if it is still at `ifGeneration`; else `PreconditionFailed`. */
  replace(name: string, data: Buffer | string, ifGeneration: string, options?: WriteOptions): Promise<ObjectInfo>;
  /** Deletes the object, only at `ifGeneration` when given. */
  delete(name: string, options?: { ifGeneration?: string }): Promise<void>;
  /** Objects whose names start with `prefix` (and lie within the offsets), in name order. */
  list(prefix: string, options?: ListOptions): Promise<ObjectPage>;
}

export class ObjectNotFound extends Error {
  readonly objectName: string;

  constructor(objectName: string) {
    super(`No object named "${objectName}".`);
    this.objectName = objectName;
    this.name = 'ObjectNotFound';
  }
}

export class PreconditionFailed extends Error {
  readonly objectName: string;

  constructor(objectName: string, expected: string) {
    super(`Object "${objectName}" is not at ${expected === '0' ? 'nothing (it exists)' : `generation ${expected}`}.`);
    this.objectName = objectName;
    this.name = 'PreconditionFailed';
  }
}

export class InvalidObjectName extends Error {
  readonly objectName: string;

  constructor(objectName: string, reason: string) {
    super(`Invalid object name "${objectName}": ${reason}.`);
    this.objectName = objectName;
    this.name = 'InvalidObjectName';
  }
}

/** Strips the spaces and tabs an HTTP header value loses at either end (no regular expression: linear). */
function trimHeaderSpace(value: string): string {
  let start = 0;
  let end = value.length;
  const isSpace = (code: number) => code === 0x20 || code === 0x09;
  while (start < end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/**
 * The info a `read` answers, the same from every driver: what a Cloud Storage download's
 * response headers carry. Custom metadata keys in lower case (header names have none, so keys
 * that differ only in case are not told apart), values without spaces or tabs at either end,
 * and `updated` to the whole second (`Last-Modified`).
 */
export function infoAsDownloaded(info: ObjectInfo): ObjectInfo {
  // Drivers hand every caller its own metadata object, so one already in that form is kept.
  let metadata = info.metadata;
  for (const key in metadata) {
    const value = metadata[key]!;
    if (key !== key.toLowerCase() || trimHeaderSpace(value) !== value) {
      metadata = {};
      for (const name in info.metadata) metadata[name.toLowerCase()] = trimHeaderSpace(info.metadata[name]!);
      break;
    }
  }
  return { ...info, metadata, updated: toTheSecond(info.updated) };
}

/** An ISO 8601 time cut to the whole second, as `Last-Modified` carries it. */
function toTheSecond(time: string): string {
  if (time.length === 24 && time.endsWith('Z')) return `${time.slice(0, 19)}.000Z`;
  const ms = Date.parse(time);
  return new Date(ms - (((ms % 1000) + 1000) % 1000)).toISOString();
}

export const maxPageSize = 1000;
const maxSegmentBytes = 200;

/**
 * Object names are `/`-separated segments of printable characters; no empty, `.` or `..`
 * segment, no backslash, each segment at most 200 bytes. Both drivers enforce the same rule,
 * so a name that works locally works in Cloud Storage.
 */
export function checkObjectName(name: string): void {
  if (name.length === 0) throw new InvalidObjectName(name, 'it is empty');
  for (const segment of name.split('/')) {
    if (segment === '') throw new InvalidObjectName(name, 'it has an empty segment');
    if (segment === '.' || segment === '..') throw new InvalidObjectName(name, 'it has a "." or ".." segment');
    // UTF-8 takes at most 3 bytes per UTF-16 unit, so only long segments need counting.
    if (segment.length > maxSegmentBytes / 3 && Buffer.byteLength(segment) > maxSegmentBytes)
      throw new InvalidObjectName(name, `a segment is longer than ${maxSegmentBytes} bytes`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(name)) throw new InvalidObjectName(name, 'it has a control character or backslash');
}

export function checkPageSize(pageSize: number | undefined): number {
  const size = pageSize ?? maxPageSize;
  if (!Number.isInteger(size) || size < 1 || size > maxPageSize) throw new RangeError(`pageSize must be 1–${maxPageSize}`);
  return size;
}

/**
 * The names one `list` call may return, for the drivers that list by themselves (Cloud
 * Storage does it server-side): under the prefix, within the offsets, and after the previous
 * page's last name, which is what their page tokens hold.
 */
export class ListRange {
  readonly prefix: string;
  /** The first name that may be listed: the prefix or the start offset, whichever is later. */
  readonly start: string;
  readonly end: string | undefined;
  /** The previous page's last name. */
  readonly after: string | undefined;

  constructor(prefix: string, options: ListOptions) {
    this.prefix = prefix;
    this.start = options.startOffset && options.startOffset > prefix ? options.startOffset : prefix;
    this.end = options.endOffset || undefined;
    this.after = options.pageToken ? Buffer.from(options.pageToken, 'base64url').toString('utf8') : undefined;
  }

  /** The page token that continues after `lastName`. */
  static tokenAfter(lastName: string): string {
    return Buffer.from(lastName, 'utf8').toString('base64url');
  }

  includes(name: string): boolean {
    return (
      name.startsWith(this.prefix) &&
      name >= this.start &&
      (this.after === undefined || name > this.after) &&
      (this.end === undefined || name < this.end)
    );
  }

  /** Whether no name from `name` on can be listed, so a walk in name order can stop. */
  isPast(name: string): boolean {
    return (this.end !== undefined && name >= this.end) || (name > this.prefix && !name.startsWith(this.prefix));
  }

  /** Whether some name starting with `head` may be listed, so a walk need not skip them all. */
  mayInclude(head: string): boolean {
    // Every name starting with `head` is below a bound that is greater than `head` without
    // starting with it: they first differ inside `head`, where the bound is greater.
    const allBelow = (bound: string | undefined) => bound !== undefined && bound > head && !bound.startsWith(head);
    return (
      (head.startsWith(this.prefix) || this.prefix.startsWith(head)) &&
      !this.isPast(head) &&
      !allBelow(this.start) &&
      !allBelow(this.after)
    );
  }
}

/**
 * The pages of a listing, in name order, each one asked of the store only when the one before
 * has been taken: a consumer that stops early (or writes between pages) sends exactly the
 * listings it would have sent by hand, and no more. One function over `list` rather than a
 * method of each driver, so every store and every wrapper of one pages alike.
 */
export async function* pages(
  store: ObjectStore,
  prefix: string,
  options: Omit<ListOptions, 'pageToken'> = {},
): AsyncGenerator<ObjectPage, void, undefined> {
  let pageToken: string | undefined;
  do {
    const page = await store.list(prefix, pageToken ? { ...options, pageToken } : options);
    yield page;
    pageToken = page.nextPageToken;
  } while (pageToken);
}

/** Every object under a prefix (between the offsets, when given), in name order, across all pages. */
export async function listAll(
  store: ObjectStore,
  prefix: string,
  range: Pick<ListOptions, 'startOffset' | 'endOffset'> = {},
): Promise<ObjectInfo[]> {
  const objects: ObjectInfo[] = [];
  for await (const page of pages(store, prefix, range)) objects.push(...page.items);
  return objects;
}

/** Every object name under a prefix (between the offsets, when given), in name order, across all pages. */
export async function listNames(
  store: ObjectStore,
  prefix: string,
  range: Pick<ListOptions, 'startOffset' | 'endOffset'> = {},
): Promise<string[]> {
  return (await listAll(store, prefix, range)).map((info) => info.name);
}

/** Runs `work` on every value with at most `size` in flight, so a long list never opens too many reads at once. */
export async function inBatches<T, R>(
  values: readonly T[],
  size: number,
  work: (value: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < values.length; start += size) {
    results.push(...(await Promise.all(values.slice(start, start + size).map((value, i) => work(value, start + i)))));
  }
  return results;
}

/**
 * Runs `work` on `values` `size` at a time and yields the results in order, the next batch
 * already in flight while the one before is consumed: a consumer that writes what it reads
 * (the audit package) overlaps the store's latency, and holds at most two batches.
 */
export async function* inBatchesAhead<T, R>(
  values: readonly T[],
  size: number,
  work: (value: T) => Promise<R>,
): AsyncGenerator<R> {
  const batch = (start: number) => Promise.all(values.slice(start, start + size).map(work));
  let next = values.length > 0 ? batch(0) : undefined;
  try {
    for (let start = 0; next; start += size) {
      const results = await next;
      next = start + size < values.length ? batch(start + size) : undefined;
      yield* results;
    }
  } finally {
    // A consumer that stops early leaves a batch in flight; its failure is of no interest now.
    next?.catch(() => undefined);
  }
}

/**
 * Reads an object, lets `change` compute its next content, and writes it back with a
 * compare-and-swap, retrying when another writer got there first. `change` gets `undefined`
 * for a missing object (then the write is a create); it may run several times.
 */
export async function mutateObject(
  store: ObjectStore,
  name: string,
  change: (current: Buffer | undefined) => Buffer | string,
  options: WriteOptions & { attempts?: number } = {},
): Promise<ObjectInfo> {
  const attempts = options.attempts ?? 20;
  for (let attempt = 1; ; attempt++) {
    let current: StoredObject | undefined;
    try {
      current = await store.read(name);
    } catch (error) {
      if (!(error instanceof ObjectNotFound)) throw error;
    }
    try {
      const next = change(current?.data);
      return current
        ? await store.replace(name, next, current.info.generation, options)
        : await store.create(name, next, options);
    } catch (error) {
      if (!(error instanceof PreconditionFailed) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
