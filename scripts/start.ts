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
import { functionsRegion } from '../functions/src/config.ts';
import {
  emulatorEnv,
  emulatorsUsed,
  functionsOrigin,
  hostingOrigin,
  localConnectorTokens,
  projects,
  writeEmulatorConfig,
} from './lib/emulators.ts';
import { connectDemoConnectors, startStandIns } from './lib/stand-ins.ts';
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

/**
 * Runs the emulators until they stop (Ctrl-C), their log without the lines that only look like
 * failures; `whenReady` once they say every emulator is up.
 */
function runEmulators(options: StartOptions, env: Record<string, string>, whenReady: () => void): Promise<void> {
  const child = spawn(
    'firebase',
    ['emulators:start', '--config', writeEmulatorConfig(), '--project', projects[options.mode], '--only', emulatorsUsed],
    { stdio: ['inherit', 'pipe', 'inherit'], env: emulatorEnv({ ...env, EVIDENT_STORE_DIR: options.storeDir }) },
  );
  let ready = false;
  // Whole lines, so the announcement is found even when it arrives split across two chunks.
  const out = lineFilter((line) => {
    process.stdout.write(line);
    if (!ready && line.includes('All emulators ready')) {
      ready = true;
      whenReady();
    }
  });
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

/**
 * The demo's connectors: their vendors' stand-ins, the settings that point at them (saved once),
 * and, once the emulators are up, a run of each, so the Sources page shows real runs at once.
 */
async function startDemoConnectors(options: StartOptions) {
  const standIns = await startStandIns(localConnectorTokens());
  if (await connectDemoConnectors(options.storeDir)) {
    console.log(
      "Connected the demo company's GitHub, Google Cloud, Google Workspace and Okta (local stand-ins) in its settings.",
    );
  }
  const runAll = async () => {
    const url = `${functionsOrigin}/${projects[options.mode]}/${functionsRegion}/devRunConnectors`;
    try {
      const answer = await fetch(url, { method: 'POST' });
      const { runs } = (await answer.json()) as { runs: { connector: string; runId?: string; refused?: string }[] };
      const started = runs.filter((run) => run.runId).map((run) => run.connector);
      console.log(
        `\nConnectors running against their stand-ins: ${started.join(', ') || 'none'} (the Sources page follows them).`,
      );
    } catch (error) {
      console.error(`\nThe connectors could not be started: ${(error as Error).message}`);
    }
  };
  return { env: standIns.env, runAll, close: () => standIns.close() };
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
  const connectors = options.seedDemo ? await startDemoConnectors(options) : undefined;
  try {
    await runEmulators(options, connectors?.env ?? {}, () => void connectors?.runAll());
  } finally {
    await connectors?.close();
  }
} catch (error) {
  console.error(`\n✗ ${(error as Error).message}`);
  process.exit(1);
}
