/**
 * Verifies an audit package: `npm run verify-audit -- package.zip [--key published-key.pem]`.
 * Checks the manifest's signature, every file's SHA-256, and that every report follows from the
 * package's evidence (functions/src/audit/verify-package.ts); exits 0 only when all hold. The
 * same checks run from inside an unpacked package with `node verify/verify.mjs .`. The verifier
 * is the compiled one (functions/lib, as `npm run build` leaves it), as other scripts run
 * Evident's code: Node cannot run the sources, which import `./x.js` for `./x.ts`.
 */
import { readFileSync } from 'node:fs';
import type * as PackagePathsModule from '../functions/src/audit/package-paths.ts';
import type * as VerifyFolderModule from '../functions/src/audit/verify-folder.ts';
import type * as VerifyPackageModule from '../functions/src/audit/verify-package.ts';
import { compiled } from './lib/compiled.ts';
import { filesOfZip, PackageUnreadable } from './lib/package-zip.ts';

/** The command's output and exit code. */
export async function verifyAudit(args: readonly string[]): Promise<{ lines: string[]; code: number }> {
  const modules = await Promise.all([
    compiled<typeof PackagePathsModule>('audit/package-paths.js'),
    compiled<typeof VerifyFolderModule>('audit/verify-folder.js'),
    compiled<typeof VerifyPackageModule>('audit/verify-package.js'),
  ]).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return undefined;
  });
  // A fresh clone has no compiled functions until the first build (npm start and npm test build too).
  if (!modules) return { lines: ['The verifier is compiled by `npm run build`: run it once, then this again.'], code: 2 };
  const [{ rederivationReads }, { argumentsOf }, { describeVerification, verifyPackage }] = modules;
  const { folder: zipFile, keyFile } = argumentsOf(args);
  if (!zipFile) return { lines: ['Usage: npm run verify-audit -- <package.zip> [--key published-key.pem]'], code: 2 };
  try {
    // The files re-derivation reads are kept; the others are only hashed, by a second thread.
    const { files, digests } = await filesOfZip(readFileSync(zipFile), rederivationReads);
    const verification = verifyPackage(files, { digests, ...(keyFile ? { publicKey: readFileSync(keyFile, 'utf8') } : {}) });
    return { lines: describeVerification(verification), code: verification.ok ? 0 : 1 };
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
