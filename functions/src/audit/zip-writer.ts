/**
 * A zip archive made while it is sent: files go in one at a time as the reader takes the bytes,
 * so a package of any size holds only the file being written (and the next being read) in
 * memory. Each file's SHA-256 and size are noted as it goes in; the closing files (the manifest)
 * are made from those notes once every other file is in.
 *
 * The archive is written here rather than by a zip library: a library keeps an object per entry
 * for the central directory (zip-stream kept some 400 bytes of objects a file, 40 MB for a
 * year's 93,000 files, and wrote the directory as twenty small writes a file), where the
 * directory's own bytes — about a hundred a file — are all it takes. Each entry's directory
 * record is written into one growing buffer as the entry goes in, and the buffer is sent at the
 * end. Every file's bytes are in memory when it goes in, so its sizes and CRC-32 are known
 * before its local header: no data descriptors. ZIP64 records are written past 65,535 files or
 * 4 GiB, as a year's package needs.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { crc32, deflateRaw, deflateRawSync } from 'node:zlib';

export interface ArchiveFile {
  /** The path in the archive, with `/` between folders. */
  path: string;
  data: Buffer;
  modified: Date;
  /** False for data that is compressed already (images, PDFs): deflating it again only costs time. */
  compress?: boolean;
}

/** What the archive holds of a file, for a manifest. */
export interface ArchivedFile {
  path: string;
  size: number;
  sha256: string;
}

