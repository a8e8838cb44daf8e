/**
 * One version everywhere it is written: the packages, the description, the header the functions
 * send, the header Hosting sends with the static description, and the last release's baseline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDocument } from '../../../openapi/document.ts';
import { apiVersion } from '../../../functions/src/generated/api-version.ts';
import { bumpBetween } from '../../../scripts/lib/api-changes.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { releasedDescription } from '../../../scripts/lib/released-description.ts';
import { openapiSource } from '../../../scripts/release.ts';

const versionOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;

describe('the API version', () => {
  it('is the same in the three packages, the description and the functions', () => {
    const version = buildDocument().info.version;
    expect([paths.root, paths.functions, paths.hosting].map((dir) => versionOf(join(dir, 'package.json')))).toEqual([
      version,
      version,
      version,
    ]);
    expect(apiVersion).toBe(version);
  });

  it('is sent by Hosting with the static description', () => {
    const firebase = JSON.parse(readFileSync(paths.firebaseJson, 'utf8')) as {
      hosting: { headers: { source?: string; headers: { key: string; value: string }[] }[] };
    };
    const entry = firebase.hosting.headers.find((headers) => headers.source === openapiSource);
    expect(entry?.headers.find((header) => header.key === 'Evident-Api-Version')?.value).toBe(apiVersion);
  });

  it('is at or past the last release, whose baseline is kept', () => {
    const released = releasedDescription();
    expect(released?.file).toBe(join(paths.releasedDescriptions, `${released?.version}.json`));
    expect(() => bumpBetween(released!.version, apiVersion)).not.toThrow();
  });
});
