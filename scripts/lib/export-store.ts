/**
 * Copies the objects under some prefixes of a store (by default the evidence batches and the
 * daily reports) to plain files, `<outDir>/<object name>`. A local store keeps objects in a
 * format of its own; the copy is the layout a bucket shows, so DuckDB can query it as BigQuery
 * queries the bucket (docs/analytics.md). Files already there are overwritten and none are
 * deleted: evidence is append-only, so exporting again into the same folder brings it up to date.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { pages, type ObjectInfo, type ObjectStore } from '../../functions/src/storage/object-store.ts';

export const exportedPrefixes = ['evidence/', 'reports/'] as const;

/** Objects read at once: enough to hide the latency of a bucket, few enough that memory stays small. */
const concurrency = 8;
const pageSize = 1000;

export interface ExportResult {
  files: number;
  bytes: number;
}

export async function exportStore(
  store: ObjectStore,
  outDir: string,
  prefixes: readonly string[] = exportedPrefixes,
): Promise<ExportResult> {
  const root = resolve(outDir);
  const result: ExportResult = { files: 0, bytes: 0 };
  const copy = async (info: ObjectInfo) => {
    const target = resolve(root, info.name);
    // Object names have no `..` segment, but the file system is no place to trust that.
    if (!target.startsWith(root + sep)) throw new Error(`The object "${info.name}" would be written outside ${root}.`);
    const { data } = await store.read(info.name);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data);
    result.files++;
    result.bytes += data.length;
  };
  for (const prefix of prefixes) {
    for await (const page of pages(store, prefix, { pageSize })) await eachAtMost(concurrency, page.items, copy);
  }
  return result;
}

/** Runs `work` on every value with at most `limit` running: a slow object holds up one worker, not a batch. */
async function eachAtMost<T>(limit: number, values: readonly T[], work: (value: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < values.length) await work(values[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, values.length) }, worker));
}
