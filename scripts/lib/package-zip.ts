/**
 * An audit package's zip read whole into its files, with yauzl (a reader independent of the
 * writer). A zip that is not whole — truncated in download, or not a zip — is refused with a
 * message that says so, never read in part.
 */
import yauzl from 'yauzl';

export class PackageUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackageUnreadable';
  }
}

export async function filesOfZip(archive: Buffer): Promise<Map<string, Buffer>> {
  try {
    return await readZip(archive);
  } catch (error) {
    throw new PackageUnreadable(
      `The package is not a whole zip archive (truncated in download, or not a zip): ${(error as Error).message.replace(/\.+$/, '')}.`,
    );
  }
}

async function readZip(archive: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(archive, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return files;
}
