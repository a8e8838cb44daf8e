/**
 * A zip archive made while it is sent: files go in one at a time as the reader takes the bytes,
 * so a package of any size holds only the file being written (and the next being read) in
 * memory. Each file's SHA-256 and size are noted as it goes in; the closing files (the manifest)
 * are made from those notes once every other file is in. zip-stream (archiver's writer) writes
 * the archive, in time linear in its files, switching to ZIP64 past 4 GiB or 65,535 files.
 */
import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import ZipStream from 'zip-stream';

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
export function zipStream(files: AsyncIterable<ArchiveFile>, closing: (archived: ArchivedFile[]) => ArchiveFile[]): Readable {
  const zip = new ZipStream({ zlib: { level: 6 } });
  // zip-stream is built on the readable-stream package; the HTTP core sends Node's own streams.
  const output = new PassThrough();
  zip.pipe(output);
  zip.on('error', (error: Error) => output.destroy(error));
  const closed = new Promise<void>((resolve) => output.once('close', resolve));
  output.once('close', () => zip.destroy());
  const archived: ArchivedFile[] = [];

  /**
   * Resolves once the file is in the archive and the archive has room for more: its writes wait
   * while the reader has not taken what came before. Or once the output has closed.
   */
  async function add(file: ArchiveFile): Promise<void> {
    const written = new Promise<void>((resolve, reject) =>
      zip.entry(file.data, { name: file.path, date: file.modified, store: file.compress === false }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    await Promise.race([written, closed]);
    if (zip.writableNeedDrain) {
      // Observable, so a test can tell the writer waits rather than sleep and hope it does.
      output.emit('held');
      await Promise.race([new Promise((resolve) => zip.once('drain', resolve)), closed]);
    }
  }

  async function feed() {
    for await (const file of files) {
      if (output.destroyed) return;
      archived.push({ path: file.path, size: file.data.length, sha256: sha256Hex(file.data) });
      await add(file);
    }
    if (output.destroyed) return;
    for (const file of closing(archived)) await add(file);
    finalizeGathered(zip);
  }
  feed().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}

/**
 * Finalizes the archive with its central directory written in one piece. zip-stream writes it
 * all at once, some twenty small writes a file, and the stream holds each write as an object of
 * its own until the reader takes it: a year's package of 93,000 files held 700,000 of them, some
 * 700 MiB, where the directory is 11 MiB. Its writes are copied into one growing buffer instead
 * (keeping the byte count zip-stream keeps in `offset`, which the directory's end record is made
 * from) and written as one chunk when it ends the stream.
 */
function finalizeGathered(zip: ZipStream): void {
  const counted = zip as unknown as { offset: number };
  const { write, end } = zip;
  let gathered = Buffer.allocUnsafe(1024 * 1024);
  let used = 0;
  let counts = 0;
  zip.write = ((chunk: Buffer | string) => {
    // Names without the UTF-8 flag come as strings, which the stream would write as UTF-8.
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (used + bytes.length > gathered.length) {
      const larger = Buffer.allocUnsafe(Math.max(gathered.length * 2, used + bytes.length));
      gathered.copy(larger, 0, 0, used);
      gathered = larger;
    }
    used += bytes.copy(gathered, used);
    counted.offset += chunk.length;
    counts += chunk.length;
    return true;
  }) as typeof zip.write;
  zip.end = ((...args: Parameters<typeof zip.end>) => {
    zip.write = write;
    zip.end = end;
    // Its own write counts the bytes again.
    counted.offset -= counts;
    zip.write(gathered.subarray(0, used));
    return zip.end(...args);
  }) as typeof zip.end;
  zip.finalize();
}
