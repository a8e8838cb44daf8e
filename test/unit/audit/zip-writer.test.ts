/**
 * The streaming zip writer: a reader that does not read holds the files back (only a few are
 * made ahead), a full read gives every file and the closing ones with their digests, a reader
 * that stops ends the files' generator, and a source that fails destroys the stream.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { archiveName, zipStream, type ArchiveFile } from '../../../functions/src/audit/zip-writer.ts';
import { unzip, utf8 } from '../../support/unzip.ts';

const modified = new Date('2026-11-24T10:00:00Z');
const megabyte = 1024 * 1024;

/** `count` files of incompressible bytes, counting how many were made, and settling `closed` when the generator is. */
function source(count: number, size: number) {
  const state = { made: 0 };
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  async function* files(): AsyncGenerator<ArchiveFile> {
    try {
      for (let index = 0; index < count; index += 1) {
        state.made += 1;
        yield { path: `files/${index}.bin`, data: randomBytes(size), modified, compress: false };
      }
    } finally {
      markClosed();
    }
  }
  return { state, closed, files: files() };
}

describe('a zip made while it is read', () => {
  it('makes only a few files ahead of a reader that does not read, then waits for it', async () => {
    const { state, files } = source(40, megabyte);
    const stream = zipStream(files, () => []);
    // The writer says when it waits for the reader; until the reader reads, nothing else is made.
    await once(stream, 'held');
    expect(state.made).toBeLessThanOrEqual(4);
    expect(stream.readableLength).toBeGreaterThan(0);
    stream.destroy();
  });

  it('gives every file, then the closing files made from their sizes and digests', async () => {
    const { files } = source(5, 1000);
    const stream = zipStream(files, (archived) => [
      {
        path: 'digests.txt',
        data: Buffer.from(archived.map((file) => `${file.sha256} ${file.size} ${file.path}\n`).join('')),
        modified,
      },
    ]);
    const zip = await unzip(await buffer(stream));
    expect(zip.paths).toEqual(['files/0.bin', 'files/1.bin', 'files/2.bin', 'files/3.bin', 'files/4.bin', 'digests.txt']);
    expect(utf8(zip.files.get('digests.txt'))).toBe(
      zip.paths
        .slice(0, 5)
        .map((path) => `${createHash('sha256').update(zip.files.get(path)!).digest('hex')} 1000 ${path}\n`)
        .join(''),
    );
  });

  it('closes the files’ generator when the reader destroys the stream', async () => {
    const { state, closed, files } = source(40, megabyte);
    const stream = zipStream(files, () => []);
    stream.once('data', () => stream.destroy());
    stream.resume();
    await closed;
    expect(state.made).toBeLessThan(10);
  });

  it('destroys the stream with the error of a source that fails', async () => {
    async function* failing(): AsyncGenerator<ArchiveFile> {
      yield { path: 'first.txt', data: Buffer.from('first'), modified };
      throw new Error('the store is down');
    }
    await expect(buffer(zipStream(failing(), () => []))).rejects.toThrow('the store is down');
  });
});

describe('names people gave, as file names in the archive', () => {
  it.each([
    ['minutes.pdf', 'minutes.pdf'],
    ['../../etc/passwd', '.._.._etc_passwd'],
    ['C:\\board\\minutes.txt', 'C__board_minutes.txt'],
    ['what? <draft> | "final".txt', 'what_ _draft_ _ _final_.txt'],
    ['tab\there', 'tab_here'],
    ['trailing dots...', 'trailing dots'],
    ['..', 'file'],
    ['', 'file'],
  ])('keeps %j as %j', (name, kept) => {
    expect(archiveName(name)).toBe(kept);
  });
});
