/**
 * Runs the store migration (functions/src/migration/migrate-store.ts) from the compiled
 * functions, for `npm run migrate-store` and for `npm start` when it finds a local store in the
 * layout before partitions.
 */
import type * as MigrateModule from '../../functions/src/migration/migrate-store.ts';
import type * as LocalFolderStoreModule from '../../functions/src/storage/local-folder-store.ts';
import type { ObjectStore } from '../../functions/src/storage/object-store.ts';
import { compiled } from './compiled.ts';

export const migrationModule = () => compiled<typeof MigrateModule>('migration/migrate-store.js');

export async function localStore(dir: string): Promise<ObjectStore> {
  const { LocalFolderStore } = await compiled<typeof LocalFolderStoreModule>('storage/local-folder-store.js');
  return new LocalFolderStore(dir);
}

/** Migrates a local store if it holds the old layout; says whether it did. */
export async function migrateLocalStoreIfNeeded(dir: string, log: (line: string) => void): Promise<boolean> {
  const [{ hasLegacyLayout, migrateStore }, store] = await Promise.all([migrationModule(), localStore(dir)]);
  if (!(await hasLegacyLayout(store))) return false;
  log('The local store is in the layout before partitions; migrating it (npm run migrate-store does the same).');
  await migrateStore({
    store,
    now: new Date(),
    timeZone: process.env.REPORT_TIME_ZONE || 'UTC',
    log: (line) => log(`  ${line}`),
  });
  return true;
}
