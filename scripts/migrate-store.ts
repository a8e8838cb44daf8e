/**
 * `npm run migrate-store`: moves a store written before the partitioned layout to the layout
 * of today (see docs/storage.md). Safe to run twice, and to run again after it was interrupted:
 * it carries on where it stopped.
 *
 *   npm run migrate-store                          the local store (.local/store or EVIDENT_STORE_DIR)
 *   npm run migrate-store -- --dir path/to/store   another local store
 *   npm run migrate-store -- --bucket NAME         a Cloud Storage bucket, with application default
 *                                                  credentials (gcloud auth application-default login)
 *
 * The evidence checkpoint it rebuilds is of today in REPORT_TIME_ZONE (UTC by default; or
 * --time-zone). It runs the compiled functions, so `npm run build` must have run first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type * as CloudStorageModule from '../functions/src/storage/cloud-storage-store.ts';
import type { ObjectStore } from '../functions/src/storage/object-store.ts';
import { compiled } from './lib/compiled.ts';
import { localStore, migrationModule } from './lib/migrate.ts';
import { paths } from './lib/paths.ts';

try {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      bucket: { type: 'string' },
      project: { type: 'string' },
      'time-zone': { type: 'string' },
    },
  });
  if (!existsSync(join(paths.functionsLib, 'migration', 'migrate-store.js'))) {
    throw new Error('functions/lib is missing or incomplete; run npm run build first.');
  }
  let store: ObjectStore;
  let where: string;
  if (values.bucket) {
    const { openCloudStorageStore } = await compiled<typeof CloudStorageModule>('storage/cloud-storage-store.js');
    const projectId = values.project ?? process.env.GOOGLE_CLOUD_PROJECT;
    store = openCloudStorageStore({ ...(projectId ? { projectId } : {}), bucket: values.bucket });
    where = `gs://${values.bucket}`;
  } else {
    const dir = values.dir ?? process.env.EVIDENT_STORE_DIR ?? join(paths.root, '.local', 'store');
    if (!existsSync(dir)) throw new Error(`There is no store at ${dir}.`);
    store = await localStore(dir);
    where = dir;
  }
  const { hasLegacyLayout, migrateStore } = await migrationModule();
  const legacy = await hasLegacyLayout(store);
  console.log(legacy ? `Migrating ${where}…` : `${where} holds nothing in the old layout; checking the indexes and checkpoint…`);
  const result = await migrateStore({
    store,
    now: new Date(),
    timeZone: values['time-zone'] ?? process.env.REPORT_TIME_ZONE ?? 'UTC',
    log: (line) => console.log(`  ${line}`),
  });
  const { moved, alreadyMoved, conflicts } = result.evidence;
  console.log(
    `Done. Evidence items moved: ${moved} (already moved before: ${alreadyMoved}); reports: ${result.reports.moved}; ` +
      `idempotency keys: ${result.keys}.${conflicts.length > 0 ? ` ${conflicts.length} items need a look (see above).` : ''}`,
  );
  if (conflicts.length > 0) process.exitCode = 2;
} catch (error) {
  console.error(`✗ ${(error as Error).message}`);
  process.exit(1);
}
