/**
 * Brings exceptions recorded before control indexes into today's layout (exception-layout.ts):
 * every record and revocation gets its control in its metadata (the same bytes written again,
 * at the generation read), and every control that has exceptions gets its index, built from
 * those that have not ended more than `keptDays` ago. It reads the whole history once, which is
 * what a migration is for; `npm run migrate-store` runs it (migration/migrate-store.ts).
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
import { idOfName, indexName, recordsPrefix, revocationName, revocationsPrefix, writeOptionsFor } from './exception-layout.js';
import type { ExceptionRecord, Revocation } from './exception-store.js';

export interface ExceptionMigration {
  /** Records found. */
  exceptions: number;
  /** Controls whose index was written. */
  controls: number;
}

export async function indexExceptions(store: ObjectStore, now: Date): Promise<ExceptionMigration> {
  const [records, revocations] = await Promise.all([listAll(store, recordsPrefix), listAll(store, revocationsPrefix)]);
  const revoked = new Set(revocations.map((info) => idOfName(info.name)));
  const controlOf = new Map<string, string>();
  const entries = new Map<string, IndexEntry[]>();
  await inBatches(records, 32, async (info) => {
    const { data } = await store.read(info.name);
    const record = JSON.parse(data.toString('utf8')) as ExceptionRecord;
    await labelled(store, info, data, record.controlId);
    controlOf.set(record.id, record.controlId);
    const revocation = revoked.has(record.id) ? await readRevocation(store, record.id) : undefined;
    const { id, subject, expiresOn, createdAt, approver } = record;
    const entry: IndexEntry = {
      id,
      subject,
      expiresOn,
      createdAt,
      approver,
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

async function readRevocation(store: ObjectStore, id: string): Promise<Revocation> {
  return JSON.parse((await store.read(revocationName(id))).data.toString('utf8')) as Revocation;
}
