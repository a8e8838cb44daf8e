/**
 * An audit package's zip read whole, in one pass over the archive in memory: the central
 * directory (ZIP64 when the package has more than 65,535 files, as a year's has), then each
 * entry's bytes past its local header, inflated at once into a buffer of the size the directory
 * gives, checked against its size and CRC-32, and hashed (SHA-256). A year's package holds some
 * 93,000 files; read with a stream per file (as yauzl reads them), unzipping cost several times
 * the re-derivation itself. The writer's tests read its zips with yauzl, an independent reader.
 *
 * Two threads share the work (node:worker_threads, over shared memory): a helper inflates and
 * hashes the entries the caller only needs digests of (a year's OSCAL alone is 93 MB), then
 * both take the wanted ones a chunk at a time, so neither waits long for the other. Only the
 * wanted entries' bytes are kept.
 *
 * A zip that is not whole — truncated in download, or not a zip — is refused with a message that
 * says so, never read in part.
 */
import { hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { crc32, inflateRawSync } from 'node:zlib';

export class PackageUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackageUnreadable';
  }
}

export interface PackageContents {
  /** The wanted entries' bytes, by name. */
  files: Map<string, Buffer>;
  /** Every entry's SHA-256 (hex), by name. */
  digests: Map<string, string>;
}

const unreadable = (error: unknown) =>
  new PackageUnreadable(
    `The package is not a whole zip archive (truncated in download, or not a zip): ${(error as Error).message.replace(/\.+$/, '')}.`,
  );

