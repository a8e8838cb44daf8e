/**
 * Audit packages built in the background: what was asked for (a record, written once when the
 * package is asked for), how the build went (its events, as analyses keep theirs), and the zip
 * itself, stored in parts of `partBytes` so the job never holds more than one part and a ranged
 * download reads only the parts it covers. State, progress and the file are derived from the
 * record and the events, so there is nothing else to keep in step.
 *
 * An id names its period and the fingerprint of the reports behind it
 * (`pkg-<from>-<to>-<fingerprint>-<random>`), so the packages of one period and one set of
 * reports are found with one listing of their prefix, without reading any other.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from '../assessment/model.js';
import { EventLog } from '../common/event-log.js';
import type { components } from '../generated/api-types.js';
import { listAll, ObjectNotFound, type ObjectStore } from '../storage/object-store.js';

type Schemas = components['schemas'];
export type AuditPackage = Schemas['AuditPackage'];
export type AuditPackageEvent = Schemas['AuditPackageEvent'];
export type AuditPackageProgress = AuditPackage['progress'];

/** Every part but the last holds this many bytes: enough to keep writes few, small enough to hold one. */
export const partBytes = 8 * 1024 * 1024;

const recordsPrefix = 'audit/packages/';
const dayMs = 86_400_000;
/** The most packages listed: the newest, of those not yet lapsed. */
const maxListed = 100;

export interface PackageRecord {
  id: string;
  from: string;
  to: string;
  /** Of the period's reports and their generations when it was asked for. */
  fingerprint: string;
  requestedBy: Actor;
  requestedAt: string;
  expiresAt: string;
}

/** A package's build events, under `audit/events/<id>/`. */
export class AuditPackageLog extends EventLog<AuditPackageEvent> {
  constructor(store: ObjectStore, id: string) {
    super(store, 'audit/events', id);
  }
}

/** The stored parts of one attempt of a build, in order. */
export const partName = (id: string, attempt: number, part: number) =>
  `audit/parts/${id}/${attempt}/${String(part).padStart(6, '0')}.bin`;

const recordName = (id: string) => `${recordsPrefix}${id}.json`;
const compact = (date: string) => date.replaceAll('-', '');

/** The fingerprint of a period's reports: each day and the generation of its report, which a publish changes. */
export function fingerprintOf(reports: readonly { date: string; generation: string }[]): string {
  const hash = createHash('sha256');
  for (const { date, generation } of reports) hash.update(`${date} ${generation}\n`);
  return hash.digest('hex').slice(0, 12);
}

export const packageLinks = (id: string): AuditPackage['links'] => ({
  self: `/api/audit/packages/${id}`,
  events: `/api/audit/packages/${id}/events`,
  download: `/api/audit/packages/${id}/download`,
});

export const packageFileName = (from: string, to: string) => `evident-audit-${from}-to-${to}.zip`;

/** The package as readers see it, from its record and the events persisted so far. */
export function describePackage(record: PackageRecord, events: readonly AuditPackageEvent[]): AuditPackage {
  const described: AuditPackage = {
    id: record.id,
    from: record.from,
    to: record.to,
    state: 'queued',
    progress: { reports: 0, reportsTotal: 0, files: 0, bytes: 0 },
    requestedBy: record.requestedBy,
    requestedAt: record.requestedAt,
    expiresAt: record.expiresAt,
    lastEventId: events.length,
    links: packageLinks(record.id),
  };
  for (const event of events) {
    if (event.type === 'run.started') {
      described.state = 'building';
      described.progress.reportsTotal = event.data.reportsTotal;
    } else if (event.type === 'run.progress') described.progress = { ...event.data };
    else if (event.type === 'run.completed') {
      described.state = 'ready';
      described.file = event.data.file;
    } else if (event.type === 'run.failed') {
      described.state = 'failed';
      described.problem = event.data.problem;
    }
  }
  return described;
}

