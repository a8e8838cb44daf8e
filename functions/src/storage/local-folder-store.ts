/**
 * The object store in a local folder, for the emulators (the Storage emulator needs Java 21
 * and downloads these machines do not have). It keeps Cloud Storage's semantics across
 * processes — the functions emulator runs each function in its own. Every object file is
 * written in full to a temporary file and flushed to disk first, then published in one step,
 * and the directory that names it flushed after; so readers never see half an object, and a
 * crash leaves either the old object or the new one under its name. A create links the file
 * in place (`link` fails if the name is taken); a replace renames it over the old one while
 * holding a per-object lock (proper-lockfile), which deletes hold too. A writer whose lock
 * went stale under it (the process paused past `lockStaleMs`) fails with `LockLost`.
 *
 * Layout: `objects/` holds one file per object, a JSON header line then the bytes; name
 * segments become directories `<segment>.d/` and the last one a file `<segment>.o`, so `a`
 * and `a/b` can both exist. A segment is percent-encoded (dots too); one whose encoding does
 * not fit in a file name (255 bytes) is cut into pieces, each but the last a directory
 * `<piece>.p/`. `tmp/` and `locks/` hold work in progress; temporary files a crashed writer
 * left are removed on a store's first write.
 *
 * Files that earlier versions left cut short by a crash (no complete header line) read as
 * empty objects with no metadata, whose generation is the file's modification time: the
 * caller sees data it cannot use, as it would from an empty Cloud Storage object, and can
 * replace it.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as fsPromises from 'node:fs/promises';
import type { Dirent, Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import {
  checkObjectName,
  checkPageSize,
  infoAsDownloaded,
  inBatches,
  ListRange,
  ObjectNotFound,
  PreconditionFailed,
  type ListOptions,
  type ObjectInfo,
  type ObjectPage,
  type ObjectStore,
  type StoredObject,
  type WriteOptions,
} from './object-store.js';

type Header = Omit<ObjectInfo, 'name' | 'size'>;

/** The file system calls the store makes; tests pass one that records or holds some of them. */
export type FileSystem = Pick<typeof fsPromises, 'link' | 'mkdir' | 'open' | 'readdir' | 'rename' | 'rm' | 'stat' | 'unlink'>;

export interface LocalFolderOptions {
  fs?: FileSystem;
  /** Milliseconds since the epoch, for the age of temporary files. */
  now?: () => number;
  /** How long a held lock may go unrefreshed before another writer takes it (proper-lockfile's `stale`, at least 2000). */
  lockStaleMs?: number;
}

/** A write whose lock went stale before it finished; another writer may have taken the lock since. */
export class LockLost extends Error {
  readonly objectName: string;

  constructor(objectName: string, cause: Error) {
    super(`The lock on "${objectName}" went stale before the write finished (${cause.message}); read the object again.`, {
      cause,
    });
    this.objectName = objectName;
    this.name = 'LockLost';
  }
}

/** A temporary file this old belongs to no write in progress: writes take milliseconds, and locks go stale in seconds. */
const abandonedAfterMs = 60 * 60 * 1000;

/** A file name holds at most 255 bytes; two go to the suffix. Encoded segments are ASCII, one byte a character. */
const maxEncodedPiece = 253;

const encodeSegment = (segment: string) => encodeURIComponent(segment).replace(/\./g, '%2E');
const decodeSegment = (segment: string) => decodeURIComponent(segment);

/**
 * A segment's encoding, in pieces that each fit a file name. One that fits stays whole, as
 * every earlier version laid it out; a longer one is cut between code points, so each piece
 * decodes on its own.
 */
function encodedPieces(segment: string): string[] {
  const whole = encodeSegment(segment);
  if (whole.length <= maxEncodedPiece) return [whole];
  const pieces: string[] = [];
  let piece = '';
  for (const char of segment) {
    const encoded = encodeSegment(char);
    if (piece.length + encoded.length > maxEncodedPiece) {
      pieces.push(piece);
      piece = '';
    }
    piece += encoded;
  }
  return [...pieces, piece];
}

const pathOf = (segment: string, suffix: '.d' | '.o') =>
  encodedPieces(segment).map((piece, index, pieces) => `${piece}${index === pieces.length - 1 ? suffix : '.p'}`);

/** What the walk found in a directory: an object, or a folder of the names under `<name>`. */
interface Child {
  name: string;
  folder: string | undefined;
}

