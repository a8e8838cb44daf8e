/** Which object store the functions use, wherever they run. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeLocation } from '../../../functions/src/config.ts';
import { paths } from '../../../scripts/lib/paths.ts';

const variables = [
  'STORAGE_EMULATOR_HOST',
  'EVIDENT_STORE_DIR',
  'EVIDENT_BUCKET',
  'FUNCTIONS_EMULATOR',
  'FIREBASE_CONFIG',
  'GCLOUD_PROJECT',
];
let saved: Record<string, string | undefined>;

beforeEach(() => {
  saved = Object.fromEntries(variables.map((name) => [name, process.env[name]]));
  for (const name of variables) delete process.env[name];
  process.env.GCLOUD_PROJECT = 'acme-prod';
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('storeLocation', () => {
  it("uses the project's default bucket in production", () => {
    process.env.FIREBASE_CONFIG = JSON.stringify({ projectId: 'acme-prod', storageBucket: 'acme-prod.appspot.com' });
    expect(storeLocation()).toEqual({ kind: 'cloud', bucket: 'acme-prod.appspot.com' });
  });

  it('falls back to the conventional bucket name, or EVIDENT_BUCKET when set', () => {
    expect(storeLocation()).toEqual({ kind: 'cloud', bucket: 'acme-prod.firebasestorage.app' });
    process.env.EVIDENT_BUCKET = 'evidence-eu';
    expect(storeLocation()).toEqual({ kind: 'cloud', bucket: 'evidence-eu' });
  });

  it('uses a local folder in the Firebase emulators, at .local/store by default', () => {
    process.env.FUNCTIONS_EMULATOR = 'true';
    expect(storeLocation()).toEqual({ kind: 'local', dir: join(paths.root, '.local', 'store') });
    process.env.EVIDENT_STORE_DIR = '/tmp/evident-elsewhere';
    expect(storeLocation()).toEqual({ kind: 'local', dir: '/tmp/evident-elsewhere' });
  });

  it('uses Cloud Storage when a Storage emulator is configured, even inside the Firebase emulators', () => {
    process.env.FUNCTIONS_EMULATOR = 'true';
    process.env.EVIDENT_STORE_DIR = '/tmp/ignored';
    process.env.STORAGE_EMULATOR_HOST = '127.0.0.1:9199';
    process.env.FIREBASE_CONFIG = JSON.stringify({ storageBucket: 'demo-evident.appspot.com' });
    expect(storeLocation()).toEqual({ kind: 'cloud', bucket: 'demo-evident.appspot.com' });
  });
});