/** A file read into memory both threads share (read there at once: a year's zip is some 60 MB). */
export function readArchive(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const archive = Buffer.from(new SharedArrayBuffer(fstatSync(fd).size));
    let read = 0;
    for (let got = -1; got !== 0 && read < archive.length; read += got)
      got = readSync(fd, archive, read, archive.length - read, read);
    return archive.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * The archive's entries, the `wanted` ones' bytes kept; every entry checked and hashed. The
 * helper thread sets to work at once, and this one joins in when `contents()` is called: the
 * caller may load what it needs meanwhile.
 */
export function readZip(
  archive: Buffer,
  wanted: (name: string) => boolean = () => true,
): { contents(): Promise<PackageContents> } {
  let entries: Entry[];
  try {
    entries = directoryOf(archive);
    checkInflatedTotal(entries);
  } catch (error) {
    throw unreadable(error);
  }
  const shared = sharedWork(archive, entries, wanted);
  const helper = startHelper(shared);
  // Its failure is thrown where contents() awaits it.
  helper.catch(() => undefined);
  return {
    async contents() {
      const failures = share(viewsOf(shared), new Int32Array(0));
      failures.push(...(await helper));
      // The first in the directory's order, whichever thread found it.
      const first = failures.sort(([a], [b]) => a - b)[0];
      if (first) throw unreadable(new Error(first[1]));
      return contentsOf(shared, entries);
    },
  };
}

interface Entry {
  name: string;
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeader: number;
  /** Where the name is in the central directory, and its length in bytes. */
  nameAt: number;
  nameLength: number;
}

const signatures = {
  end: 0x06054b50,
  zip64End: 0x06064b50,
  zip64Locator: 0x07064b50,
  central: 0x02014b50,
  local: 0x04034b50,
};
const endBytes = 22;
const maxComment = 0xffff;
/** The value a field holds when the ZIP64 record or extra field holds it instead. */
const in64 = { u16: 0xffff, u32: 0xffffffff };

/** Where the central directory is and how many entries it has. */
function directoryBounds(archive: Buffer): { count: number; start: number; size: number } {
  let end = -1;
  for (let at = archive.length - endBytes; at >= Math.max(0, archive.length - endBytes - maxComment); at--) {
    if (archive.readUInt32LE(at) === signatures.end) {
      end = at;
      break;
    }
  }
  if (end < 0)
    throw new Error('End of central directory record signature not found. Either not a zip file, or file is truncated');
  const count = archive.readUInt16LE(end + 10);
  const size = archive.readUInt32LE(end + 12);
  const start = archive.readUInt32LE(end + 16);
  if (count !== in64.u16 && size !== in64.u32 && start !== in64.u32) return { count, start, size };
  const locator = end - 20;
  if (locator < 0 || archive.readUInt32LE(locator) !== signatures.zip64Locator)
    throw new Error('The end record defers to a ZIP64 record, and there is no ZIP64 locator before it');
  const record = Number(archive.readBigUInt64LE(locator + 8));
  if (record + 56 > archive.length || archive.readUInt32LE(record) !== signatures.zip64End)
    throw new Error('There is no ZIP64 end of central directory record where its locator says');
  return {
    count: Number(archive.readBigUInt64LE(record + 32)),
    size: Number(archive.readBigUInt64LE(record + 40)),
    start: Number(archive.readBigUInt64LE(record + 48)),
  };
}

/** The entries of the central directory, in its order. */
function directoryOf(archive: Buffer): Entry[] {
  const { count, start, size } = directoryBounds(archive);
  if (start + size > archive.length) throw new Error('The central directory runs past the end of the archive');
  const entries: Entry[] = [];
  const names = new Set<string>();
  let at = start;
  for (let n = 0; n < count; n++) {
    if (at + 46 > start + size || archive.readUInt32LE(at) !== signatures.central)
      throw new Error(`Entry ${n} of ${count} is not in the central directory where it should be`);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const entry: Entry = {
      name: archive.toString('utf8', at + 46, at + 46 + nameLength),
      method: archive.readUInt16LE(at + 10),
      crc32: archive.readUInt32LE(at + 16),
      compressedSize: archive.readUInt32LE(at + 20),
      size: archive.readUInt32LE(at + 24),
      localHeader: archive.readUInt32LE(at + 42),
      nameAt: at + 46,
      nameLength,
    };
    if (entry.size === in64.u32 || entry.compressedSize === in64.u32 || entry.localHeader === in64.u32)
      readZip64Extra(archive.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry);
    checkName(entry.name);
    checkSizes(entry);
    if (names.has(entry.name)) throw new Error(`${entry.name} is in the archive twice`);
    names.add(entry.name);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  if (at !== start + size) throw new Error('The central directory is not the size its end record says');
  return entries;
}

/** The ZIP64 extra field's values, in its order, for the fields that defer to it. */
function readZip64Extra(extra: Buffer, entry: Entry): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      const next = () => {
        if (field + 8 > at + 4 + length) throw new Error(`${entry.name}'s ZIP64 extra field is too short`);
        const value = Number(extra.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (entry.size === in64.u32) entry.size = next();
      if (entry.compressedSize === in64.u32) entry.compressedSize = next();
      if (entry.localHeader === in64.u32) entry.localHeader = next();
      return;
    }
    at += 4 + length;
  }
  throw new Error(`${entry.name} defers its sizes to a ZIP64 extra field it does not have`);
}

/** A name no unzip tool would write outside the folder: relative, `/` between folders, no `..`. */
function checkName(name: string): void {
  if (name.includes('\\')) throw new Error(`invalid characters in fileName: ${name}`);
  if (/^[a-zA-Z]:/.test(name) || name.startsWith('/')) throw new Error(`absolute path: ${name}`);
  if (name.split('/').includes('..')) throw new Error(`invalid relative path: ${name}`);
}

/**
 * Deflate's largest ratio is about 1032 to 1 (a run of one byte): an entry that says it inflates
 * to more than its bytes can hold, or is stored with two sizes, is refused before anything is
 * made of the size it gives.
 */
const deflateRatio = 1032;

function checkSizes(entry: Entry): void {
  if (entry.method === 0 && entry.size !== entry.compressedSize)
    throw new Error(`${entry.name} is stored as it is, yet its sizes differ (${entry.compressedSize} and ${entry.size} bytes)`);
  if (entry.method === 8 && entry.size > entry.compressedSize * deflateRatio + 64)
    throw new Error(
      `${entry.name} says it inflates to ${entry.size} bytes, more than its ${entry.compressedSize} deflated bytes can`,
    );
}

/** The most the files of a package may inflate to in all: a year's is some 210 MB. */
export const maxInflatedBytes = 2 * 1024 ** 3;

function checkInflatedTotal(entries: readonly Entry[]): void {
  const total = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (total > maxInflatedBytes)
    throw new Error(`its files say they inflate to ${total} bytes in all, more than the verifier reads (${maxInflatedBytes})`);
}

const localHeaderBytes = 30;

/** A problem with one entry: its index in the directory, and what is wrong, said. */
type Failure = [number, string];

/**
 * The work the two threads share, in shared memory: the archive; per entry (`columns` numbers)
 * where its local header is, its sizes, CRC-32 and method, where its bytes go when wanted (-1:
 * hashed only; -2: a folder) and where its name is; each entry's SHA-256 (64 hex characters);
 * the entries only hashed; the wanted ones; and the next wanted one to take.
 */
interface Shared {
  archive: SharedArrayBuffer;
  table: SharedArrayBuffer;
  output: SharedArrayBuffer;
  digests: SharedArrayBuffer;
  hashedOnly: SharedArrayBuffer;
  wanted: SharedArrayBuffer;
  next: SharedArrayBuffer;
}
const columns = 8;
const hashedOnlyPlace = -1;
const folderPlace = -2;
/** How many wanted entries a thread takes at a time. */
const chunk = 64;

function sharedOf(bytes: Uint8Array): SharedArrayBuffer {
  const shared = new SharedArrayBuffer(bytes.length);
  new Uint8Array(shared).set(bytes);
  return shared;
}

function sharedWork(archive: Buffer, entries: readonly Entry[], wanted: (name: string) => boolean): Shared {
  const table = new Float64Array(new SharedArrayBuffer(entries.length * columns * 8));
  const hashedOnly: number[] = [];
  const wantedOnes: number[] = [];
  let outputSize = 0;
  entries.forEach((entry, n) => {
    let place = folderPlace;
    if (!entry.name.endsWith('/') && wanted(entry.name)) {
      place = outputSize;
      outputSize += entry.size;
      wantedOnes.push(n);
    } else if (!entry.name.endsWith('/')) {
      place = hashedOnlyPlace;
      hashedOnly.push(n);
    }
    const { localHeader, compressedSize, size, crc32: crc, method, nameAt, nameLength } = entry;
    table.set([localHeader, compressedSize, size, crc, method, place, nameAt, nameLength], n * columns);
  });
  return {
    archive: archive.buffer instanceof SharedArrayBuffer ? archive.buffer : sharedOf(archive),
    table: table.buffer as SharedArrayBuffer,
    output: new SharedArrayBuffer(outputSize),
    digests: new SharedArrayBuffer(entries.length * 64),
    hashedOnly: sharedOf(new Uint8Array(Int32Array.from(hashedOnly).buffer)),
    wanted: sharedOf(new Uint8Array(Int32Array.from(wantedOnes).buffer)),
    next: new SharedArrayBuffer(4),
  };
}

interface Views {
  archive: Buffer;
  table: Float64Array;
  output: Buffer;
  digests: Buffer;
  wanted: Int32Array;
  next: Int32Array;
}

const viewsOf = (shared: Shared): Views => ({
  archive: Buffer.from(shared.archive),
  table: new Float64Array(shared.table),
  output: Buffer.from(shared.output),
  digests: Buffer.from(shared.digests),
  wanted: new Int32Array(shared.wanted),
  next: new Int32Array(shared.next),
});

/** Entry `n` inflated, checked against its size and CRC-32, hashed, and put in its place when wanted. */
function work(views: Views, n: number): string | undefined {
  const { archive, table } = views;
  const [at, compressedSize, size, crc, method, place, nameAt, nameLength] = table.subarray(n * columns, (n + 1) * columns);
  const name = () => archive.toString('utf8', nameAt, nameAt! + nameLength!);
  if (at! + localHeaderBytes > archive.length || archive.readUInt32LE(at!) !== signatures.local)
    return `${name()} has no local file header where the directory says`;
  const start = at! + localHeaderBytes + archive.readUInt16LE(at! + 26) + archive.readUInt16LE(at! + 28);
  const end = start + compressedSize!;
  if (end > archive.length) return `${name()} runs past the end of the archive`;
  if (method !== 0 && method !== 8) return `${name()} is compressed with method ${method}, not deflate`;
  const stored = archive.subarray(start, end);
  let data: Buffer;
  try {
    // Inflated into one buffer of the size the directory gives (the default is 16 KiB pieces,
    // joined), and never past it: a bomb stops there.
    data =
      method === 8 ? inflateRawSync(stored, { chunkSize: Math.max(64, size!), maxOutputLength: Math.max(1, size!) }) : stored;
  } catch (error) {
    return (error as Error).message;
  }
  if (data.length !== size) return `${name()} inflates to ${data.length} bytes, not the ${size} the directory says`;
  if (crc32(data) !== crc) return `${name()} does not have the CRC-32 the directory says`;
  views.digests.write(hash('sha256', data), n * 64, 'latin1');
  if (place! >= 0) views.output.set(data, place);
  return undefined;
}

/** A thread's share: the entries given, then wanted ones, a chunk at a time, while any are left. */
function share(views: Views, first: Int32Array): Failure[] {
  const failures: Failure[] = [];
  const run = (n: number) => {
    const problem = work(views, n);
    if (problem !== undefined) failures.push([n, problem]);
  };
  for (const n of first) run(n);
  const { wanted, next } = views;
  for (let from = Atomics.add(next, 0, chunk); from < wanted.length; from = Atomics.add(next, 0, chunk))
    for (let k = from; k < Math.min(from + chunk, wanted.length); k++) run(wanted[k]!);
  return failures;
}

const helperRole = 'evident-package-zip';

/** The other thread: this module again, which takes the entries only hashed, then wanted ones. */
function startHelper(shared: Shared): Promise<Failure[]> {
  return new Promise((resolve, reject) => {
    const helper = new Worker(new URL(import.meta.url), { workerData: { role: helperRole, shared } });
    helper.once('message', resolve);
    helper.once('error', reject);
    helper.once('exit', (code) => reject(new Error(`the unzipping thread stopped (exit code ${code})`)));
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === helperRole) {
  const { shared } = workerData as { shared: Shared };
  parentPort!.postMessage(share(viewsOf(shared), new Int32Array(shared.hashedOnly)));
}

function contentsOf(shared: Shared, entries: readonly Entry[]): PackageContents {
  const { table, digests } = viewsOf(shared);
  const contents: PackageContents = { files: new Map(), digests: new Map() };
  entries.forEach((entry, n) => {
    const place = table[n * columns + 5]!;
    if (place === folderPlace) return;
    contents.digests.set(entry.name, digests.toString('latin1', n * 64, (n + 1) * 64));
    if (place >= 0) contents.files.set(entry.name, Buffer.from(shared.output, place, entry.size));
  });
  return contents;
}
