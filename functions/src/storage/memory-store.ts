/**
 * The object store in this process's memory, for benchmarks that hold millions of objects and
 * for tests: the same semantics as the other drivers, held to the same conformance suite.
 *
 * Names are kept in order in chunks, as Python's sortedcontainers keeps a sorted list: each
 * chunk a sorted array of at most `maxChunk` names, the chunks in order, and beside them the
 * last name of each. A lookup binary-searches the last names for its chunk and then the chunk;
 * an insert splices into that one chunk, wherever in the order the name falls (the front as
 * cheaply as the back), and splits the chunk in two when it grows full; a delete drops a
 * chunk it empties (chunks are never merged, which only leaves a store that shrank with more
 * chunks than it needs). So a write costs O(log n + maxChunk) and a list O(log n + page
 * size), however many objects the store holds.
 *
 * An object's fields live in its chunk's parallel arrays rather than in an object of their
 * own, which keeps the cost per object near its name and metadata: the generation is an
 * unboxed double, empty bodies share one buffer, metadata is one JSON string (parsed per
 * answer, which also hands every caller its own copy), and `updated` is not stored but read
 * off the generation, which is the write's time in microseconds.
 */
import {
  checkObjectName,
  checkPageSize,
  infoAsDownloaded,
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

/** Names per chunk before it splits: large enough for few chunks, small enough that a splice is cheap. */
const maxChunk = 512;
const empty = Buffer.alloc(0);
const defaultContentType = 'application/octet-stream';

/** Objects in name order, each field in its own array, index for index. */
class Chunk {
  names: string[] = [];
  generations: number[] = [];
  bodies: Buffer[] = [];
  contentTypes: string[] = [];
  /** Custom metadata as JSON, or undefined for none. */
  metadata: (string | undefined)[] = [];

  insert(at: number, name: string, fields: Fields): void {
    this.names.splice(at, 0, name);
    this.generations.splice(at, 0, fields.generation);
    this.bodies.splice(at, 0, fields.body);
    this.contentTypes.splice(at, 0, fields.contentType);
    this.metadata.splice(at, 0, fields.metadata);
  }

  set(at: number, fields: Fields): void {
    this.generations[at] = fields.generation;
    this.bodies[at] = fields.body;
    this.contentTypes[at] = fields.contentType;
    this.metadata[at] = fields.metadata;
  }

  remove(at: number): void {
    this.names.splice(at, 1);
    this.generations.splice(at, 1);
    this.bodies.splice(at, 1);
    this.contentTypes.splice(at, 1);
    this.metadata.splice(at, 1);
  }

  /** Moves the objects from `at` on into a new chunk, which it returns. */
  splitAt(at: number): Chunk {
    const tail = new Chunk();
    tail.names = this.names.splice(at);
    tail.generations = this.generations.splice(at);
    tail.bodies = this.bodies.splice(at);
    tail.contentTypes = this.contentTypes.splice(at);
    tail.metadata = this.metadata.splice(at);
    return tail;
  }

  info(at: number): ObjectInfo {
    return infoOf(this.names[at]!, {
      generation: this.generations[at]!,
      body: this.bodies[at]!,
      contentType: this.contentTypes[at]!,
      metadata: this.metadata[at],
    });
  }
}

interface Fields {
  generation: number;
  body: Buffer;
  contentType: string;
  metadata: string | undefined;
}

/** The object's info; a writer passes the metadata it wrote, sparing a parse of what it just encoded. */
function infoOf(name: string, fields: Fields, written?: Record<string, string>): ObjectInfo {
  return {
    name,
    generation: String(fields.generation),
    size: fields.body.length,
    contentType: fields.contentType,
    metadata: written
      ? { ...written }
      : fields.metadata === undefined
        ? {}
        : (JSON.parse(fields.metadata) as Record<string, string>),
    updated: new Date(Math.floor(fields.generation / 1000)).toISOString(),
  };
}

/** Where a name is, or would go: chunk `chunk`, position `index`. */
interface Position {
  chunk: number;
  index: number;
  found: boolean;
}

/** The first index in the sorted `values` whose value is above `name` (or at it, when `inclusive`). */
function search(values: readonly string[], name: string, inclusive: boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < name || (!inclusive && values[middle] === name)) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class MemoryStore implements ObjectStore {
  readonly #chunks: Chunk[] = [];
  /** The last name of each chunk, for finding a name's chunk. */
  readonly #lastNames: string[] = [];
  #count = 0;
  #bytes = 0;
  #lastGeneration = 0;

  /** How many objects the store holds. */
  size(): number {
    return this.#count;
  }

  /** The objects' data bytes in all (without names or metadata). */
  bytes(): number {
    return this.#bytes;
  }

  async read(name: string): Promise<StoredObject> {
    const { chunk, index } = this.#find(name);
    const body = chunk.bodies[index]!;
    // A copy, so that a caller changing the bytes it read cannot change the object.
    return { data: body.length === 0 ? empty : Buffer.from(body), info: infoAsDownloaded(chunk.info(index)) };
  }

  async stat(name: string): Promise<ObjectInfo> {
    const { chunk, index } = this.#find(name);
    return chunk.info(index);
  }

  async create(name: string, data: Buffer | string, options: WriteOptions = {}): Promise<ObjectInfo> {
    checkObjectName(name);
    const position = this.#locate(name, true);
    if (position.found) throw new PreconditionFailed(name, '0');
    const fields = this.#fields(data, options);
    this.#insert(position, name, fields);
    this.#count += 1;
    this.#bytes += fields.body.length;
    return infoOf(name, fields, options.metadata);
  }

  async replace(name: string, data: Buffer | string, ifGeneration: string, options: WriteOptions = {}): Promise<ObjectInfo> {
    // Generation 0 means "must not exist", as in Cloud Storage.
    if (ifGeneration === '0') return this.create(name, data, options);
    checkObjectName(name);
    const { chunk: at, index, found } = this.#locate(name, true);
    const chunk = found ? this.#chunks[at]! : undefined;
    if (chunk === undefined || String(chunk.generations[index]) !== ifGeneration)
      throw new PreconditionFailed(name, ifGeneration);
    const fields = this.#fields(data, options);
    this.#bytes += fields.body.length - chunk.bodies[index]!.length;
    chunk.set(index, fields);
    return infoOf(name, fields, options.metadata);
  }

  async delete(name: string, options: { ifGeneration?: string } = {}): Promise<void> {
    const { chunk, index, position } = this.#find(name);
    if (options.ifGeneration !== undefined && String(chunk.generations[index]) !== options.ifGeneration)
      throw new PreconditionFailed(name, options.ifGeneration);
    this.#bytes -= chunk.bodies[index]!.length;
    this.#count -= 1;
    this.#remove(position);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ObjectPage> {
    const pageSize = checkPageSize(options.pageSize);
    const range = new ListRange(prefix, options);
    // Seek straight to the first name the page may hold: after the previous page, or at the start.
    const resume = range.after !== undefined && range.after >= range.start;
    let { chunk, index } = this.#locate(resume ? range.after! : range.start, !resume);
    const items: ObjectInfo[] = [];
    for (; chunk < this.#chunks.length; chunk++, index = 0) {
      const current = this.#chunks[chunk]!;
      for (; index < current.names.length; index++) {
        if (range.isPast(current.names[index]!)) return { items };
        if (items.length === pageSize) return { items, nextPageToken: ListRange.tokenAfter(items[pageSize - 1]!.name) };
        items.push(current.info(index));
      }
    }
    return { items };
  }

  #fields(data: Buffer | string, options: WriteOptions): Fields {
    // Copied, so that the caller changing its buffer later cannot change the object.
    const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
    const metadata = options.metadata && Object.keys(options.metadata).length > 0 ? JSON.stringify(options.metadata) : undefined;
    return {
      generation: this.#nextGeneration(),
      body: body.length === 0 ? empty : body,
      contentType: options.contentType ?? defaultContentType,
      metadata,
    };
  }

  /**
   * Microseconds since the epoch, past every generation this store gave before, so each is
   * unique and a name's generations only grow. Bursts of over a thousand writes a millisecond
   * run it ahead of the clock, and the `updated` read off it with them, a microsecond a write.
   */
  #nextGeneration(): number {
    this.#lastGeneration = Math.max(Date.now() * 1000, this.#lastGeneration + 1);
    return this.#lastGeneration;
  }

  /** Where the object is; `ObjectNotFound` if there is none. */
  #find(name: string): { chunk: Chunk; index: number; position: Position } {
    checkObjectName(name);
    const position = this.#locate(name, true);
    if (!position.found) throw new ObjectNotFound(name);
    return { chunk: this.#chunks[position.chunk]!, index: position.index, position };
  }

  /** Where the first name at `name` (or after it, when not `inclusive`) is, or would be inserted. */
  #locate(name: string, inclusive: boolean): Position {
    const chunk = search(this.#lastNames, name, inclusive);
    if (chunk === this.#chunks.length) {
      // After every name: the end of the last chunk, where an insert appends.
      const last = this.#chunks.length - 1;
      return last < 0
        ? { chunk: 0, index: 0, found: false }
        : { chunk: last, index: this.#chunks[last]!.names.length, found: false };
    }
    const names = this.#chunks[chunk]!.names;
    const index = search(names, name, inclusive);
    return { chunk, index, found: inclusive && names[index] === name };
  }

  #insert(position: Position, name: string, fields: Fields): void {
    if (this.#chunks.length === 0) {
      this.#chunks.push(new Chunk());
      this.#lastNames.push(name);
    }
    const chunk = this.#chunks[position.chunk]!;
    chunk.insert(position.index, name, fields);
    if (position.index === chunk.names.length - 1) this.#lastNames[position.chunk] = name;
    if (chunk.names.length > maxChunk) {
      const tail = chunk.splitAt(chunk.names.length >>> 1);
      this.#chunks.splice(position.chunk + 1, 0, tail);
      this.#lastNames.splice(position.chunk, 1, chunk.names[chunk.names.length - 1]!, tail.names[tail.names.length - 1]!);
    }
  }

  #remove({ chunk: at, index }: Position): void {
    const chunk = this.#chunks[at]!;
    chunk.remove(index);
    if (chunk.names.length === 0) {
      this.#chunks.splice(at, 1);
      this.#lastNames.splice(at, 1);
    } else if (index === chunk.names.length) {
      this.#lastNames[at] = chunk.names[index - 1]!;
    }
  }
}
