/**
 * `npm start`: builds Evident and runs it on the Firebase emulators, web app at
 * http://127.0.0.1:5000. The first time, it seeds the local store with the demo company's two
 * weeks of evidence and reports; `npm start -- --empty` starts instead with the catalog and no
 * evidence, for one's own data (scripts/lib/start-options.ts has every option).
 */
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { build, localIdentity } from './build.ts';
import { lineFilter } from './lib/emulator-log.ts';
import { emulatorEnv, emulatorsUsed, hostingOrigin, projects, writeEmulatorConfig } from './lib/emulators.ts';
import { paths } from './lib/paths.ts';
import { migrateLocalStoreIfNeeded } from './lib/migrate.ts';
import { resetStore, seedDemo } from './lib/seed-demo.ts';
import { startOptions, type StartOptions } from './lib/start-options.ts';

const nameOf = (dir: string) => (relative(paths.root, dir).startsWith('..') ? dir : relative(paths.root, dir));

/** Seeds the demo or says that the store starts empty, and says how to start over. */
async function prepareStore({ storeDir, seedDemo: seed }: StartOptions): Promise<void> {
  const store = nameOf(storeDir);
  if (!seed) {
    console.log(
      `\nStarting with the catalog and your own evidence only, kept in ${store} (the demo's store is left as it is).` +
        `\nSend evidence with npm run collect or the Submit page; docs/getting-started.md shows the way to a first report.` +
        `\nnpm start -- --empty --reseed empties it again; npm run daily-report -- --empty runs the day's job on it.`,
    );
    return;
  }
  const seeded = await seedDemo({ storeDir, today: new Date().toISOString().slice(0, 10), timeZone: 'UTC' });
  console.log(
    seeded.seeded
      ? `\nSeeded ${seeded.days} days of demo evidence and reports (score today ${seeded.score.toFixed(1)}).`
      : `\nDemo data already present in ${store} (npm start -- --reseed to start over, npm start -- --empty for your own).`,
  );
}

/** Runs the emulators until they stop (Ctrl-C), their log without the lines that only look like failures. */
function runEmulators(options: StartOptions): Promise<void> {
  const child = spawn(
    'firebase',
    ['emulators:start', '--config', writeEmulatorConfig(), '--project', projects[options.mode], '--only', emulatorsUsed],
    { stdio: ['inherit', 'pipe', 'inherit'], env: emulatorEnv({ EVIDENT_STORE_DIR: options.storeDir }) },
  );
  const out = lineFilter((text) => process.stdout.write(text));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      out.end();
      if (code === 0 || signal === 'SIGINT') resolve();
      else reject(new Error(`the emulators stopped (${signal ?? `exit ${code}`})`));
    });
  });
}

try {
  const options = startOptions(process.argv.slice(2));
  await build({ identity: localIdentity });
  if (options.reset) await resetStore(options.storeDir);
  else await migrateLocalStoreIfNeeded(options.storeDir, (line) => console.log(line));
  await prepareStore(options);
  console.log(`\nStarting the emulators in ${options.mode} mode (project ${projects[options.mode]}).`);
  console.log(
    'The daily report is scheduled only when deployed; here the first read of a day makes its report, and\n' +
      'npm run daily-report runs the scheduled job. The Emulator UI is off: the web app and API explorer show everything.',
  );
  console.log(`When they are ready: web app ${hostingOrigin}  ·  API explorer ${hostingOrigin}/api/swagger\n`);
  await runEmulators(options);
} catch (error) {
  console.error(`\n✗ ${(error as Error).message}`);
  process.exit(1);
}
