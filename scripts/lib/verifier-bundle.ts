/**
 * `verify/verify.mjs`, the verifier an audit package carries: functions/src/audit/verify-main.ts
 * with the engine, the contract and the CEL library bundled into one ES module that runs on a
 * plain Node 20 or later with nothing installed (only `node:` modules stay imports). Bundled with
 * rolldown, the bundler Vite already brings; the build writes it beside the compiled functions,
 * where the package builder reads it (functions/src/audit/audit-package.ts).
 */
import { join } from 'node:path';
import { rolldown } from 'rolldown';
import { paths } from './paths.ts';

export const verifierEntry = join(paths.functions, 'src', 'audit', 'verify-main.ts');
export const bundledVerifierPath = () => join(paths.functionsGenerated, 'verify.mjs');

/** The bundle's one file. */
export function bundleVerifier(): Promise<Buffer> {
  return bundleOf(
    verifierEntry,
    '// Evident audit package verifier: node verify/verify.mjs <unpacked folder> [--key key.pem]. Generated; see docs/audit-verification.md.',
  );
}

/**
 * `npm run verify-audit`'s verifier (verify-package.ts, whose checks the packaged verifier runs
 * too) as one module: loading the engine, the contract and CEL from ~60 compiled files took about
 * 0.4 s of a year's verification, which the engine's own daily runs, the figure it is held to,
 * do not pay.
 */
export const verifyPackageEntry = join(paths.functions, 'src', 'audit', 'verify-package.ts');
export const bundledVerifyPackagePath = () => join(paths.functionsGenerated, 'verify-package.mjs');

export function bundleVerifyPackage(): Promise<Buffer> {
  return bundleOf(verifyPackageEntry, '// Evident: the audit package checks of verify-package.ts, bundled. Generated.');
}

async function bundleOf(input: string, banner: string): Promise<Buffer> {
  const bundle = await rolldown({
    input,
    platform: 'node',
    // The sources import `./x.js` for `./x.ts`, as Node's type stripping and tsc want.
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    logLevel: 'silent',
  });
  try {
    const { output } = await bundle.generate({ format: 'esm', codeSplitting: false, banner });
    return Buffer.from(output[0].code);
  } finally {
    await bundle.close();
  }
}
