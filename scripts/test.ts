/**
 * `npm test`: everything a change must pass, in order of cost.
 *
 * 1. build, failing if a generated file is stale;
 * 2. static checks: formatting, lint, types (tsc, svelte-check), the OpenAPI linter;
 * 3. unit tests;
 * 4. integration and browser tests inside `firebase emulators:exec`, once per mode, then a clean
 *    start (`npm start -- --empty`) to a first report on emulators of its own.
 *
 * `npm test -- unit` stops after step 3; `npm test -- integration` runs steps 1 and 4. Any other
 * argument filters the test files by name, as vitest's own filters do (`npm test -- integration
 * web-session` runs that file in both modes), and a run with filters skips step 2.
 *
 * Protected mode runs only the suites whose subject is the mode (`modeSuites`); the rest test
 * behaviour that does not depend on it, which the access matrix proves by answering every
 * operation alike in both modes but for its guard, so they run once, in public mode.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, localIdentity } from './build.ts';
import { rewriteLocalStoreInLegacyLayout } from './lib/legacy-layout.ts';
import { migrateLocalStoreIfNeeded } from './lib/migrate.ts';
import { seedDemo } from './lib/seed-demo.ts';
import { findChromium } from './lib/chromium.ts';
import {
  emulatorEnv,
  emulatorsUsed,
  integrationTestEnv,
  localConnectorTokens,
  projects,
  writeEmulatorConfig,
  type Mode,
} from './lib/emulators.ts';
import { startStandIns } from './lib/stand-ins.ts';
import { paths } from './lib/paths.ts';
import { apiVersionProblems } from './lib/released-description.ts';
import { checksSideBySide, run, step } from './lib/run.ts';

/**
 * The suites that run in both modes: who may call what (the access matrix, the smoke test, what
 * protected mode adds), the sign-in flow and the protected journey in the browser, the pages
 * that differ by mode, and exceptions and submissions, whose review (four eyes) differs by mode. Each holds
 * tests for one mode or for both.
 */
const modeSuites = [
  'access-matrix',
  'smoke',
  'protected-mode',
  'web-session',
  'web-journey',
  'web-chat-docs',
  'browser',
  'exceptions',
  'web-exceptions',
  // A submission is reviewed by another person than its submitter (four eyes), as exceptions are.
  'submission-review',
  // Who saved the settings and who published a version are the caller: anonymous in public mode.
  'web-settings',
  'web-analyses',
  // A run is opened, completed and listed by whoever the caller is.
  'collection-runs',
  'web-sources',
  // The population panel reads the control's detail and its sample as the caller.
  'web-control-population',
  // A connector run is started, followed and cancelled by the caller, and its worker holds secrets.
  'web-connectors',
  // Each step of a request is recorded with its caller: anonymous in public mode.
  'audit-requests',
  'web-requests',
].map((name) => `test/integration/${name}.test.ts`);

const args = process.argv.slice(2);
const projectsAsked = args.filter((arg) => arg === 'unit' || arg === 'integration');
const only = projectsAsked[0];
const filters = args.filter((arg) => arg !== only);
// A filter may match files of one project only; the other then has nothing to run.
const filtered = filters.length > 0 ? ['--passWithNoTests', ...filters] : [];