/** What an entry under `objects/` is, by its suffix; anything else is not the store's. */
function kindOf(entry: Dirent): 'object' | 'folder' | 'piece' | undefined {
  const suffix = entry.name.slice(-2);
  if (entry.isFile()) return suffix === '.o' ? 'object' : undefined;
  if (!entry.isDirectory()) return undefined;
  return suffix === '.d' ? 'folder' : suffix === '.p' ? 'piece' : undefined;
}

const byName = (a: Child, b: Child) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The header of a file a crash cut short: no data, no metadata, and a generation that holds until it is replaced. */
function cutShortHeader(stats: Stats): Header {
  return {
    generation: String(Math.floor(stats.mtimeMs * 1000)),
    contentType: 'application/octet-stream',
    metadata: {},
    updated: stats.mtime.toISOString(),
  };
}

export class LocalFolderStore implements ObjectStore {
  readonly #objects: string;
  readonly #tmp: string;
  readonly #locks: string;
  readonly #fs: FileSystem;
  readonly #now: () => number;
  readonly #lockStaleMs: number;
  #ready: Promise<void> | undefined;
  #lastGeneration = 0;

  readonly root: string;

  constructor(root: string, options: LocalFolderOptions = {}) {
    this.root = root;
    this.#objects = join(root, 'objects');
    this.#tmp = join(root, 'tmp');
    this.#locks = join(root, 'locks');
    this.#fs = options.fs ?? fsPromises;
    this.#now = options.now ?? Date.now;
    this.#lockStaleMs = options.lockStaleMs ?? 10_000;
  }

  #fileOf(name: string): string {
    checkObjectName(name);
    const segments = name.split('/');
    const last = segments.pop()!;
    return join(this.#objects, ...segments.flatMap((segment) => pathOf(segment, '.d')), ...pathOf(last, '.o'));
  }

  async read(name: string): Promise<StoredObject> {
    const handle = await this.#open(this.#fileOf(name));
    if (!handle) throw new ObjectNotFound(name);
    try {
      const content = await handle.readFile();
      const newline = content.indexOf(0x0a);
      if (newline === -1)
        return { data: Buffer.alloc(0), info: infoAsDownloaded({ name, size: 0, ...cutShortHeader(await handle.stat()) }) };
      const header = JSON.parse(content.subarray(0, newline).toString('utf8')) as Header;
      const data = content.subarray(newline + 1);
      return { data, info: infoAsDownloaded({ name, size: data.length, ...header }) };
    } finally {
      await handle.close();
    }
  }

  async stat(name: string): Promise<ObjectInfo> {
    const found = await this.#readHeader(this.#fileOf(name));
    if (!found) throw new ObjectNotFound(name);
    return { name, size: found.size, ...found.header };
  }

  /**
   * Creates without the lock, which is what makes creates cheap. It stays correct because an
   * object file appears only here, by `link`, which fails atomically when the name is taken;
   * it disappears only by a delete, and changes only by a replace, both under the lock after
   * reading the file's generation. So a create that succeeds overwrote nothing; and while a
   * replace or delete holds the lock over a file it has read, no create can touch that file
   * (its link fails), so what they checked is still what they change. A replace or delete
   * that found no file was simply earlier than the create. Only the order of generations
   * across incarnations loosens: the generation is chosen before the link, so a create that
   * waits between the two can publish one lower than that of an object created and deleted
   * under the same name meanwhile. It is still unique (see `#nextGeneration`), and that is
   * all the preconditions rely on: they compare generations for equality only.
   */
  async create(name: string, data: Buffer | string, options: WriteOptions = {}): Promise<ObjectInfo> {
    const file = this.#fileOf(name);
    const staged = await this.#stage(name, data, undefined, options);
    try {
      const made = await this.#fs.mkdir(dirname(file), { recursive: true });
      await this.#fs.link(staged.temporary, file);
      await this.#syncDirectories(dirname(file), made);
      return staged.info;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new PreconditionFailed(name, '0');
      throw error;
    } finally {
      // The outcome is decided by now; a temporary file left behind would only be litter.
      await this.#fs.unlink(staged.temporary).catch(() => undefined);
    }
  }

