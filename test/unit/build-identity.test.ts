/**
 * The build says which sign-in settings the web app lacks, looking where Vite does: a deployment
 * that keeps them in hosting/.env.production.local (docs/deployment.md) is not told they are missing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { missingIdentity } from '../../scripts/lib/build-identity.ts';

let hosting: string;

beforeEach(async () => {
  hosting = await mkdtemp(join(tmpdir(), 'evident-hosting-'));
  for (const name of ['IDP_API_KEY', 'IDP_AUTH_DOMAIN', 'IDP_PROJECT_ID']) vi.stubEnv(name, undefined);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(hosting, { recursive: true, force: true });
});

describe('missingIdentity', () => {
  it('names every setting when none is anywhere', () => {
    expect(missingIdentity(hosting)).toEqual(['IDP_API_KEY', 'IDP_AUTH_DOMAIN', 'IDP_PROJECT_ID']);
  });

  it('finds them in hosting/.env.production.local', async () => {
    await writeFile(
      join(hosting, '.env.production.local'),
      'IDP_API_KEY=AIza-example\nIDP_AUTH_DOMAIN=your-project-id.firebaseapp.com\nIDP_PROJECT_ID=your-project-id\n',
    );
    expect(missingIdentity(hosting)).toEqual([]);
  });

  it('finds them across the environment, the .env files and the values a script passes', async () => {
    await writeFile(join(hosting, '.env'), 'IDP_AUTH_DOMAIN=your-project-id.firebaseapp.com\n');
    vi.stubEnv('IDP_API_KEY', 'AIza-example');
    expect(missingIdentity(hosting)).toEqual(['IDP_PROJECT_ID']);
    expect(missingIdentity(hosting, { IDP_PROJECT_ID: 'your-project-id' })).toEqual([]);
  });

  it('counts a blank value as missing', async () => {
    await writeFile(
      join(hosting, '.env.production.local'),
      'IDP_API_KEY=\nIDP_AUTH_DOMAIN=a.firebaseapp.com\nIDP_PROJECT_ID=a\n',
    );
    expect(missingIdentity(hosting, { IDP_AUTH_DOMAIN: ' ' })).toEqual(['IDP_API_KEY', 'IDP_AUTH_DOMAIN']);
  });
});
