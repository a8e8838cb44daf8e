/**
 * The unit-runes project's test environment: Node's globals (fetch, a loopback server), with the
 * modules under test transformed by Vite's client environment, so Svelte compiles them for the
 * browser and `$effect` runs as it does on a page (the default Node environment would get
 * Svelte's server build, where effects never run).
 */
import type { Environment } from 'vitest/runtime';

export default {
  name: 'runes',
  viteEnvironment: 'client',
  setup: () => ({ teardown: () => undefined }),
} satisfies Environment;
