/** Reads a zip archive whole with yauzl (an independent reader, not the writer's own library). */
import yauzl from 'yauzl';

export interface Unzipped {
  /** The entries' paths, in the archive's order. */
  paths: string[];
  files: Map<string, Buffer>;
  /** Each entry's last-modified time as the archive records it. */
  modified: Map<string, Date>;
}

export async function unzip(archive: Buffer): Promise<Unzipped> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(archive, { lazyEntries: true, strictFileNames: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const unzipped: Unzipped = { paths: [], files: new Map(), modified: new Map() };
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          unzipped.paths.push(entry.fileName);
          unzipped.files.set(entry.fileName, Buffer.concat(chunks));
          // Evident writes DOS times in UTC.
          unzipped.modified.set(entry.fileName, entry.getLastModDate({ timezone: 'UTC' }));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return unzipped;
}

export const utf8 = (data: Buffer | undefined) => data?.toString('utf8') ?? '';
