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
export async function bundleVerifier(): Promise<Buffer> {
  const bundle = await rolldown({
    input: verifierEntry,
    platform: 'node',
    // The sources import `./x.js` for `./x.ts`, as Node's type stripping and tsc want.
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    logLevel: 'silent',
  });
  try {
    const { output } = await bundle.generate({
      format: 'esm',
      codeSplitting: false,
      banner:
        '// Evident audit package verifier: node verify/verify.mjs <unpacked folder> [--key key.pem]. Generated; see docs/audit-verification.md.',
    });
    return Buffer.from(output[0].code);
  } finally {
    await bundle.close();
  }
}
