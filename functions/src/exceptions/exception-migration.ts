/**
 * Brings exceptions recorded before control indexes into today's layout (exception-layout.ts):
 * every record and revocation gets its control in its metadata (the same bytes written again,
 * at the generation read), and every control that has exceptions gets its index, built from
 * those that have not ended more than `keptDays` ago. It reads the whole history once, which is
 * what a migration is for; `npm run migrate-store` runs it (migration/migrate-store.ts).
 *
 * Records written before requests were reviewed are left as they are: they read as approved at
 * once by their approver (exception-records.ts), and their entries say so.
 *
 * Safe to run twice, and beside a service already writing indexes: entries are merged into what
 * an index holds, a revocation there is kept, and metadata already written is left alone.
 */
import {
  inBatches,
  listAll,
  mutateObject,
  PreconditionFailed,
  type ObjectInfo,
  type ObjectStore,
} from '../storage/object-store.js';
import { parseIndex, withEntries, type IndexEntry } from './exception-index.js';
import {
  idOfName,
  indexName,
  recordsPrefix,
  reviewName,
  reviewsPrefix,
  revocationName,
  revocationsPrefix,
  writeOptionsFor,
} from './exception-layout.js';
import { readRecord, type Review, type Revocation } from './exception-records.js';

export interface ExceptionMigration {
  /** Records found. */
  exceptions: number;
  /** Controls whose index was written. */
  controls: number;
}

export async function indexExceptions(store: ObjectStore, now: Date): Promise<ExceptionMigration> {
  const [records, reviews, revocations] = await Promise.all([
    listAll(store, recordsPrefix),
    listAll(store, reviewsPrefix),
    listAll(store, revocationsPrefix),
  ]);
  const reviewed = new Set(reviews.map((info) => idOfName(info.name)));
  const revoked = new Set(revocations.map((info) => idOfName(info.name)));
  const controlOf = new Map<string, string>();
  const entries = new Map<string, IndexEntry[]>();
  await inBatches(records, 32, async (info) => {
    const { data } = await store.read(info.name);
    const { record, approvedAtOnce } = readRecord(data);
    await labelled(store, info, data, record.controlId);
    controlOf.set(record.id, record.controlId);
    const review = approvedAtOnce ?? (reviewed.has(record.id) ? await readJson<Review>(store, reviewName(record.id)) : undefined);
    const revocation = revoked.has(record.id) ? await readJson<Revocation>(store, revocationName(record.id)) : undefined;
    const { id, subject, expiresOn, createdAt, requestedBy } = record;
    const entry: IndexEntry = {
      id,
      subject,
      expiresOn,
      createdAt,
      requestedBy,
      ...(review?.decision === 'approved'
        ? { approval: { at: review.at, by: review.by, independent: review.independent } }
        : review
          ? { refusedAt: review.at }
          : {}),
      ...(revocation ? { revokedAt: revocation.at } : {}),
    };
    const ofControl = entries.get(record.controlId);
    if (ofControl) ofControl.push(entry);
    else entries.set(record.controlId, [entry]);
  });
  await inBatches(revocations, 32, async (info) => {
    const controlId = controlOf.get(idOfName(info.name));
    if (controlId !== undefined && info.metadata['controlId'] === undefined) {
      await labelled(store, info, (await store.read(info.name)).data, controlId);
    }
  });
  const at = now.toISOString();
  await inBatches([...entries], 8, ([controlId, found]) =>
    mutateObject(store, indexName(controlId), (current) => JSON.stringify(withEntries(parseIndex(current), found, at)), {
      contentType: 'application/json',
    }),
  );
  return { exceptions: records.length, controls: entries.size };
}

/** Writes an object again with its control in its metadata, unless it says so already or changed since it was listed. */
async function labelled(store: ObjectStore, info: ObjectInfo, data: Buffer, controlId: string): Promise<void> {
  if (info.metadata['controlId'] !== undefined) return;
  try {
    await store.replace(info.name, data, info.generation, writeOptionsFor(controlId));
  } catch (error) {
    if (!(error instanceof PreconditionFailed)) throw error;
  }
}

async function readJson<T>(store: ObjectStore, name: string): Promise<T> {
  return JSON.parse((await store.read(name)).data.toString('utf8')) as T;
}
