/**
 * The verifier on an unpacked package, as `verify/verify.mjs` runs it on a plain Node:
 * `node verify/verify.mjs <folder> [--key published-key.pem]`. Reads every file under the
 * folder, verifies (verify-package.ts), prints what it found, and exits 0 only when verified.
 * scripts/lib/verifier-bundle.ts bundles this module, the engine and the CEL library into that one file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { argumentsOf } from './verify-arguments.js';
import { describeVerification, verifyPackage } from './verify-package.js';

/** Every file under `folder`, by its path in the package (`/` between folders). */
export function filesOfFolder(folder: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(folder, path).split(sep).join('/'), readFileSync(path));
  }
  return files;
}

/** The command: its output lines and exit code, for a caller that prints them. */
export function verifyFolderCommand(args: readonly string[]): { lines: string[]; code: number } {
  const { folder, keyFile } = argumentsOf(args);
  if (!folder) return { lines: ['Usage: node verify/verify.mjs <unpacked package folder> [--key published-key.pem]'], code: 2 };
  let files: Map<string, Buffer>;
  try {
    files = filesOfFolder(folder);
  } catch (error) {
    return { lines: [`Cannot read ${folder}: ${(error as Error).message}`], code: 2 };
  }
  const publicKey = keyFile ? readFileSync(keyFile, 'utf8') : undefined;
  const verification = verifyPackage(files, publicKey ? { publicKey } : {});
  return { lines: describeVerification(verification), code: verification.ok ? 0 : 1 };
}
