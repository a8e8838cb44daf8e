/**
 * Rewrites a store into the layout Evident used before partitions (one object per evidence item
 * under `evidence/items/`, reports at `reports/<date>.json`, keys under `evidence/idempotency/`,
 * no listing indexes or checkpoints): the store an older version would have left. `npm test`
 * seeds the demo, rewrites it so, and migrates it back, to run the integration tests of one mode
 * on a migrated store. test/unit/migration/legacy-layout.test.ts holds the result to a store that
 * the older version itself wrote.
 */
import type * as EvidenceStoreModule from '../../functions/src/evidence/evidence-store.ts';
import type * as LocalFolderStoreModule from '../../functions/src/storage/local-folder-store.ts';
import { listNames, type ObjectStore } from '../../functions/src/storage/object-store.ts';
import { compiled } from './compiled.ts';

type EvidenceStoreClass = typeof EvidenceStoreModule.EvidenceStore;

/** What the older version never wrote. */
const newPrefixes = [
  'evidence/received=',
  'evidence-ids/',
  'evidence-index/',
  'evidence-keys/',
  'reports/day=',
  'state/',
  'submissions-index/',
  'analyses/index/',
];

export async function rewriteInLegacyLayout(
  store: ObjectStore,
  EvidenceStore: EvidenceStoreClass,
): Promise<{ items: number; reports: number }> {
  const evidence = new EvidenceStore(store);
  let items = 0;
  for await (const batch of evidence.batchesBetween(-Infinity, Infinity)) {
    for (const item of await evidence.readBatch(batch)) {
      await store.create(`evidence/items/${item.id}.json`, JSON.stringify(item), { contentType: 'application/json' });
      items++;
    }
  }
  for (const name of await listNames(store, 'evidence-keys/')) {
    const { data } = await store.read(name);
    await store.create(`evidence/idempotency/${name.slice('evidence-keys/'.length)}`, data, { contentType: 'application/json' });
  }
  let reports = 0;
  for (const name of await listNames(store, 'reports/day=')) {
    const { data } = await store.read(name);
    await store.create(`reports/${name.slice('reports/day='.length, -'/report.json'.length)}.json`, data, {
      contentType: 'application/json',
    });
    reports++;
  }
  for (const prefix of newPrefixes) for (const name of await listNames(store, prefix)) await store.delete(name);
  return { items, reports };
}

/** The same, on a local store, from the compiled functions (as the test script runs it). */
export async function rewriteLocalStoreInLegacyLayout(dir: string): Promise<{ items: number; reports: number }> {
  const [{ LocalFolderStore }, { EvidenceStore }] = await Promise.all([
    compiled<typeof LocalFolderStoreModule>('storage/local-folder-store.js'),
    compiled<typeof EvidenceStoreModule>('evidence/evidence-store.js'),
  ]);
  return rewriteInLegacyLayout(new LocalFolderStore(dir), EvidenceStore);
}
