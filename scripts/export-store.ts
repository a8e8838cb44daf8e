/**
 * `npm run export-store -- --to <dir> [--dir <store>]`: copies the evidence batches and the
 * daily reports of the local store (`.local/store`, or `EVIDENT_STORE_DIR`, or `--dir`) to plain
 * files under `<dir>`, in the bucket's layout (`evidence/received=…/…ndjson`,
 * `reports/day=…/report.json`), so DuckDB can run the queries of docs/analytics.md on them as
 * BigQuery runs them on the bucket. Exporting again into the same folder brings it up to date.
 *
 * It opens the store with the compiled functions, so `npm run build` (or `npm start`) must have
 * run first.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type * as LocalFolderStoreModule from '../functions/src/storage/local-folder-store.ts';
import { compiled } from './lib/compiled.ts';
import { exportStore } from './lib/export-store.ts';
import { paths } from './lib/paths.ts';

/** A path as people typed it: relative to the repository when inside it. */
const shown = (path: string) => (relative(paths.root, path).startsWith('..') ? path : relative(paths.root, path) || '.');

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

try {
  const { values } = parseArgs({ options: { to: { type: 'string' }, dir: { type: 'string' } } });
  if (!values.to) throw new Error('Say where to write the files: npm run export-store -- --to .local/export');
  const storeModule = join(paths.functionsLib, 'storage', 'local-folder-store.js');
  if (!existsSync(storeModule)) throw new Error('functions/lib is missing or incomplete; run npm run build first.');
  const storeDir = resolve(values.dir ?? (process.env.EVIDENT_STORE_DIR || join(paths.root, '.local', 'store')));
  if (!existsSync(storeDir)) throw new Error(`There is no store at ${shown(storeDir)}.`);
  const outDir = resolve(values.to);

  const { LocalFolderStore } = await compiled<typeof LocalFolderStoreModule>('storage/local-folder-store.js');
  const store = new LocalFolderStore(storeDir);
  // One prefix at a time, to say how much of each there was.
  const evidence = await exportStore(store, outDir, ['evidence/']);
  const reports = await exportStore(store, outDir, ['reports/']);

  console.log(
    `Exported ${shown(storeDir)} to ${shown(outDir)}: ${evidence.files} evidence batches (${size(evidence.bytes)}) ` +
      `under evidence/ and ${reports.files} daily reports (${size(reports.bytes)}) under reports/.`,
  );
  const glob = join(shown(outDir), 'reports', '*', 'report.json').replaceAll("'", "''");
  console.log('The score of each day, with the DuckDB CLI (more queries in docs/analytics.md):');
  console.log(`  duckdb -c "SELECT day, summary.score FROM read_json('${glob}', hive_partitioning = true) ORDER BY day"`);
} catch (error) {
  console.error(`✗ ${(error as Error).message}`);
  process.exit(1);
}
