/**
 * Body bombs against the built functions under functions-framework, as production runs them:
 * each is refused (413, or 415 for a type the function never takes) before it is buffered past
 * the limit of its media type in that function or inflated past 16 MiB, and raises the process's peak memory by less
 * than 64 MB (before the runtime guard: up to 2.2 GB for a 58 KB gzip).
 *
 * The functions run in processes of their own, whatever mode the emulators are in; the test
 * runs once, in the public pass, with the functions in protected mode as the review found them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measureBombs, reviewBombs, uploadBombs, type ServedFunction } from '../../scripts/lib/body-bombs.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { mode } from '../support/emulator.ts';

const store = mkdtempSync(join(tmpdir(), 'evident-bombs-'));
afterAll(() => rmSync(store, { recursive: true, force: true }));

const served = (target: string, path: string): ServedFunction => ({
  source: paths.functions,
  target,
  path,
  env: {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    METADATA_SERVER_DETECTION: 'none',
    GCLOUD_PROJECT: 'demo-evident',
    AUTH_REQUIRED: 'true',
    IDP_PROJECT_ID: 'demo-evident',
    CORS_ORIGINS: '',
    EVIDENT_STORE_DIR: store,
  },
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.runIf(mode === 'public')('body bombs under functions-framework', () => {
  const cases = [
    { target: served('auth', '/api/auth/config'), bombs: reviewBombs(), status: 413, code: 'payload_too_large' },
    { target: served('evidence', '/api/evidence'), bombs: reviewBombs(), status: 413, code: 'payload_too_large' },
    // The uploads function takes JSON only for a review, of a few KiB: JSON is read no further than that.
    { target: served('submissions', '/api/submissions'), bombs: reviewBombs(), status: 413, code: 'payload_too_large' },
    // Form data up to its limit, the largest of all (five 10 MiB files); compressed, up to 16 MiB inflated.
    { target: served('submissions', '/api/submissions'), bombs: uploadBombs(), status: 413, code: 'payload_too_large' },
  ];

  for (const { target, bombs, status, code } of cases) {
    it(`the ${target.target} function answers ${bombs.length} bombs with ${status} ${code} and grows by less than 64 MB for each`, async () => {
      const outcomes = await measureBombs(target, bombs, await freePort());
      expect(outcomes.map(({ bomb, status, code }) => ({ bomb, status, code }))).toEqual(
        bombs.map((bomb) => ({ bomb: bomb.name, status, code })),
      );
      for (const outcome of outcomes) expect([outcome.bomb, outcome.peakGrowthMiB < 64]).toEqual([outcome.bomb, true]);
    }, 120_000);
  }
});
