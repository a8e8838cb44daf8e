/**
 * The control catalog as the build compiled it (`lib/generated/catalog.json`), loaded once per
 * instance, and its checks planned once per instance for every evaluation that follows.
 */
import { readFile } from 'node:fs/promises';
import { loadOnce } from '../http/maybe-async.js';
import { compileCatalog, type CompiledCatalog } from './evaluate.js';
import type { Catalog } from './model.js';

export const loadCatalog = loadOnce(
  async (): Promise<Catalog> =>
    JSON.parse(await readFile(new URL('../generated/catalog.json', import.meta.url), 'utf8')) as Catalog,
);

export const loadCompiledCatalog = loadOnce(async (): Promise<CompiledCatalog> => compileCatalog(await loadCatalog()));
