/**
 * The compiled functions (`functions/lib`, written by `npm run build`), for the scripts that run
 * Evident's own code outside the emulators: imported by path, typed as their sources.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { paths } from './paths.ts';

/** A module of `functions/lib` by its path there, e.g. `compiled<typeof StoreModule>('storage/memory-store.js')`. */
export async function compiled<T>(relative: string): Promise<T> {
  return (await import(pathToFileURL(join(paths.functionsLib, relative)).href)) as T;
}
