/**
 * The web bench's baseline app: a hello-world Svelte 5 component built by the same Vite and
 * Svelte plugin as the web app, so "JavaScript for the first view" has a floor to compare with.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../lib/run.ts';

export async function buildSvelteHello(dir: string, hostingDir: string): Promise<string> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><body><div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>\n',
  );
  writeFileSync(
    join(dir, 'src', 'App.svelte'),
    '<script lang="ts">let name = $state("world");</script>\n<h1>Hello {name}</h1>\n',
  );
  writeFileSync(
    join(dir, 'src', 'main.ts'),
    "import { mount } from 'svelte';\nimport App from './App.svelte';\nmount(App, { target: document.getElementById('app')! });\n",
  );
  writeFileSync(
    join(dir, 'vite.config.js'),
    `import { svelte } from '@sveltejs/vite-plugin-svelte';\nexport default { root: ${JSON.stringify(dir)}, plugins: [svelte()], build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' }, logLevel: 'warn' };\n`,
  );
  // Run from hosting/, whose packages (vite, svelte, the plugin) it uses.
  await run('vite', ['build', '--config', join(dir, 'vite.config.js')], { cwd: hostingDir });
  return join(dir, 'dist');
}
