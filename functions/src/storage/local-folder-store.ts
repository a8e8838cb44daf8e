/**
 * The object store in a local folder, for the emulators (the Storage emulator needs Java 21
 * and downloads these machines do not have). It keeps Cloud Storage's semantics across
 * processes — the functions emulator runs each function in its own. Every object file is
 * written in full to a temporary file first and then published in one step, so readers never
 * see half an object: a create links it in place (`link` fails if the name is taken), a
 * replace renames it over the old one while holding a per-object lock (proper-lockfile),
 * which deletes hold too.
 *
 * Layout: `objects/` holds one file per object, a JSON header line then the bytes; name
 * segments become directories `<segment>.d/` and the last one a file `<segment>.o`, so `a`
 * and `a/b` can both exist. `tmp/` and `locks/` hold work in progress.
 */
import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import {
  checkObjectName,
  checkPageSize,
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

const encodeSegment = (segment: string) => encodeURIComponent(segment).replace(/\./g, '%2E');
const decodeSegment = (segment: string) => decodeURIComponent(segment);

export class LocalFolderStore implements ObjectStore {
  readonly #objects: string;
  readonly #tmp: string;
  readonly #locks: string;
  #ready: Promise<void> | undefined;
  #lastGeneration = 0;

  readonly root: string;

  constructor(root: string) {
    this.root = root;
    this.#objects = join(root, 'objects');
    this.#tmp = join(root, 'tmp');
    this.#locks = join(root, 'locks');
  }

  #fileOf(name: string): string {
    checkObjectName(name);
    const segments = name.split('/').map(encodeSegment);
    const last = segments.pop()!;
    return join(this.#objects, ...segments.map((segment) => `${segment}.d`), `${last}.o`);
  }

  async read(name: string): Promise<StoredObject> {
    const content = await this.#readFile(name);
    const newline = content.indexOf(0x0a);
    const header = JSON.parse(content.subarray(0, newline).toString('utf8')) as Header;
    const data = content.subarray(newline + 1);
    return { data, info: { name, size: data.length, ...header } };
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
      await mkdir(dirname(file), { recursive: true });
      await link(staged.temporary, file);
      return staged.info;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new PreconditionFailed(name, '0');
      throw error;
    } finally {
      // The outcome is decided by now; a temporary file left behind would only be litter.
      await unlink(staged.temporary).catch(() => undefined);
    }
  }

  async replace(name: string, data: Buffer | string, ifGeneration: string, options: WriteOptions = {}): Promise<ObjectInfo> {
    // Generation 0 means "must not exist", as in Cloud Storage: that is a create, and only the
    // create path may bring a missing object into being (see `create`).
    if (ifGeneration === '0') return this.create(name, data, options);
    return this.#locked(name, async (file) => {
      const current = await this.#currentGeneration(file);
      if (current !== ifGeneration) throw new PreconditionFailed(name, ifGeneration);
      const staged = await this.#stage(name, data, current, options);
      await rename(staged.temporary, file);
      return staged.info;
    });
  }

  async delete(name: string, options: { ifGeneration?: string } = {}): Promise<void> {
    await this.#locked(name, async (file) => {
      const current = await this.#currentGeneration(file);
      if (current === undefined) throw new ObjectNotFound(name);
      if (options.ifGeneration !== undefined && options.ifGeneration !== current)
        throw new PreconditionFailed(name, options.ifGeneration);
      await unlink(file);
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
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
      throw error;
    }
    const children: { name: string; folder: string | undefined }[] = [];
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name.endsWith('.d'))
        children.push({ name: `${namePrefix}${decodeSegment(entry.name.slice(0, -2))}/`, folder: entry.name });
      else if (entry.isFile() && entry.name.endsWith('.o'))
        children.push({ name: `${namePrefix}${decodeSegment(entry.name.slice(0, -2))}`, folder: undefined });
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      if (range.isPast(child.name)) return false;
      if (child.folder !== undefined) {
        if (range.mayInclude(child.name) && !(await this.#walk(join(dir, child.folder), child.name, range, limit, names)))
          return false;
      } else if (range.includes(child.name)) {
        names.push(child.name);
        if (names.length >= limit) return false;
      }
    }
    return true;
  }

  /** Writes the object's next generation to a temporary file, ready to be published. */
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
    await writeFile(temporary, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), bytes]));
    return { temporary, info: { name, size: bytes.length, ...header } };
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

  /** An object's header line and data size, reading no further than the header. */
  async #readHeader(file: string): Promise<{ header: Header; size: number } | undefined> {
    let handle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const { size: fileSize } = await handle.stat();
      const chunks: Buffer[] = [];
      for (let position = 0; position < fileSize;) {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, position);
        if (bytesRead === 0) break;
        const chunk = buffer.subarray(0, bytesRead);
        const newline = chunk.indexOf(0x0a);
        if (newline !== -1) {
          chunks.push(chunk.subarray(0, newline));
          const line = Buffer.concat(chunks);
          return { header: JSON.parse(line.toString('utf8')) as Header, size: fileSize - line.length - 1 };
        }
        chunks.push(chunk);
        position += bytesRead;
      }
      throw new Error(`${file} has no header line`);
    } finally {
      await handle.close();
    }
  }

  async #readFile(name: string): Promise<Buffer> {
    try {
      return await readFile(this.#fileOf(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFound(name);
      throw error;
    }
  }

  async #locked<T>(name: string, work: (file: string) => Promise<T>): Promise<T> {
    const file = this.#fileOf(name);
    await this.#folders();
    const lockTarget = join(this.#locks, createHash('sha256').update(name).digest('hex'));
    const release = await lockfile.lock(lockTarget, {
      realpath: false,
      lockfilePath: `${lockTarget}.lock`,
      stale: 10_000,
      retries: { retries: 200, factor: 1.3, minTimeout: 2, maxTimeout: 50, randomize: true },
    });
    try {
      return await work(file);
    } finally {
      await release();
    }
  }

  #folders(): Promise<void> {
    return (this.#ready ??= Promise.all(
      [this.#objects, this.#tmp, this.#locks].map((dir) => mkdir(dir, { recursive: true })),
    ).then(() => undefined));
  }

  /** Removes every object (tests and demo resets). */
  async clear(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
    this.#ready = undefined;
  }
}