export const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * A name given by a person (an uploaded file's), made a safe file name in any unzip tool: no
 * folder separators, control characters or what Windows refuses (`<>:"|?*`, a trailing dot or
 * space), and never `.` or `..`.
 */
export function archiveName(name: string): string {
  // The trailing run is tried from its first character only (not again from each of them).
  const safe = name.replace(/[\p{Cc}<>:"/\\|?*]/gu, '_').replace(/(?<![. ])[. ]+$/, '');
  return safe === '' || safe === '.' || safe === '..' ? 'file' : safe;
}

/**
 * The archive of `files`, then of `closing(archived)`. A failure of `files` destroys the stream
 * with its error; a reader that stops reading holds the files back (the stream emits `held`
 * each time the writer waits for it), and one that destroys the stream stops them being made.
 */
export function zipStream(
  files: AsyncIterable<ArchiveFile>,
  closing: (archived: ArchivedFile[]) => Iterable<ArchiveFile>,
): Readable {
  let wake: (() => void) | undefined;
  const output = new Readable({
    read: () => wake?.(),
    destroy: (error, done) => {
      wake?.();
      done(error);
    },
  });
  const archived: ArchivedFile[] = [];
  const archive = new ZipArchive();

  /** Resolves once the reader has room for more, or the stream has been destroyed. */
  async function send(chunks: readonly Buffer[]): Promise<void> {
    let room = true;
    for (const chunk of chunks) room = output.push(chunk);
    if (room || output.destroyed) return;
    // Observable, so a test can tell the writer waits rather than sleep and hope it does.
    output.emit('held');
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }

  async function feed() {
    for await (const file of files) {
      if (output.destroyed) return;
      archived.push({ path: file.path, size: file.data.length, sha256: sha256Hex(file.data) });
      await send(await archive.entry(file));
      if (output.destroyed) return;
    }
    for (const file of closing(archived)) {
      await send(await archive.entry(file));
      if (output.destroyed) return;
    }
    await send(archive.end());
    output.push(null);
  }
  feed().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}

const deflateRawAsync = promisify(deflateRaw);
/** Files deflated on the thread pool from this size (a large attachment), smaller ones at once. */
const deflateAsyncFrom = 256 * 1024;
const level = 6;

const u32Max = 0xffffffff;
const u16Max = 0xffff;
/** Made by Unix (so unzip applies the mode), version 4.5 (ZIP64). */
const madeBy = (3 << 8) | 45;
const utf8Names = 0x0800;
/** A regular file, rw-r--r--, in the high half of the external attributes. */
const fileAttributes = (0o100644 << 16) >>> 0;

/** The DOS date and time of an instant, in UTC (1980 to 2043, clamped). */
function dosTime(date: Date): number {
  const year = date.getUTCFullYear();
  if (year < 1980) return 0x00210000; // 1980-01-01 00:00:00
  if (year >= 2044) return 0x7f9fbf7d; // 2043-12-31 23:59:58
  return (
    (((year - 1980) << 25) |
      ((date.getUTCMonth() + 1) << 21) |
      (date.getUTCDate() << 16) |
      (date.getUTCHours() << 11) |
      (date.getUTCMinutes() << 5) |
      (date.getUTCSeconds() >> 1)) >>>
    0
  );
}

/** A buffer that grows by doubling: the central directory as it is written. */
class GrowingBuffer {
  #buffer = Buffer.allocUnsafe(64 * 1024);
  length = 0;

  /** Room for `bytes` more, at the returned offset. */
  reserve(bytes: number): number {
    if (this.length + bytes > this.#buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.length + bytes));
      this.#buffer.copy(larger, 0, 0, this.length);
      this.#buffer = larger;
    }
    const at = this.length;
    this.length += bytes;
    return at;
  }

  get buffer(): Buffer {
    return this.#buffer;
  }

  /** The bytes written, in pieces of at most `size` (views, not copies). */
  pieces(size: number): Buffer[] {
    const pieces: Buffer[] = [];
    for (let at = 0; at < this.length; at += size) pieces.push(this.#buffer.subarray(at, Math.min(at + size, this.length)));
    return pieces;
  }
}

/** The bytes of a zip archive, entry by entry, then its central directory. */
class ZipArchive {
  readonly #directory = new GrowingBuffer();
  #entries = 0;
  #offset = 0;

  /** The entry's local header and data. */
  async entry(file: ArchiveFile): Promise<Buffer[]> {
    const { data } = file;
    const crc = crc32(data);
    let stored = data;
    let method = 0;
    if (file.compress !== false && data.length > 0) {
      const deflated = data.length >= deflateAsyncFrom ? await deflateRawAsync(data, { level }) : deflateRawSync(data, { level });
      // Data that does not shrink is kept as it is.
      if (deflated.length < data.length) {
        stored = deflated;
        method = 8;
      }
    }
    const name = Buffer.from(file.path, 'utf8');
    const time = dosTime(file.modified);
    const big = data.length >= u32Max || stored.length >= u32Max;
    const header = Buffer.alloc(30 + name.length + (big ? 20 : 0));
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(big ? 45 : 20, 4);
    header.writeUInt16LE(utf8Names, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt32LE(time, 10);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(big ? u32Max : stored.length, 18);
    header.writeUInt32LE(big ? u32Max : data.length, 22);
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(big ? 20 : 0, 28);
    name.copy(header, 30);
    if (big) {
      header.writeUInt16LE(0x0001, 30 + name.length);
      header.writeUInt16LE(16, 32 + name.length);
      header.writeBigUInt64LE(BigInt(data.length), 34 + name.length);
      header.writeBigUInt64LE(BigInt(stored.length), 42 + name.length);
    }
    this.#record({ name, method, time, crc, compressed: stored.length, size: data.length, offset: this.#offset });
    this.#offset += header.length + stored.length;
    this.#entries += 1;
    // A small file goes as one chunk with its header.
    return stored.length < 64 * 1024 ? [Buffer.concat([header, stored])] : [header, stored];
  }

  /** The entry's central directory record, with a ZIP64 extra field for what does not fit 32 bits. */
  #record(entry: { name: Buffer; method: number; time: number; crc: number; compressed: number; size: number; offset: number }) {
    const wide = [entry.size, entry.compressed, entry.offset].filter((value) => value >= u32Max);
    const extra = wide.length > 0 ? 4 + 8 * wide.length : 0;
    const directory = this.#directory;
    const at = directory.reserve(46 + entry.name.length + extra);
    const b = directory.buffer;
    b.writeUInt32LE(0x02014b50, at);
    b.writeUInt16LE(madeBy, at + 4);
    b.writeUInt16LE(extra > 0 ? 45 : 20, at + 6);
    b.writeUInt16LE(utf8Names, at + 8);
    b.writeUInt16LE(entry.method, at + 10);
    b.writeUInt32LE(entry.time, at + 12);
    b.writeUInt32LE(entry.crc, at + 16);
    b.writeUInt32LE(Math.min(entry.compressed, u32Max), at + 20);
    b.writeUInt32LE(Math.min(entry.size, u32Max), at + 24);
    b.writeUInt16LE(entry.name.length, at + 28);
    b.writeUInt16LE(extra, at + 30);
    b.writeUInt16LE(0, at + 32); // comment
    b.writeUInt16LE(0, at + 34); // disk
    b.writeUInt16LE(0, at + 36); // internal attributes
    b.writeUInt32LE(fileAttributes, at + 38);
    b.writeUInt32LE(Math.min(entry.offset, u32Max), at + 42);
    entry.name.copy(b, at + 46);
    if (extra > 0) {
      let field = at + 46 + entry.name.length;
      b.writeUInt16LE(0x0001, field);
      b.writeUInt16LE(extra - 4, field + 2);
      field += 4;
      // In the order the format gives: size, compressed size, offset, each only when it overflows.
      for (const value of wide) {
        b.writeBigUInt64LE(BigInt(value), field);
        field += 8;
      }
    }
  }

  /** The central directory and the records that end the archive (ZIP64 ones when needed). */
  end(): Buffer[] {
    const start = this.#offset;
    const size = this.#directory.length;
    const count = this.#entries;
    const zip64 = count >= u16Max || size >= u32Max || start >= u32Max;
    const tail = Buffer.alloc((zip64 ? 56 + 20 : 0) + 22);
    let at = 0;
    if (zip64) {
      tail.writeUInt32LE(0x06064b50, 0);
      tail.writeBigUInt64LE(44n, 4); // the record's size after this field
      tail.writeUInt16LE(madeBy, 12);
      tail.writeUInt16LE(45, 14);
      tail.writeUInt32LE(0, 16); // this disk
      tail.writeUInt32LE(0, 20); // the directory's disk
      tail.writeBigUInt64LE(BigInt(count), 24);
      tail.writeBigUInt64LE(BigInt(count), 32);
      tail.writeBigUInt64LE(BigInt(size), 40);
      tail.writeBigUInt64LE(BigInt(start), 48);
      tail.writeUInt32LE(0x07064b50, 56);
      tail.writeUInt32LE(0, 60);
      tail.writeBigUInt64LE(BigInt(start + size), 64); // where the ZIP64 end record is
      tail.writeUInt32LE(1, 72); // disks
      at = 76;
    }
    tail.writeUInt32LE(0x06054b50, at);
    tail.writeUInt16LE(0, at + 4);
    tail.writeUInt16LE(0, at + 6);
    tail.writeUInt16LE(zip64 ? u16Max : count, at + 8);
    tail.writeUInt16LE(zip64 ? u16Max : count, at + 10);
    tail.writeUInt32LE(zip64 ? u32Max : size, at + 12);
    tail.writeUInt32LE(zip64 ? u32Max : start, at + 16);
    tail.writeUInt16LE(0, at + 20); // comment
    return [...this.#directory.pieces(1024 * 1024), tail];
  }
}
