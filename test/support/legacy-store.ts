/**
 * Loads the fixture store written by Evident before the partitioned layout
 * (test/fixtures/legacy-store/, made by that version's own code) into a store.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { ObjectStore } from '../../functions/src/storage/object-store.ts';

const fixture = new URL('../fixtures/legacy-store/demo-store.ndjson.gz', import.meta.url);

export interface LegacyObject {
  name: string;
  contentType: string;
  metadata: Record<string, string>;
  data: Buffer;
}

export function legacyObjects(): LegacyObject[] {
  return gunzipSync(readFileSync(fixture))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const entry = JSON.parse(line) as {
        name: string;
        contentType: string;
        metadata: Record<string, string>;
        text?: string;
        base64?: string;
      };
      const data = entry.text !== undefined ? Buffer.from(entry.text, 'utf8') : Buffer.from(entry.base64!, 'base64');
      return { name: entry.name, contentType: entry.contentType, metadata: entry.metadata, data };
    });
}

export async function loadLegacyStore(store: ObjectStore): Promise<LegacyObject[]> {
  const objects = legacyObjects();
  for (const { name, contentType, metadata, data } of objects) await store.create(name, data, { contentType, metadata });
  return objects;
}
