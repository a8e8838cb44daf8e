/**
 * Three test projects: `unit` runs anywhere in seconds; `unit-runes` runs the web app's rune
 * classes (`*.svelte.ts`) compiled by Svelte for the browser, so `$state` and `$effect` behave as
 * on a page; `integration` runs inside `firebase emulators:exec` (see scripts/test.ts) against
 * real emulators and a real browser.
 */
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every core: vitest's default leaves one for itself (one worker on a two-core CI machine,
    // where the unit tests then took 7 minutes instead of 4.5). The integration project runs its
    // files one at a time regardless (fileParallelism: false).
    maxWorkers: '100%',
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.svelte.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        plugins: [svelte({ configFile: false })],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'unit-runes',
          environment: './test/support/runes-environment.ts',
          // Through Vite, so `svelte` resolves to its browser build as the compiled modules do.
          server: { deps: { inline: ['svelte'] } },
          include: ['test/unit/**/*.svelte.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
