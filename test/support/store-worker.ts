/**
 * A separate process that writes to a local-folder store, for the cross-process tests.
 *
 *   node store-worker.ts <root> increment <name> <times>   add 1, <times> times, by compare-and-swap
 *   node store-worker.ts <root> create <name> 1            try to create; print created or exists
 *
 * It loads the compiled driver, as the functions emulator does.
 */
import type * as LocalFolderStoreModule from '../../functions/src/storage/local-folder-store.ts';
import type * as ObjectStoreModule from '../../functions/src/storage/object-store.ts';

const compiled = (file: string) => new URL(`../../functions/lib/storage/${file}`, import.meta.url).href;
const { LocalFolderStore } = (await import(compiled('local-folder-store.js'))) as typeof LocalFolderStoreModule;
const { mutateObject, PreconditionFailed } = (await import(compiled('object-store.js'))) as typeof ObjectStoreModule;

const [root, action, name, times] = process.argv.slice(2) as [string, string, string, string];
const store = new LocalFolderStore(root);

if (action === 'increment') {
  for (let i = 0; i < Number(times); i++) {
    await mutateObject(store, name, (current) => String(Number(current?.toString() ?? '0') + 1), { attempts: 1000 });
  }
  console.log('done');
} else if (action === 'create') {
  try {
    await store.create(name, String(process.pid));
    console.log('created');
  } catch (error) {
    if (!(error instanceof PreconditionFailed)) throw error;
    console.log('exists');
  }
}
