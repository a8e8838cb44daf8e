/**
 * The background build of an audit package: the same files as the package made while it is sent
 * (audit-package.ts), zipped as they are made and stored in parts as the zip grows, with the
 * SHA-256 of the whole. Memory holds the files the package builder holds and one part; progress is
 * an event per stored part and every few report days. A task retried after a lost attempt starts
 * again and writes its parts afresh under its own attempt number (the count of `run.started`
 * events), so the parts a completed build names are always one attempt's.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { dayIn } from '../assessment/dates.js';
import { EventConflict } from '../common/event-log.js';
import { apiVersion } from '../generated/api-version.js';
import { logs } from '../logs.js';
import { closingFiles, newPackageFacts, packageFiles, type PackageRequest, type PackageSources } from './audit-package.js';
import {
  AuditPackageLog,
  packageFileName,
  partBytes,
  partName,
  type AuditPackageProgress,
  type PackageRecord,
} from './package-builds.js';
import { zipStream } from './zip-writer.js';

/** What a build reads from: the package's sources, the clock, the report time zone, and the key that signs its manifest. */
export type BuildSources = PackageSources & { now: () => Date; timeZone: () => string; signingKey?: () => KeyObject | undefined };

/** Report days between progress events, besides one per stored part. */
const reportsPerProgress = 10;

/** Zip bytes cut into parts of exactly `size` (the last shorter), each handed to `store` in order. */
class PartWriter {
  readonly #size: number;
  readonly #store: (part: number, data: Buffer) => Promise<void>;
  #chunks: Buffer[] = [];
  #held = 0;
  parts = 0;
  bytes = 0;
  readonly hash = createHash('sha256');

  constructor(size: number, store: (part: number, data: Buffer) => Promise<void>) {
    this.#size = size;
    this.#store = store;
  }

  /** Takes a chunk, storing each part it fills. */
  async add(chunk: Buffer): Promise<void> {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    this.#chunks.push(chunk);
    this.#held += chunk.length;
    while (this.#held >= this.#size) {
      const whole = Buffer.concat(this.#chunks);
      await this.#store(++this.parts, whole.subarray(0, this.#size));
      this.#chunks = [whole.subarray(this.#size)];
      this.#held = whole.length - this.#size;
    }
  }

  async finish(): Promise<void> {
    if (this.#held > 0 || this.parts === 0) await this.#store(++this.parts, Buffer.concat(this.#chunks));
    this.#chunks = [];
    this.#held = 0;
  }
}

/** Builds the package `record` names, in parts of `size` bytes; a build already ended is left as it is. */
export async function buildPackage(s: BuildSources, record: PackageRecord, size = partBytes): Promise<void> {
  const log = new AuditPackageLog(s.store, record.id);
  await log.refresh();
  if (log.ended) return;
  try {
    await build(s, record, log, size);
  } catch (error) {
    // A twin attempt that ended the build first has said how it went.
    if (error instanceof EventConflict) return;
    logs.auditPackageFailed(record.id, error);
    await log
      .append('run.failed', { problem: 'The package could not be built; ask for it again.' }, s.now())
      .catch((conflict: unknown) => {
        if (!(conflict instanceof EventConflict)) throw conflict;
      });
  }
}

async function build(s: BuildSources, record: PackageRecord, log: AuditPackageLog, size: number): Promise<void> {
  const { dates, monthBefore } = await s.reports.periodDates(record.from, record.to);
  // The log was read up to date just before, and every write is create-only, so each event is
  // written at the number after the last without reading the log again (a read an event saved):
  // a twin attempt's event at that number fails the write and ends this one (EventConflict).
  const next = () => log.lastId + 1;
  await log.appendAt(next(), 'run.started', { reportsTotal: dates.length }, s.now());
  // Each attempt's parts are its own: the attempt is how many times the build started (partsOf reads it back).
  const attempt = log.events.filter((event) => event.type === 'run.started').length;
  const request: PackageRequest = {
    from: record.from,
    to: record.to,
    dates,
    monthBefore,
    today: dayIn(s.timeZone(), s.now()),
    timeZone: s.timeZone(),
    generatedAt: new Date(record.requestedAt),
    apiVersion,
    requestedBy: record.requestedBy,
  };
  const signingKey = s.signingKey?.();
  if (signingKey) request.signingKey = signingKey;
  const facts = newPackageFacts();
  let files = 0;
  let reportedAt = 0;
  // One chunk may fill several parts (a large file comes whole): an event for each.
  const writer = new PartWriter(size, async (part, data) => {
    await s.store.create(partName(record.id, attempt, part), data, { contentType: 'application/octet-stream' });
    reportedAt = facts.reports.length;
    await log.appendAt(next(), 'run.progress', progress(), s.now());
  });
  const progress = (): AuditPackageProgress => ({
    reports: facts.reports.length,
    reportsTotal: dates.length,
    files,
    bytes: writer.parts * size,
  });
  const zip = zipStream(
    countingFiles(packageFiles(s, request, facts), () => files++),
    (archived) => closingFiles(request, facts, archived),
  );
  for await (const chunk of zip as AsyncIterable<Buffer>) {
    await writer.add(chunk);
    if (facts.reports.length >= reportedAt + reportsPerProgress) {
      reportedAt = facts.reports.length;
      await log.appendAt(next(), 'run.progress', progress(), s.now());
    }
  }
  await writer.finish();
  await log.appendAt(
    next(),
    'run.completed',
    {
      file: { name: packageFileName(record.from, record.to), size: writer.bytes, sha256: writer.hash.digest('hex') },
      parts: writer.parts,
      partBytes: size,
    },
    s.now(),
  );
}

async function* countingFiles<T>(files: AsyncIterable<T>, count: () => void): AsyncGenerator<T> {
  for await (const file of files) {
    count();
    yield file;
  }
}
