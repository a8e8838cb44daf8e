/**
 * `npm start`: builds Evident, seeds the local store with two weeks of demo data the first time,
 * and runs it on the Firebase emulators, web app at http://127.0.0.1:5000.
 * `npm start -- --protected` runs protected mode instead; `npm start -- --reseed` deletes the
 * local store first, so the demo history is seeded again ending today.
 */
import { join, relative } from 'node:path';
import { build, localIdentity } from './build.ts';
import { emulatorEnv, emulatorsUsed, hostingOrigin, projects, writeEmulatorConfig, type Mode } from './lib/emulators.ts';
import { paths } from './lib/paths.ts';
import { run } from './lib/run.ts';
import { migrateLocalStoreIfNeeded } from './lib/migrate.ts';
import { resetStore, seedDemo } from './lib/seed-demo.ts';

const mode: Mode = process.argv.includes('--protected') ? 'protected' : 'public';
const reseed = process.argv.includes('--reseed');
// The folder the functions emulator stores objects in (see emulatorEnv).
const storeDir = process.env.EVIDENT_STORE_DIR ?? join(paths.root, '.local', 'store');
const storeName = relative(paths.root, storeDir).startsWith('..') ? storeDir : relative(paths.root, storeDir);

try {
  await build({ identity: localIdentity });
  if (reseed) await resetStore(storeDir);
  else await migrateLocalStoreIfNeeded(storeDir, (line) => console.log(line));
  const seeded = await seedDemo({ storeDir, today: new Date().toISOString().slice(0, 10), timeZone: 'UTC' });
  console.log(
    seeded.seeded
      ? `\nSeeded ${seeded.days} days of demo evidence and reports (score today ${seeded.score.toFixed(1)}).`
      : `\nDemo data already present in ${storeName} (npm start -- --reseed to start over).`,
  );
  console.log(`\nStarting the emulators in ${mode} mode (project ${projects[mode]}).`);
  console.log(`When they are ready: web app ${hostingOrigin}  ·  API explorer ${hostingOrigin}/api/swagger\n`);
  const config = writeEmulatorConfig();
  await run('firebase', ['emulators:start', '--config', config, '--project', projects[mode], '--only', emulatorsUsed], {
    env: emulatorEnv(),
  });
} catch (error) {
  console.error(`\n✗ ${(error as Error).message}`);
  process.exit(1);
}
