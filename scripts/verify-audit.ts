/**
 * Verifies an audit package: `npm run verify-audit -- package.zip [--key published-key.pem]`.
 * Checks the manifest's signature, every file's SHA-256, and that every report follows from the
 * package's evidence (functions/src/audit/verify-package.ts); exits 0 only when all hold. The
 * same checks run from inside an unpacked package with `node verify/verify.mjs .`. The verifier
 * is the compiled one (functions/lib, as `npm run build` leaves it), as other scripts run
 * Evident's code: Node cannot run the sources, which import `./x.js` for `./x.ts`; its checks
 * are bundled into one module (scripts/lib/verifier-bundle.ts), which loads in a fraction of the
 * time its sixty modules took.
 */
import { readFileSync } from 'node:fs';
import type * as PackagePathsModule from '../functions/src/audit/package-paths.ts';
import type * as VerifyArgumentsModule from '../functions/src/audit/verify-arguments.ts';
import type * as VerifyPackageModule from '../functions/src/audit/verify-package.ts';
import { compiled } from './lib/compiled.ts';
import { PackageUnreadable, readArchive, readZip } from './lib/package-zip.ts';

const notBuilt = () => ({ lines: ['The verifier is compiled by `npm run build`: run it once, then this again.'], code: 2 });

/** A compiled module; undefined on a fresh clone, which has none until the first build (npm start and npm test build too). */
const built = <T>(relative: string) =>
  compiled<T>(relative).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return undefined;
  });

/** The command's output and exit code. */
export async function verifyAudit(args: readonly string[]): Promise<{ lines: string[]; code: number }> {
  const [paths, commandLine] = await Promise.all([
    built<typeof PackagePathsModule>('audit/package-paths.js'),
    built<typeof VerifyArgumentsModule>('audit/verify-arguments.js'),
  ]);
  if (!paths || !commandLine) return notBuilt();
  const { folder: zipFile, keyFile } = commandLine.argumentsOf(args);
  if (!zipFile) return { lines: ['Usage: npm run verify-audit -- <package.zip> [--key published-key.pem]'], code: 2 };
  try {
    // The files re-derivation reads are kept; the others are only hashed, by a second thread
    // which starts while the engine loads.
    const reading = readZip(readArchive(zipFile), paths.rederivationReads);
    const verifier = await built<typeof VerifyPackageModule>('generated/verify-package.mjs');
    if (!verifier) return notBuilt();
    const { files, digests } = await reading.contents();
    const verification = verifier.verifyPackage(files, {
      digests,
      ...(keyFile ? { publicKey: readFileSync(keyFile, 'utf8') } : {}),
    });
    return { lines: verifier.describeVerification(verification), code: verification.ok ? 0 : 1 };
  } catch (error) {
    if (error instanceof PackageUnreadable) return { lines: [error.message, 'NOT VERIFIED.'], code: 1 };
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { lines: [`No such file: ${(error as NodeJS.ErrnoException).path}`], code: 2 };
    throw error;
  }
}

if (import.meta.main) {
  const { lines, code } = await verifyAudit(process.argv.slice(2));
  for (const line of lines) console.log(line);
  process.exitCode = code;
}
