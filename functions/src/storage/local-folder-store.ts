/**
 * The object store in a local folder, for the emulators (the Storage emulator needs Java 21
 * and downloads these machines do not have). It keeps Cloud Storage's semantics across
 * processes — the functions emulator runs each function in its own — by taking a per-object
 * lock (proper-lockfile) around every write and writing through a temporary file and an
 * atomic rename, so readers never see half an object.
 *
 * Layout: `objects/` holds one file per object, a JSON header line then the bytes; name
 * segments become directories `<segment>.d/` and the last one a file `<segment>.o`, so `a`
 * and `a/b` can both exist. `tmp/` and `locks/` hold work in progress.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
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

  create(name: string, data: Buffer | string, options: WriteOptions = {}): Promise<ObjectInfo> {
    return this.#write(name, data, '0', options);
  }

  replace(name: string, data: Buffer | string, ifGeneration: string, options: WriteOptions = {}): Promise<ObjectInfo> {
    return this.#write(name, data, ifGeneration, options);
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
    const after = options.pageToken ? Buffer.from(options.pageToken, 'base64url').toString('utf8') : undefined;
    const names: string[] = [];
    await this.#walk(this.#objects, '', prefix, names);
    const matching = names.filter((name) => name.startsWith(prefix) && (after === undefined || name > after)).sort();
    const page = matching.slice(0, pageSize);
    const items: ObjectInfo[] = [];
    for (const name of page) {
      try {
        items.push(await this.stat(name));
      } catch (error) {
        if (!(error instanceof ObjectNotFound)) throw error; // deleted while listing
      }
    }
    const result: ObjectPage = { items };
    if (matching.length > pageSize) result.nextPageToken = Buffer.from(page[page.length - 1]!, 'utf8').toString('base64url');
    return result;
  }

  /** Collects object names under `dir`, descending only into directories that can hold `prefix`. */
  async #walk(dir: string, namePrefix: string, prefix: string, names: string[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name.endsWith('.d')) {
        const path = `${namePrefix}${decodeSegment(entry.name.slice(0, -2))}/`;
        if (path.startsWith(prefix) || prefix.startsWith(path)) await this.#walk(join(dir, entry.name), path, prefix, names);
      } else if (entry.isFile() && entry.name.endsWith('.o')) {
        names.push(`${namePrefix}${decodeSegment(entry.name.slice(0, -2))}`);
      }
    }
  }

  async #write(name: string, data: Buffer | string, ifGeneration: string, options: WriteOptions): Promise<ObjectInfo> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    return this.#locked(name, async (file) => {
      const current = await this.#currentGeneration(file);
      if ((current ?? '0') !== ifGeneration) throw new PreconditionFailed(name, ifGeneration);
      const header: Header = {
        generation: this.#nextGeneration(current),
        contentType: options.contentType ?? 'application/octet-stream',
        metadata: { ...options.metadata },
        updated: new Date().toISOString(),
      };
      const temporary = join(this.#tmp, randomUUID());
      await writeFile(temporary, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), bytes]));
      await mkdir(join(file, '..'), { recursive: true });
      await rename(temporary, file);
      return { name, size: bytes.length, ...header };
    });
  }

  /** Microseconds since the epoch, and always past the object's previous generation. */
  #nextGeneration(current: string | undefined): string {
    const now = Date.now() * 1000;
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
    await (this.#ready ??= Promise.all(
      [this.#objects, this.#tmp, this.#locks].map((dir) => mkdir(dir, { recursive: true })),
    ).then(() => undefined));
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

  /** Removes every object (tests and demo resets). */
  async clear(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
    this.#ready = undefined;
  }
}
