/**
 * An audit package's zip read whole into its files, in one pass over the archive in memory: the
 * central directory (ZIP64 when the package has more than 65,535 files, as a year's has), then
 * each entry's bytes past its local header, inflated at once into a buffer of the size the
 * directory gives, and checked against its size and CRC-32. A year's package holds some 93,000
 * files; read with a stream per file (as yauzl reads them), unzipping cost several times the
 * re-derivation itself. The writer's tests read its zips with yauzl, an independent reader.
 *
 * A zip that is not whole — truncated in download, or not a zip — is refused with a message that
 * says so, never read in part.
 */
import { crc32, inflateRawSync } from 'node:zlib';

export class PackageUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackageUnreadable';
  }
}

export async function filesOfZip(archive: Buffer): Promise<Map<string, Buffer>> {
  try {
    return filesOf(archive, directoryOf(archive));
  } catch (error) {
    throw new PackageUnreadable(
      `The package is not a whole zip archive (truncated in download, or not a zip): ${(error as Error).message.replace(/\.+$/, '')}.`,
    );
  }
}

interface Entry {
  name: string;
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeader: number;
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
    };
    if (entry.size === in64.u32 || entry.compressedSize === in64.u32 || entry.localHeader === in64.u32)
      readZip64Extra(archive.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry);
    checkName(entry.name);
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

const localHeaderBytes = 30;

function filesOf(archive: Buffer, entries: readonly Entry[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const at = entry.localHeader;
    if (at + localHeaderBytes > archive.length || archive.readUInt32LE(at) !== signatures.local)
      throw new Error(`${entry.name} has no local file header where the directory says`);
    const start = at + localHeaderBytes + archive.readUInt16LE(at + 26) + archive.readUInt16LE(at + 28);
    const end = start + entry.compressedSize;
    if (end > archive.length) throw new Error(`${entry.name} runs past the end of the archive`);
    const stored = archive.subarray(start, end);
    if (entry.method !== 0 && entry.method !== 8)
      throw new Error(`${entry.name} is compressed with method ${entry.method}, not deflate`);
    // Inflated into one buffer of the size the directory gives (the default is 16 KiB pieces,
    // joined), and never past it: a bomb stops there.
    const sized = { chunkSize: Math.max(64, entry.size), maxOutputLength: Math.max(1, entry.size) };
    const data = entry.method === 8 ? inflateRawSync(stored, sized) : stored;
    if (data.length !== entry.size)
      throw new Error(`${entry.name} inflates to ${data.length} bytes, not the ${entry.size} the directory says`);
    if (crc32(data) !== entry.crc32) throw new Error(`${entry.name} does not have the CRC-32 the directory says`);
    if (files.has(entry.name)) throw new Error(`${entry.name} is in the archive twice`);
    files.set(entry.name, data);
  }
  return files;
}
