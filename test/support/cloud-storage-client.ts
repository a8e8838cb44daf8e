/**
 * The Cloud Storage driver as production builds it (`openCloudStorageStore`, as open-store.ts
 * calls it: the official SDK with the driver's retry options), pointed at a stand-in of the JSON API on loopback: an explicit
 * project, a custom endpoint (to which the SDK sends no credentials, so it never looks any up
 * nor asks a metadata server), and retries that wait one second instead of up to eight: the
 * least the SDK allows, as an upload's backoff (async-retry under `File#save`) starts at one
 * second and refuses a `maxRetryDelay` below it. So tests that retry run concurrently.
 */
import { openCloudStorageStore, type CloudStorageStore } from '../../functions/src/storage/cloud-storage-store.ts';
import type { CloudStorageStandIn } from './cloud-storage-stand-in.ts';

export function storeOnStandIn(standIn: CloudStorageStandIn): CloudStorageStore {
  // The SDK prefers this variable to `apiEndpoint`; a developer's shell may have it set.
  delete process.env.STORAGE_EMULATOR_HOST;
  return openCloudStorageStore({
    projectId: 'demo-evident',
    bucket: standIn.bucket,
    apiEndpoint: standIn.origin,
    retry: { maxRetryDelay: 1 },
  });
}
