/**
 * The Cloud Storage driver against a Storage emulator, held to the same conformance suite.
 * It runs when STORAGE_EMULATOR_HOST names one (these machines cannot run Firebase's: it needs
 * Java 21 and downloads); otherwise it is reported as skipped, not passed.
 */
import { describe } from 'vitest';
import { CloudStorageStore } from '../../../functions/src/storage/cloud-storage-store.ts';
import { objectStoreConformance } from './conformance.ts';

const emulator = process.env.STORAGE_EMULATOR_HOST;

describe.skipIf(!emulator)(`CloudStorageStore against the Storage emulator at ${emulator ?? '(none)'}`, () => {
  objectStoreConformance(async () => {
    const { Storage } = await import('@google-cloud/storage');
    const bucket = new Storage({ projectId: 'demo-evident' }).bucket(process.env.EVIDENT_BUCKET ?? 'demo-evident.appspot.com');
    return new CloudStorageStore(bucket);
  });
});
