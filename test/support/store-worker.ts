/**
 * A separate process that writes to a local-folder store, for the cross-process tests.
 *
 *   node store-worker.ts <root> increment <name> <times>   add 1, <times> times, by compare-and-swap
 *   node store-worker.ts <root> create <name> 1            try to create; print created or exists
 *   node store-worker.ts <root> create <name> <times>      try to create <name>/0 … <name>/<times - 1>; print how many it made
 *   node store-worker.ts <root> churn <name> <times>       <times> rounds of create, replace, delete; print how many it made
 *
 * With a fifth argument <processes>, it first waits until that many workers on <root> are
 * ready, so that their races overlap instead of following each one's start-up time; after 15 s
 * without them it fails, saying how many came.
 * It loads the compiled driver, as the functions emulator does.
 */
import type * as LocalFolderStoreModule from '../../functions/src/storage/local-folder-store.ts';
import type * as ObjectStoreModule from '../../functions/src/storage/object-store.ts';

const compiled = (file: string) => new URL(`../../functions/lib/storage/${file}`, import.meta.url).href;
const { LocalFolderStore } = (await import(compiled('local-folder-store.js'))) as typeof LocalFolderStoreModule;
const { listNames, mutateObject, PreconditionFailed } = (await import(compiled('object-store.js'))) as typeof ObjectStoreModule;

const [root, action, name, times, processes] = process.argv.slice(2) as [string, string, string, string, string?];
const store = new LocalFolderStore(root);

if (processes !== undefined) {
  await store.create(`ready/${process.pid}`, '');
  // Within the 20 s a unit test may take, so this error, not a test timeout, is what fails.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ready = (await listNames(store, 'ready/')).length;
    if (ready >= Number(processes)) break;
    if (Date.now() > deadline) throw new Error(`waited 15 s for ${processes} workers on ${root} to be ready; ${ready} are`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

if (action === 'increment') {
  for (let i = 0; i < Number(times); i++) {
    await mutateObject(store, name, (current) => String(Number(current?.toString() ?? '0') + 1), { attempts: 1000 });
  }
  console.log('done');
} else if (action === 'create' && times === '1') {
  console.log((await tryCreate(name, String(process.pid))) ? 'created' : 'exists');
} else if (action === 'create') {
  let made = 0;
  for (let i = 0; i < Number(times); i++) if (await tryCreate(`${name}/${i}`, String(process.pid))) made += 1;
  console.log(made);
} else if (action === 'churn') {
  // Whoever creates the object owns it until it deletes it: no other process may change it
  // in between, so every step here must see exactly what this process wrote.
  let made = 0;
  for (let i = 0; i < Number(times); i++) {
    const mine = `${process.pid} ${i}`;
    const created = await tryCreate(name, mine);
    if (!created) continue;
    made += 1;
    const replaced = await store.replace(name, `${mine} again`, created.generation);
    const { data, info } = await store.read(name);
    if (data.toString() !== `${mine} again` || info.generation !== replaced.generation)
      throw new Error(`${name} changed under its owner: "${data.toString()}" at ${info.generation}`);
    await store.delete(name, { ifGeneration: replaced.generation });
  }
  console.log(made);
}

async function tryCreate(name: string, data: string) {
  try {
    return await store.create(name, data);
  } catch (error) {
    if (!(error instanceof PreconditionFailed)) throw error;
    return undefined;
  }
}
