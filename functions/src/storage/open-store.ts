/**
 * Picks the object store for where the code runs: Cloud Storage in production and whenever a
 * Storage emulator is configured, otherwise (in the Firebase emulators) a local folder. Each
 * driver is imported only when chosen, so no function pays for the other's code.
 */
import type { ObjectStore } from './object-store.js';
import * as config from '../config.js';
import { loadOnce } from '../common/maybe-async.js';

const store = loadOnce(async (): Promise<ObjectStore> => {
  const where = config.storeLocation();
  if (where.kind === 'local') {
    const { LocalFolderStore } = await import('./local-folder-store.js');
    return new LocalFolderStore(where.dir);
  }
  // Retries as cloud-storage-store.ts sets them out: only what is safe, within two minutes.
  const { openCloudStorageStore } = await import('./cloud-storage-store.js');
  return openCloudStorageStore({ projectId: config.runtimeProjectId(), bucket: where.bucket });
});

/** The object store, opened on first use; a failed open is tried again on the next call. */
export async function openStore(): Promise<ObjectStore> {
  return store();
}
