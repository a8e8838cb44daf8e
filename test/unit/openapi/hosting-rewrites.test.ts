/**
 * The Hosting rewrites are made from the description's families (scripts/lib/hosting-rewrites.ts),
 * so a family added to the description is routed without touching firebase.json by hand.
 */
import { readFileSync } from 'node:fs';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { describe, expect, it } from 'vitest';
import { functionsRegion } from '../../../functions/src/config.ts';
import { hostingRewrites, withHostingRewrites } from '../../../scripts/lib/hosting-rewrites.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { specDocument } from '../../support/families.ts';

describe('the Hosting rewrites', () => {
  it("route each family to its function in the functions' region, in the order of the description, then the fallback, then the web app", () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'probe', version: '1.0.0' },
      paths: { '/api/zeta/{id}': { get: {} }, '/api/alpha': { post: {} }, '/api/zeta': { get: {} } },
    } as unknown as OpenAPIObject;
    expect(hostingRewrites(document)).toEqual([
      { regex: '^/api/zeta(?:/.*)?$', function: { functionId: 'zeta', region: functionsRegion } },
      { regex: '^/api/alpha(?:/.*)?$', function: { functionId: 'alpha', region: functionsRegion } },
      { regex: '^/api(?:/.*)?$', function: { functionId: 'fallback', region: functionsRegion } },
      { regex: '^/(?:[^/]+/)*[^/.]*$', destination: '/index.html' },
    ]);
  });

  it('are written into firebase.json in place of stale ones, the rest of the file kept as written', async () => {
    const committed = readFileSync(paths.firebaseJson, 'utf8');
    const stale = JSON.parse(committed) as { hosting: { rewrites: unknown[] } };
    stale.hosting.rewrites = stale.hosting.rewrites.slice(1);
    expect(await withHostingRewrites(paths.firebaseJson, JSON.stringify(stale), specDocument())).toBe(committed);
  });
});
