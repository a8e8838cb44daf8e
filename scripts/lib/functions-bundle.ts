/**
 * The functions as Node loads them in production: `functions/lib/main.js` (package.json's
 * `main`) and its chunks, bundled from the compiled modules with rolldown, the bundler Vite
 * brings. A cold instance spends most of its start loading modules, one file read, parse and
 * link each; a family read ~70 of Evident's own modules and ~100 of chrono-node's before its
 * first answer. Bundled, each family is one chunk beside the few its siblings share (code
 * splitting keeps one copy of every module, so module state such as the logs or the store stays
 * one), and `index.js`'s lazy imports of families and jobs stay lazy.
 *
 * What stays an import: Node's own modules and the packages whose code is CommonJS or loads
 * files at run time (the Firebase and Google SDKs, Express, the Okta and GitHub clients):
 * bundling them would change how they resolve their own files. Inlined: the contract and the
 * pure ES-module libraries whose many small files are the cost, listed in `inlined`.
 *
 * Chunks sit one folder below `lib/`, as every compiled module but the entry does, so the
 * `new URL('../generated/…', import.meta.url)` reads keep finding `lib/generated`. The unbundled
 * modules stay beside them for the scripts and benchmarks that import one module on its own.
 */
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { rolldown } from 'rolldown';
import { paths } from './paths.ts';

/** Libraries whose code is bundled into the chunks that use them. */
const inlined = new Set(['@evident/contract', '@modelcontextprotocol/sdk', 'chrono-node', 'minisearch', 'zod']);

const builtins = new Set(builtinModules);

/** The package a bare import names: `firebase-functions/v2/https` → `firebase-functions`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function external(specifier: string): boolean {
  if (specifier.startsWith('node:') || builtins.has(specifier)) return true;
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('\0')) return false;
  return !inlined.has(packageOf(specifier));
}

export const bundleEntry = join(paths.functionsLib, 'main.js');

/** Writes `lib/main.js` and `lib/chunks/`; returns the number of files written. */
export async function bundleFunctions(): Promise<number> {
  const bundle = await rolldown({
    input: { main: join(paths.functionsLib, 'index.js') },
    platform: 'node',
    external,
    logLevel: 'silent',
  });
  try {
    const { output } = await bundle.write({
      dir: paths.functionsLib,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      // A class renamed to avoid a clash in the bundle keeps its name: the chat's date reader
      // leaves some of chrono's parsers out by their class's name (chat/offline/days.ts).
      keepNames: true,
    });
    return output.length;
  } finally {
    await bundle.close();
  }
}
