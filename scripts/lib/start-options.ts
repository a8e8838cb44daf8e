/**
 * What `npm start` was asked for: the mode, the store, and whether the demo is seeded.
 *
 * - `npm start`: the demo company's two weeks of evidence and reports, in `.local/store`;
 * - `npm start -- --empty`: the catalog and no evidence, in a store of its own (`.local/own-store`),
 *   for trying Evident with one's own data; the demo's store is left as it is;
 * - `--reseed` empties the chosen store first (the demo is then seeded again, ending today);
 * - `--protected` runs protected mode instead of public.
 *
 * `EVIDENT_STORE_DIR` names another folder for either.
 */
import { join } from 'node:path';
import type { Mode } from './emulators.ts';
import { paths } from './paths.ts';

export interface StartOptions {
  mode: Mode;
  /** The folder the functions emulator keeps objects in. */
  storeDir: string;
  /** Seed the demo company's history when the store has none. */
  seedDemo: boolean;
  /** Empty the store before starting. */
  reset: boolean;
}

export const demoStoreDir = join(paths.root, '.local', 'store');
export const ownStoreDir = join(paths.root, '.local', 'own-store');

const known = new Set(['--protected', '--reseed', '--empty']);

export function startOptions(args: readonly string[], env: NodeJS.ProcessEnv = process.env): StartOptions {
  const unknown = args.filter((arg) => !known.has(arg));
  if (unknown.length > 0) throw new Error(`npm start takes --empty, --protected and --reseed, not ${unknown.join(' ')}.`);
  const empty = args.includes('--empty');
  return {
    mode: args.includes('--protected') ? 'protected' : 'public',
    storeDir: env['EVIDENT_STORE_DIR'] ?? (empty ? ownStoreDir : demoStoreDir),
    seedDemo: !empty,
    reset: args.includes('--reseed'),
  };
}