/** Refuses a command line that would run nothing and still report success. */
function checkArguments(): void {
  if (projectsAsked.length > 1) throw new Error('Name one of unit and integration, or neither for both.');
  // vitest filters match anywhere in a file's path; one that matches no test file is a typo.
  const testFiles = readdirSync(join(paths.root, 'test'), { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.test.ts'),
  );
  const unmatched = filters.filter((filter) => !testFiles.some((file) => file.includes(filter)));
  if (unmatched.length > 0) throw new Error(`No test file matches ${unmatched.map((filter) => `"${filter}"`).join(', ')}.`);
  // A renamed mode suite would otherwise drop out of protected mode unnoticed.
  const gone = modeSuites.filter((suite) => !testFiles.includes(suite.slice('test/'.length)));
  if (gone.length > 0) throw new Error(`scripts/test.ts names mode suites that do not exist: ${gone.join(', ')}.`);
}

/**
 * Formatting, lint, types and the OpenAPI linter, two at a time (each is one process on one core).
 * The functions' types are not checked again here: the build has just compiled them with tsc.
 */
async function staticChecks(): Promise<void> {
  await step('API version against the last release', () => {
    const problems = apiVersionProblems();
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });
  await checksSideBySide([
    { name: 'Types (tsc)', command: 'tsc', args: ['-p', '.'] },
    { name: 'Formatting (prettier)', command: 'prettier', args: ['--check', '--log-level', 'warn', '.'] },
    { name: 'Lint (eslint)', command: 'eslint', args: ['.'] },
    {
      name: 'Types (svelte-check)',
      command: 'svelte-check',
      args: ['--tsconfig', './tsconfig.json', '--fail-on-warnings'],
      options: { cwd: paths.hosting },
    },
    {
      name: 'OpenAPI lint (redocly)',
      command: 'redocly',
      args: ['lint', '--format', 'stylish', join(paths.hostingDist, 'api', 'openapi.json')],
      options: { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    },
  ]);
}

/** The vitest filters of a mode's pass: every suite in public mode, the mode suites in protected mode. */
function filtersOf(mode: Mode): string[] | undefined {
  if (mode === 'public') return filtered;
  if (filters.length === 0) return modeSuites;
  const asked = modeSuites.filter((suite) => filters.some((filter) => suite.includes(filter)));
  return asked.length > 0 ? asked : undefined;
}

async function integration(mode: Mode): Promise<void> {
  const suites = filtersOf(mode);
  if (!suites) {
    console.log(`\n▸ No suite asked for runs in ${mode} mode (${modeSuites.join(', ')} do).`);
    return;
  }
  const store = join(paths.root, '.local', `test-store-${mode}`);
  rmSync(store, { recursive: true, force: true });
  // The demo's two weeks of evidence and reports, as `npm start` seeds them: the browser tests
  // read the product as a new user first sees it.
  await seedDemo({ storeDir: store, today: new Date().toISOString().slice(0, 10), timeZone: 'UTC' });
  if (mode === 'protected') {
    // This mode runs on a store in the layout before partitions, migrated as a user upgrading would.
    await step('Store rewritten in the old layout, then migrated', async () => {
      const old = await rewriteLocalStoreInLegacyLayout(store);
      const migrated = await migrateLocalStoreIfNeeded(store, () => undefined);
      if (!migrated) throw new Error('the rewritten store was not recognised as the old layout');
      console.log(`  ${old.items} items and ${old.reports} reports migrated.`);
    });
  }
  // The connectors' vendors, as stand-ins for the connector suites (they save the settings that point at them).
  const standIns = await startStandIns(localConnectorTokens());
  try {
    await step(`Integration tests, ${mode} mode (${projects[mode]})`, () =>
      onEmulators(mode, suites, { ...integrationTestEnv, ...standIns.env, EVIDENT_STORE_DIR: store }),
    );
  } finally {
    await standIns.close();
  }
}

/**
 * A clean start, as `npm start -- --empty` makes one: emulators of its own over an empty store,
 * running the one suite that needs it (the other runs skip it).
 */
async function cleanStart(): Promise<void> {
  const suite = 'test/integration/clean-start.test.ts';
  if (filters.length > 0 && !filters.some((filter) => suite.includes(filter))) return;
  const store = join(paths.root, '.local', 'test-store-empty');
  rmSync(store, { recursive: true, force: true });
  await step('A clean start: the catalog and no evidence, to a first report (public mode)', () =>
    onEmulators('public', [suite], { EVIDENT_STORE_DIR: store, EVIDENT_TEST_START: 'empty' }),
  );
}

/** Runs vitest's integration project on `suites` inside the emulators of `mode`. */
function onEmulators(mode: Mode, suites: string[], env: Record<string, string>): Promise<void> {
  return run(
    'firebase',
    [
      'emulators:exec',
      '--config',
      writeEmulatorConfig(),
      '--project',
      projects[mode],
      '--only',
      emulatorsUsed,
      ['vitest run --project integration', ...suites].join(' '),
    ],
    { env: emulatorEnv({ ...env, EVIDENT_TEST_MODE: mode, EVIDENT_TEST_PROJECT: projects[mode] }) },
  );
}

try {
  checkArguments();
  await step('Build', () => build({ checkGenerated: true, identity: localIdentity }));
  if (only !== 'integration') {
    if (filters.length === 0) await staticChecks();
    await step('Unit tests', () => run('vitest', ['run', '--project', 'unit', '--project', 'unit-runes', ...filtered]));
  }
  if (only !== 'unit') {
    if (!findChromium()) {
      throw new Error('The browser tests need Chromium: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.');
    }
    await integration('public');
    await integration('protected');
    await cleanStart();
  }
  console.log('\n✓ All tests passed.');
} catch (error) {
  console.error(`\n✗ ${(error as Error).message}`);
  process.exit(1);
}
