/**
 * Web app: the JavaScript the dashboard loads for its first view in public mode beside a
 * hello-world Svelte app, and its Largest Contentful Paint in headless Chromium against the
 * emulators beside the same page as static HTML (see ../web-probe.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { emulatorEnv, emulatorsUsed, hostingOrigin, projects, writeEmulatorConfig } from '../../lib/emulators.ts';
import { paths } from '../../lib/paths.ts';
import { run } from '../../lib/run.ts';
import { resetStore, seedDemo } from '../../lib/seed-demo.ts';
import { work } from '../functions-host.ts';
import type { BenchGroup } from '../group.ts';
import { buildSvelteHello } from '../svelte-hello.ts';
import type { WebFigures } from '../web-probe.ts';

export const webGroup: BenchGroup = {
  name: 'web',
  heading: () => 'Web app: first-view JavaScript and dashboard LCP in headless Chromium, emulators, demo data',
  async measure({ options }) {
    const store = join(work, 'web-store');
    await resetStore(store);
    await seedDemo({ storeDir: store, today: new Date().toISOString().slice(0, 10), timeZone: 'UTC' });
    const hello = await buildSvelteHello(join(work, 'svelte-hello'), paths.hosting);
    const resultFile = join(work, 'web.json');
    const probe = `node scripts/bench/web-probe.ts ${hostingOrigin} ${hello} ${paths.hostingDist} ${Math.max(options.runs, 5)} ${resultFile}`;
    await run(
      'firebase',
      ['emulators:exec', '--config', writeEmulatorConfig(), '--project', projects.public, '--only', emulatorsUsed, probe],
      {
        env: emulatorEnv({ EVIDENT_STORE_DIR: store }),
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const web = JSON.parse(readFileSync(resultFile, 'utf8')) as WebFigures;
    if (web.identitySdkLoaded) throw new Error('The dashboard loaded the identity SDK in public mode.');
    console.log(`  first view loads: ${web.firstViewScripts.join(', ')} (identity SDK not loaded)`);
    return [
      {
        figure: 'web: first-view JavaScript, public mode (gzip)',
        // KB as the issue counts them (1,000 bytes).
        measured: (web.firstViewScriptsGzipKiB * 1024) / 1000,
        baselineName: 'hello-world Svelte app',
        baseline: (web.helloWorldScriptsGzipKiB * 1024) / 1000,
        unit: 'KB',
        target: { withinKB: 60 },
      },
      {
        figure: 'web: dashboard Largest Contentful Paint (median)',
        measured: web.dashboardLcpMs,
        baselineName: 'same page, static HTML',
        baseline: web.staticLcpMs,
        unit: 'ms',
        target: { withinMs: 1000 },
      },
    ];
  },
};