/** Where a ready package's bytes are: the attempt whose parts hold it, and every part's length but the last's. */
export function partsOf(events: readonly AuditPackageEvent[]): { attempt: number; partBytes: number } | undefined {
  const started = events.filter((event) => event.type === 'run.started').length;
  const completed = events.find((event) => event.type === 'run.completed');
  if (completed?.type !== 'run.completed') return undefined;
  return { attempt: started, partBytes: completed.data.partBytes };
}

export class PackageBuilds {
  readonly #store: ObjectStore;
  readonly #keepDays: () => number;

  constructor(store: ObjectStore, keepDays: () => number) {
    this.#store = store;
    this.#keepDays = keepDays;
  }

  /** Records a package asked for; its id is new, so the write is create-only. */
  async open(period: { from: string; to: string; fingerprint: string }, requestedBy: Actor, now: Date): Promise<PackageRecord> {
    const id = `pkg-${compact(period.from)}-${compact(period.to)}-${period.fingerprint}-${randomBytes(3).toString('hex')}`;
    const record: PackageRecord = {
      id,
      ...period,
      requestedBy,
      requestedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.#keepDays() * dayMs).toISOString(),
    };
    // The expiry in the metadata lets a sweep find lapsed packages from one listing, reading none.
    await this.#store.create(recordName(id), JSON.stringify(record), {
      contentType: 'application/json',
      metadata: { expiresAt: record.expiresAt },
    });
    return record;
  }

  async find(id: string, now: Date): Promise<PackageRecord | undefined> {
    try {
      const record = JSON.parse((await this.#store.read(recordName(id))).data.toString('utf8')) as PackageRecord;
      return record.expiresAt > now.toISOString() ? record : undefined;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /** The packages of this period and these reports not yet lapsed, newest first: one listing of their prefix. */
  async sameAs(period: { from: string; to: string; fingerprint: string }, now: Date): Promise<PackageRecord[]> {
    const prefix = `${recordsPrefix}pkg-${compact(period.from)}-${compact(period.to)}-${period.fingerprint}-`;
    return this.#read(await listAll(this.#store, prefix), now);
  }

  /** The packages not yet lapsed, newest first (the newest `maxListed`): one listing, then only those read. */
  async list(now: Date): Promise<PackageRecord[]> {
    const live = (await listAll(this.#store, recordsPrefix)).filter(
      (info) => (info.metadata.expiresAt ?? '') > now.toISOString(),
    );
    const newest = live.sort((a, b) => b.updated.localeCompare(a.updated)).slice(0, maxListed);
    return this.#read(newest, now);
  }

  /** Deletes the lapsed packages: their parts, their events, then their record (so a failed sweep is done again). */
  async sweep(now: Date): Promise<number> {
    const lapsed = (await listAll(this.#store, recordsPrefix)).filter(
      (info) => (info.metadata.expiresAt ?? '') !== '' && info.metadata.expiresAt! <= now.toISOString(),
    );
    for (const info of lapsed) {
      const id = info.name.slice(recordsPrefix.length, -'.json'.length);
      for (const prefix of [`audit/parts/${id}/`, `audit/events/${id}/`]) {
        for (const object of await listAll(this.#store, prefix)) await this.#store.delete(object.name).catch(ignoreMissing);
      }
      await this.#store.delete(info.name).catch(ignoreMissing);
    }
    return lapsed.length;
  }

  async #read(infos: readonly { name: string }[], now: Date): Promise<PackageRecord[]> {
    const records = await Promise.all(
      infos.map((info) => this.find(info.name.slice(recordsPrefix.length, -'.json'.length), now)),
    );
    return records
      .filter((record): record is PackageRecord => record !== undefined)
      .sort((a, b) => b.requestedAt.localeCompare(a.requestedAt));
  }
}

function ignoreMissing(error: unknown): void {
  if (!(error instanceof ObjectNotFound)) throw error;
}
