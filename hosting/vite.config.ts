/** Builds the web app into `dist/`, which Firebase Hosting serves; hashed files land in `dist/assets/`. */
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [svelte()],
  // The sign-in settings are read at build time from IDP_API_KEY, IDP_AUTH_DOMAIN and IDP_PROJECT_ID.
  envPrefix: ['VITE_', 'IDP_'],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    // `vite` in hosting/ during UI work: the API comes from the running Hosting emulator.
    proxy: { '/api': 'http://127.0.0.1:5000' },
  },
});
