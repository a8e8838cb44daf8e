/**
 * The functions' own compiled copy of the contract package (`@evident/contract`).
 *
 * Everything else reads the package's TypeScript sources through the workspace link, but a
 * function must not pay for type stripping on every cold start, and `firebase deploy` uploads
 * the functions folder alone: Cloud Build installs its dependencies from the registry, where a
 * workspace package does not exist (firebase/firebase-tools#653). So the build compiles the
 * package into `functions/lib/node_modules/@evident/contract`, the first place Node looks from
 * any module of `functions/lib`: the emulators, the benchmarks and a deployed function all load
 * that copy. firebase.json's `ignore` leaves out only the functions folder's own `node_modules`,
 * so the copy is uploaded with the code (test/unit/contract-copy.test.ts checks both).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from './paths.ts';
import { run } from './run.ts';

export const contractPackage = join(paths.root, 'packages', 'contract');
export const contractCopy = join(paths.functionsLib, 'node_modules', '@evident', 'contract');

interface PackageJson {
  name: string;
  version: string;
  exports: Record<string, string>;
  [field: string]: unknown;
}

/** The copy's package.json: the same name and entry points, each at its compiled module. */
export function compiledManifest(source: PackageJson): PackageJson {
  const exports = Object.fromEntries(
    Object.entries(source.exports).map(([entry, file]) => [entry, file.replace(/^\.\/src\//, './').replace(/\.ts$/, '.js')]),
  );
  return { name: source.name, version: source.version, type: 'module', sideEffects: false, exports };
}

/** Compiles the package into `functions/lib` (after the functions themselves are compiled there). */
export async function copyContractIntoFunctions(): Promise<void> {
  await run('tsc', ['-p', contractPackage, '--outDir', contractCopy]);
  const manifest = JSON.parse(readFileSync(join(contractPackage, 'package.json'), 'utf8')) as PackageJson;
  writeFileSync(join(contractCopy, 'package.json'), JSON.stringify(compiledManifest(manifest), null, 2) + '\n');
}