  async replace(name: string, data: Buffer | string, ifGeneration: string, options: WriteOptions = {}): Promise<ObjectInfo> {
    // Generation 0 means "must not exist", as in Cloud Storage: that is a create, and only the
    // create path may bring a missing object into being (see `create`).
    if (ifGeneration === '0') return this.create(name, data, options);
    return this.#locked(name, async (file, stillHeld) => {
      const current = await this.#currentGeneration(file);
      if (current !== ifGeneration) throw new PreconditionFailed(name, ifGeneration);
      const staged = await this.#stage(name, data, current, options);
      try {
        stillHeld();
        await this.#fs.rename(staged.temporary, file);
      } catch (error) {
        await this.#fs.unlink(staged.temporary).catch(() => undefined);
        throw error;
      }
      await this.#syncDirectories(dirname(file), undefined);
      return staged.info;
    });
  }

  async delete(name: string, options: { ifGeneration?: string } = {}): Promise<void> {
    await this.#locked(name, async (file, stillHeld) => {
      const current = await this.#currentGeneration(file);
      if (current === undefined) throw new ObjectNotFound(name);
      if (options.ifGeneration !== undefined && options.ifGeneration !== current)
        throw new PreconditionFailed(name, options.ifGeneration);
      stillHeld();
      await this.#fs.unlink(file);
    });
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ObjectPage> {
    const pageSize = checkPageSize(options.pageSize);
    const range = new ListRange(prefix, options);
    // One name past the page tells whether another page follows; only the page is stat'ed.
    const names: string[] = [];
    await this.#walk(this.#objects, '', range, pageSize + 1, names);
    const page = names.slice(0, pageSize);
    const found = await inBatches(page, 16, async (name) => {
      try {
        return await this.stat(name);
      } catch (error) {
        if (error instanceof ObjectNotFound) return undefined; // deleted while listing
        throw error;
      }
    });
    const result: ObjectPage = { items: found.filter((info) => info !== undefined) };
    if (names.length > pageSize) result.nextPageToken = ListRange.tokenAfter(page[page.length - 1]!);
    return result;
  }

  /**
   * Collects, in name order, up to `limit` names in `range` under `dir`, and answers whether
   * the walk should go on. Sorting each directory by its entries' names — a folder's as
   * `<segment>/` — gives the global order, because no name outside a folder falls between
   * two names inside it; so the walk skips folders out of range and stops at the limit.
   */
  async #walk(dir: string, namePrefix: string, range: ListRange, limit: number, names: string[]): Promise<boolean> {
    const children: Child[] = [];
    await this.#children(dir, namePrefix, range, children);
    children.sort(byName);
    for (const child of children) {
      if (range.isPast(child.name)) return false;
      if (child.folder !== undefined) {
        if (range.mayInclude(child.name) && !(await this.#walk(child.folder, child.name, range, limit, names))) return false;
      } else if (range.includes(child.name)) {
        names.push(child.name);
        if (names.length >= limit) return false;
      }
    }
    return true;
  }

  /**
   * The objects and folders in `dir`, named in full. The pieces of a long segment are followed
   * down to where it ends: names inside a piece's directory may sort on either side of a
   * sibling's (a short segment that extends the piece), so it is not a folder the walk could
   * keep in order by its name alone.
   */
  async #children(dir: string, head: string, range: ListRange, children: Child[]): Promise<void> {
    let entries;
    try {
      entries = await this.#fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const kind = kindOf(entry);
      if (kind === undefined) continue;
      const name = head + decodeSegment(entry.name.slice(0, -2));
      if (kind === 'folder') children.push({ name: `${name}/`, folder: join(dir, entry.name) });
      else if (kind === 'object') children.push({ name, folder: undefined });
      else if (range.mayInclude(name)) await this.#children(join(dir, entry.name), name, range, children);
    }
  }

  /** Writes the object's next generation to a temporary file, on disk before it is published. */
  async #stage(
    name: string,
    data: Buffer | string,
    current: string | undefined,
    options: WriteOptions,
  ): Promise<{ temporary: string; info: ObjectInfo }> {
    await this.#folders();
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const header: Header = {
      generation: this.#nextGeneration(current),
      contentType: options.contentType ?? 'application/octet-stream',
      metadata: { ...options.metadata },
      updated: new Date().toISOString(),
    };
    const temporary = join(this.#tmp, randomUUID());
    const handle = await this.#fs.open(temporary, 'wx');
    try {
      await handle.writeFile(Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), bytes]));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { temporary, info: { name, size: bytes.length, ...header } };
  }

  /**
   * Flushes the entry just published in `dir`, and those of the folders `mkdir` made on the
   * way (`made` is the first of them): until then a crash may forget the name, not the bytes.
   */
  async #syncDirectories(dir: string, made: string | undefined): Promise<void> {
    // Windows cannot open a directory to flush it; NTFS journals the link or rename itself.
    if (process.platform === 'win32') return;
    const dirs = [dir];
    if (made !== undefined) {
      for (let folder = dir; folder !== dirname(made) && folder !== dirname(folder); folder = dirname(folder))
        dirs.push(dirname(folder));
    }
    for (const folder of dirs) {
      const handle = await this.#fs.open(folder, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  }

  /**
   * Microseconds since the epoch, and always past the object's previous generation and every
   * generation this process gave before. Across processes only the clock keeps them apart, so
   * it reads microseconds (not milliseconds times 1000): processes creating in the same
   * millisecond, as lock-free creates easily do, still pick different ones.
   */
  #nextGeneration(current: string | undefined): string {
    const now = Math.floor((performance.timeOrigin + performance.now()) * 1000);
    const next = Math.max(now, this.#lastGeneration + 1, current === undefined ? 0 : Number(current) + 1);
    this.#lastGeneration = next;
    return String(next);
  }

  async #currentGeneration(file: string): Promise<string | undefined> {
    return (await this.#readHeader(file))?.header.generation;
  }

  /** The object file opened for reading, or undefined when there is none. */
  async #open(file: string): Promise<fsPromises.FileHandle | undefined> {
    try {
      return await this.#fs.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** An object's header line and data size, reading no further than the header. */
  async #readHeader(file: string): Promise<{ header: Header; size: number } | undefined> {
    const handle = await this.#open(file);
    if (!handle) return undefined;
    try {
      const stats = await handle.stat();
      const chunks: Buffer[] = [];
      for (let position = 0; position < stats.size;) {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, position);
        if (bytesRead === 0) break;
        const chunk = buffer.subarray(0, bytesRead);
        const newline = chunk.indexOf(0x0a);
        if (newline !== -1) {
          chunks.push(chunk.subarray(0, newline));
          const line = Buffer.concat(chunks);
          return { header: JSON.parse(line.toString('utf8')) as Header, size: stats.size - line.length - 1 };
        }
        chunks.push(chunk);
        position += bytesRead;
      }
      return { header: cutShortHeader(stats), size: 0 };
    } finally {
      await handle.close();
    }
  }

  /**
   * Runs `work` holding the object's lock. Should the lock go stale meanwhile, the call fails
   * with `LockLost` at once, and `stillHeld` (which `work` calls before it publishes anything)
   * stops the work from changing the object after another writer may have taken it over.
   */
  async #locked<T>(name: string, work: (file: string, stillHeld: () => void) => Promise<T>): Promise<T> {
    const file = this.#fileOf(name);
    await this.#folders();
    const lockTarget = join(this.#locks, createHash('sha256').update(name).digest('hex'));
    let lost: LockLost | undefined;
    let signalLost: (error: LockLost) => void = () => undefined;
    const compromised = new Promise<never>((_, reject) => (signalLost = reject));
    // The lock may go stale after the work is done and the race decided; nothing awaits it then.
    compromised.catch(() => undefined);
    const release = await lockfile.lock(lockTarget, {
      realpath: false,
      lockfilePath: `${lockTarget}.lock`,
      stale: this.#lockStaleMs,
      retries: { retries: 200, factor: 1.3, minTimeout: 2, maxTimeout: 50, randomize: true },
      // proper-lockfile's default throws from a timer, which would end the process.
      onCompromised: (error) => signalLost((lost = new LockLost(name, error))),
    });
    const working = work(file, () => {
      if (lost) throw lost;
    });
    try {
      return await Promise.race([working, compromised]);
    } finally {
      // Work that outlived its lock still ends, in a failure no one awaits any more.
      working.catch(() => undefined);
      // A lost lock is no longer ours to release.
      if (!lost) await release();
    }
  }

  #folders(): Promise<void> {
    return (this.#ready ??= Promise.all(
      [this.#objects, this.#tmp, this.#locks].map((dir) => this.#fs.mkdir(dir, { recursive: true })),
    )
      .then(() => this.#removeAbandoned())
      .catch((error: unknown) => {
        this.#ready = undefined;
        throw error;
      }));
  }

  /** Removes the temporary files of writers that crashed before publishing them. */
  async #removeAbandoned(): Promise<void> {
    const cutoff = this.#now() - abandonedAfterMs;
    await inBatches(await this.#fs.readdir(this.#tmp), 16, async (entry) => {
      const file = join(this.#tmp, entry);
      // Another process may remove it first, or publish and remove it.
      const stats = await this.#fs.stat(file).catch(() => undefined);
      if (stats && stats.mtimeMs < cutoff) await this.#fs.rm(file, { force: true });
    });
  }

  /** Removes every object (tests and demo resets). */
  async clear(): Promise<void> {
    await this.#fs.rm(this.root, { recursive: true, force: true });
    this.#ready = undefined;
  }
}
