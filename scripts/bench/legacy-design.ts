/**
 * How Evident read evidence and reports before the partitioned layout (commit 8247efd), for the
 * storage benchmark's baseline: the same calls in the same order, with the same concurrency,
 * against the layout it wrote — every item its own object under `evidence/items/`, every report
 * at `reports/<date>.json`. Evaluation itself is today's engine, so the comparison is of reads.
 *
 *   daily job   list every item name, read every item 32 at a time, find the latest report
 *               before the day (list the report names, read it), evaluate, store the report;
 *   listing     the same read of every item, then filter, sort and slice a page.
 */
import type { CompiledCatalog } from '../../functions/src/assessment/evaluate.ts';
import type * as EvaluateModule from '../../functions/src/assessment/evaluate.ts';
import type { EvidenceItem, Report } from '../../functions/src/assessment/model.ts';
import { inBatches, listNames, type ObjectStore } from '../../functions/src/storage/object-store.ts';

export async function everyLegacyItem(store: ObjectStore): Promise<EvidenceItem[]> {
  const names = await listNames(store, 'evidence/items/');
  return inBatches(names, 32, async (name) => JSON.parse((await store.read(name)).data.toString('utf8')) as EvidenceItem);
}

export async function legacyDailyRun(
  store: ObjectStore,
  engine: Pick<typeof EvaluateModule, 'evaluate'>,
  catalog: CompiledCatalog,
  { date, now }: { date: string; now: Date },
): Promise<Report> {
  await store.read(`reports/${date}.json`).catch(() => undefined);
  const [items, previous] = await Promise.all([
    everyLegacyItem(store),
    (async () => {
      const dates = (await listNames(store, 'reports/'))
        .map((name) => name.slice(8, 18))
        .filter((day) => day < date)
        .sort();
      const last = dates.at(-1);
      return last ? (JSON.parse((await store.read(`reports/${last}.json`)).data.toString('utf8')) as Report) : null;
    })(),
  ]);
  const report = engine.evaluate(catalog, {
    date,
    timeZone: 'UTC',
    asOf: now,
    generatedAt: now,
    runId: 'legacy',
    evidence: items,
    previous,
  });
  await store.create(`reports/${date}.json`, JSON.stringify(report), { contentType: 'application/json' }).catch(() => undefined);
  return report;
}

export async function legacyListingPage(
  store: ObjectStore,
  { limit, subject }: { limit: number; subject?: string },
): Promise<EvidenceItem[]> {
  const items = await everyLegacyItem(store);
  return items
    .filter((item) => subject === undefined || item.subject === subject)
    .sort((a, b) => Date.parse(b.collectedAt) - Date.parse(a.collectedAt) || (a.id < b.id ? 1 : -1))
    .slice(0, limit);
}
