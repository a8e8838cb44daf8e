/**
 * The control catalog as the build compiled it (`lib/generated/catalog.json`), loaded once per
 * instance. Planning its checks needs the CEL engine, so that module is imported only by what
 * evaluates (the daily job, a first read of today), never by families that only list controls.
 */
import { readFile } from 'node:fs/promises';
import { loadOnce } from '../common/maybe-async.js';
import type { CompiledCatalog } from './evaluate.js';
import type { Catalog } from './model.js';

export const loadCatalog = loadOnce(
  async (): Promise<Catalog> =>
    JSON.parse(await readFile(new URL('../generated/catalog.json', import.meta.url), 'utf8')) as Catalog,
);

/** Plans every check of a catalog, loading the engine on first use. */
export async function compileCatalogLazily(catalog: Catalog): Promise<CompiledCatalog> {
  const { compileCatalog } = await import('./evaluate.js');
  return compileCatalog(catalog);
}

export const loadCompiledCatalog = loadOnce(async () => compileCatalogLazily(await loadCatalog()));
