/**
 * Moves a store written before the partitioned layout (one object per evidence item under
 * `evidence/items/`, reports at `reports/<date>.json`, no listing indexes) to the layout of
 * today (evidence/evidence-layout.ts, reports/report-store.ts). `npm run migrate-store` runs it
 * on a local folder or a bucket; `npm start` runs it on a local store it finds in the old layout.
 *
 * Every step is safe to run twice and to resume after a crash:
 *   1. evidence items are stored again through the evidence store's own import — claims,
 *      batches by UTC day of arrival, index — keeping their `receivedAt`; each old object is
 *      deleted only once its item is stored, so what is left under `evidence/items/` is what is
 *      left to do. An item whose id was meanwhile stored with other content is left in place
 *      and reported, never overwritten;
 *   2. idempotency keys and reports move to their new names (create-only, then the old one goes);
 *   3. submissions and analysis runs, which keep their names, get their listing index entries;
 *   4. the evidence checkpoints are rebuilt: moved items arrived "in the past", after any
 *      checkpoint's watermark had passed them, so the old checkpoints would never count them;
 *   5. exceptions recorded before control indexes get them (exceptions/exception-migration.ts).
 */
import { dayIn } from '../assessment/dates.js';
import type { EvidenceItem, Report } from '../assessment/model.js';
import { AnalysisStore } from '../analyses/analysis-store.js';
import { CheckpointStore } from '../evidence/checkpoint-store.js';
import { EvidenceConflict } from '../evidence/evidence-errors.js';
import { loadSnapshot } from '../evidence/evidence-snapshot.js';
import { EvidenceStore } from '../evidence/evidence-store.js';
import { indexExceptions, type ExceptionMigration } from '../exceptions/exception-migration.js';
import { hasUnindexedExceptions } from '../exceptions/exception-store.js';
import { reportObjectName } from '../reports/report-store.js';
import { reportWriteOptions } from '../reports/report-versions.js';
import { inBatches, listAll, ObjectNotFound, pages, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import { SubmissionStore, type Submission } from '../submissions/submission-store.js';

const legacyItems = 'evidence/items/';
const legacyKeys = 'evidence/idempotency/';
const legacyReport = /^reports\/(\d{4}-\d{2}-\d{2})\.json$/;

export interface MigrationOptions {
  store: ObjectStore;
  /** The clock: the rebuilt checkpoint is of today, as of now. */
  now: Date;
  /** The report time zone, whose today the checkpoint is for. */
  timeZone: string;
  /** Progress lines for a person watching. */
  log?: (line: string) => void;
  /** Old evidence objects read and moved at a time. */
  chunk?: number;
}

export interface MigrationResult {
  evidence: { moved: number; alreadyMoved: number; conflicts: string[] };
  keys: number;
  reports: { moved: number; keptNewer: string[] };
  submissionsIndexed: number;
  runsIndexed: number;
  checkpoint: { date: string; items: number };
  exceptions: ExceptionMigration;
}

/** Whether a store still holds objects in the layout before partitions. */
export async function hasLegacyLayout(store: ObjectStore): Promise<boolean> {
  const [items, reports] = await Promise.all([store.list(legacyItems, { pageSize: 1 }), store.list('reports/', { pageSize: 1 })]);
  return items.items.length > 0 || legacyReport.test(reports.items[0]?.name ?? '') || (await hasUnindexedExceptions(store));
}

export async function migrateStore(options: MigrationOptions): Promise<MigrationResult> {
  const { store } = options;
  const log = options.log ?? (() => undefined);
  const evidence = await moveEvidence(store, options.chunk ?? 500, log);
  const keys = await moveKeys(store);
  log(`Idempotency keys moved: ${keys}.`);
  const reports = await moveReports(store);
  log(
    `Reports: ${reports.moved} moved${reports.keptNewer.length > 0 ? `; kept the newer report of ${reports.keptNewer.join(', ')}` : ''}.`,
  );
  const submissionsIndexed = await indexSubmissions(store);
  const runsIndexed = await indexRuns(store);
  log(`Filed in the listing indexes: submissions ${submissionsIndexed}, analysis runs ${runsIndexed}.`);
  const checkpoint = await rebuildCheckpoint(store, options.now, options.timeZone);
  log(`Evidence checkpoint of ${checkpoint.date}: ${checkpoint.items} items, folded from every batch.`);
  const exceptions = await indexExceptions(store, options.now);
  log(`Exceptions: ${exceptions.exceptions} found, the indexes of ${exceptions.controls} controls written.`);
  return { evidence, keys, reports, submissionsIndexed, runsIndexed, checkpoint, exceptions };
}

async function moveEvidence(
  store: ObjectStore,
  chunk: number,
  log: (line: string) => void,
): Promise<MigrationResult['evidence']> {
  // No settle time: nothing but this migration writes claims for these ids, so a claim without
  // its batch is one an interrupted run of it left.
  const evidence = new EvidenceStore(store, { settleMs: 0 });
  const result: MigrationResult['evidence'] = { moved: 0, alreadyMoved: 0, conflicts: [] };
  for await (const page of pages(store, legacyItems, { pageSize: chunk })) {
    const names = page.items.map((info) => info.name);
    const items = await inBatches(
      names,
      32,
      async (name) => JSON.parse((await store.read(name)).data.toString('utf8')) as EvidenceItem,
    );
    const stored = await importAll(evidence, items, result);
    await inBatches(
      names.filter((_, index) => stored[index]),
      32,
      (name) => store.delete(name).catch(ignoreMissing),
    );
    if (names.length > 0) log(`Evidence: ${result.moved + result.alreadyMoved} items moved so far.`);
  }
  if (result.conflicts.length > 0) {
    log(
      `Evidence: ${result.conflicts.length} items were left under ${legacyItems}: their ids were stored since with other ` +
        `content (${result.conflicts.slice(0, 5).join(', ')}${result.conflicts.length > 5 ? ', …' : ''}).`,
    );
  }
  return result;
}

/** Imports a chunk; when one item conflicts, the others are imported one by one. Says which were stored. */
async function importAll(
  evidence: EvidenceStore,
  items: EvidenceItem[],
  result: MigrationResult['evidence'],
): Promise<boolean[]> {
  const tally = (outcomes: { status: string }[]) => {
    for (const outcome of outcomes) {
      if (outcome.status === 'created') result.moved++;
      else result.alreadyMoved++;
    }
  };
  try {
    tally(await evidence.importItems(items));
    return items.map(() => true);
  } catch (error) {
    if (!(error instanceof EvidenceConflict)) throw error;
  }
  const stored: boolean[] = [];
  for (const item of items) {
    try {
      tally(await evidence.importItems([item]));
      stored.push(true);
    } catch (error) {
      if (!(error instanceof EvidenceConflict)) throw error;
      result.conflicts.push(item.id);
      stored.push(false);
    }
  }
  return stored;
}

async function moveKeys(store: ObjectStore): Promise<number> {
  let moved = 0;
  for (const info of await listAll(store, legacyKeys)) {
    const { data, info: stored } = await store.read(info.name);
    await store
      .create(`evidence-keys/${info.name.slice(legacyKeys.length)}`, data, { contentType: stored.contentType })
      .catch(ignoreExisting);
    await store.delete(info.name).catch(ignoreMissing);
    moved++;
  }
  return moved;
}

async function moveReports(store: ObjectStore): Promise<MigrationResult['reports']> {
  const result: MigrationResult['reports'] = { moved: 0, keptNewer: [] };
  for (const info of await listAll(store, 'reports/')) {
    const date = legacyReport.exec(info.name)?.[1];
    if (!date) continue;
    const { data } = await store.read(info.name);
    const report = JSON.parse(data.toString('utf8')) as Report;
    try {
      await store.create(reportObjectName(date), data, reportWriteOptions(report));
      result.moved++;
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      // Already moved by an interrupted run, or made since by the new version: the one there stands.
      const existing = await store.read(reportObjectName(date));
      if (existing.data.equals(data)) result.moved++;
      else result.keptNewer.push(date);
    }
    await store.delete(info.name).catch(ignoreMissing);
  }
  return result;
}

async function indexSubmissions(store: ObjectStore): Promise<number> {
  const submissions = new SubmissionStore(store, new EvidenceStore(store));
  const records = (await listAll(store, 'submissions/')).filter((info) => /^submissions\/[^/]+\.json$/.test(info.name));
  await inBatches(records, 16, async (info) => {
    const submission = JSON.parse((await store.read(info.name)).data.toString('utf8')) as Submission;
    await submissions.index(submission);
  });
  return records.length;
}

async function indexRuns(store: ObjectStore): Promise<number> {
  const analyses = new AnalysisStore(store);
  const runs = (await listAll(store, 'analyses/runs/')).map((info) => /^analyses\/runs\/(.+)\.json$/.exec(info.name)?.[1]);
  const ids = runs.filter((id): id is string => id !== undefined);
  await inBatches(ids, 16, (id) => analyses.index(id));
  return ids.length;
}

async function rebuildCheckpoint(store: ObjectStore, now: Date, timeZone: string): Promise<MigrationResult['checkpoint']> {
  const checkpoints = new CheckpointStore(store);
  await checkpoints.clear();
  const date = dayIn(timeZone, now);
  const snapshot = await loadSnapshot({
    evidence: new EvidenceStore(store),
    checkpoints,
    date,
    asOf: now,
    receivedUpTo: now,
    checkpoint: true,
  });
  return { date, items: snapshot.items.length };
}

function ignoreMissing(error: unknown): void {
  if (!(error instanceof ObjectNotFound)) throw error;
}

function ignoreExisting(error: unknown): void {
  if (!(error instanceof PreconditionFailed)) throw error;
}
