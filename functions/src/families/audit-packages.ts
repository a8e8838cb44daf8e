/**
 * The audit packages built in the background (`/api/audit/packages`): asking for one (or being
 * handed the one of the same period and reports, built or building), following its build, and
 * downloading it from storage whole or in ranges, so a year's package is neither made within
 * nor sent through one request.
 */
import { Readable } from 'node:stream';
import { addDays, dayIn, isCalendarDate } from '../assessment/dates.js';
import {
  AuditPackageLog,
  describePackage,
  fingerprintOf,
  partName,
  partsOf,
  type AuditPackage,
  type AuditPackageEvent,
  type PackageBuilds,
  type PackageRecord,
} from '../audit/package-builds.js';
import type { AuditPackageQueue } from '../audit/package-queue.js';
import type { MaybePromise } from '../common/maybe-async.js';
import { actorOf } from '../http/bearer-token.js';
import { EventStream, resumePoint, throughBufferingProxy, wantsJson, type StreamLimits } from '../http/event-stream.js';
import type { OperationInput, OperationResult, RequestContext } from '../http/operation-types.js';
import { ApiProblem, invalidRequest } from '../http/problem.js';
import { logs } from '../logs.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { Services } from './services.js';
import { maxPeriodDays } from '@evident/contract';

export interface PackageDependencies {
  services: () => MaybePromise<Services>;
  builds: () => MaybePromise<PackageBuilds>;
  queue: () => AuditPackageQueue;
  limits: (buffered: boolean) => StreamLimits;
}

/** Seconds a client is asked to wait before retrying when the queue refused a build. */
const queueRetryAfterSeconds = 5;

/** The body's period, refused as the query's would be (families/period.ts), with pointers into the body. */
function periodOfBody(body: { from: string; to: string }, today: string, timeZone: string): { from: string; to: string } {
  const refuse = (pointer: string, message: string) => invalidRequest([{ in: 'body', pointer, message }]);
  for (const name of ['from', 'to'] as const)
    if (!isCalendarDate(body[name])) throw refuse(`/${name}`, 'is not a calendar date (YYYY-MM-DD)');
  if (body.to > today) throw refuse('/to', `is after today (${today}, ${timeZone})`);
  if (body.from > body.to) throw refuse('/from', 'is after "to"');
  if (addDays(body.from, maxPeriodDays - 1) < body.to) throw refuse('/from', `makes a period longer than ${maxPeriodDays} days`);
  return { from: body.from, to: body.to };
}

async function described(store: ObjectStore, record: PackageRecord): Promise<AuditPackage> {
  const log = new AuditPackageLog(store, record.id);
  await log.refresh();
  return describePackage(record, log.events);
}

async function recordOrThrow(deps: PackageDependencies, id: string): Promise<PackageRecord> {
  const s = await deps.services();
  const record = await (await deps.builds()).find(id, s.now());
  if (!record)
    throw new ApiProblem('audit_package_not_found', `There is no audit package ${id}; GET /api/audit/packages lists them.`);
  return record;
}

export async function startPackage(
  deps: PackageDependencies,
  { body }: OperationInput<'startAuditPackage'>,
  context: RequestContext,
): Promise<OperationResult<'startAuditPackage'>> {
  const s = await deps.services();
  const { from, to } = periodOfBody(body, dayIn(s.timeZone(), s.now()), s.timeZone());
  const reports = await s.reports.generationsBetween(from, to);
  if (reports.length === 0)
    throw new ApiProblem(
      'report_not_found',
      `No report exists from ${from} to ${to}; GET /api/report lists the days that have one.`,
    );
  const builds = await deps.builds();
  const period = { from, to, fingerprint: fingerprintOf(reports) };
  for (const record of await builds.sameAs(period, s.now())) {
    const existing = await described(s.store, record);
    if (existing.state !== 'failed') return { status: 200, body: existing };
  }
  const record = await builds.open(period, actorOf(context.caller), s.now());
  try {
    await deps.queue().enqueue(record.id);
  } catch (error) {
    logs.auditPackageQueueFailed(record.id, error);
    await new AuditPackageLog(s.store, record.id).append(
      'run.failed',
      { problem: 'The task queue did not take the build.' },
      s.now(),
    );
    throw new ApiProblem('queue_unavailable', 'The task queue did not take the package; ask for it again.', {
      headers: { 'Retry-After': String(queueRetryAfterSeconds) },
    });
  }
  const queued = describePackage(record, []);
  return { status: 202, body: queued, headers: { Location: queued.links.self } };
}

export async function listPackages(deps: PackageDependencies): Promise<OperationResult<'listAuditPackages'>> {
  const s = await deps.services();
  const records = await (await deps.builds()).list(s.now());
  return { status: 200, body: { items: await Promise.all(records.map((record) => described(s.store, record))) } };
}

export async function getPackage(deps: PackageDependencies, id: string): Promise<OperationResult<'getAuditPackageBuild'>> {
  const s = await deps.services();
  return { status: 200, body: await described(s.store, await recordOrThrow(deps, id)) };
}

export async function streamPackageEvents(
  deps: PackageDependencies,
  { path, query, headers }: OperationInput<'streamAuditPackageEvents'>,
  context: RequestContext,
): Promise<OperationResult<'streamAuditPackageEvents'>> {
  const record = await recordOrThrow(deps, path.id);
  const log = new AuditPackageLog((await deps.services()).store, record.id);
  await log.refresh();
  const afterId = resumePoint(headers['Last-Event-ID'], query.lastEventId, log.lastId, 'package build');
  if (wantsJson(context.header('accept'))) {
    return { status: 200, body: { events: log.events.slice(afterId) as AuditPackageEvent[], ended: log.ended } };
  }
  if (log.ended && afterId === log.lastId) return { status: 204, body: undefined };
  return {
    status: 200,
    body: new EventStream(`audit package ${path.id}`, log, afterId, deps.limits(throughBufferingProxy(context))),
  };
}

/** One byte range of a file of `size` bytes (RFC 9110 § 14.1.2), or `unsatisfiable`; undefined when the header asks for the whole (absent, or not one range of bytes). */
export function rangeOf(header: string | undefined, size: number): { first: number; last: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { first: Math.max(0, size - suffix), last: size - 1 };
  }
  const first = Number(match[1]);
  const last = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return first >= size || last < first ? 'unsatisfiable' : { first, last };
}

/** The bytes from `first` to `last` of the parts, reading only the parts they fall in, one at a time. */
function partsRange(
  store: ObjectStore,
  id: string,
  stored: { attempt: number; partBytes: number },
  first: number,
  last: number,
): Readable {
  const size = stored.partBytes;
  async function* bytes() {
    for (let part = Math.floor(first / size); part <= Math.floor(last / size); part++) {
      const { data } = await store.read(partName(id, stored.attempt, part + 1));
      const start = part * size;
      yield data.subarray(Math.max(0, first - start), Math.min(data.length, last - start + 1));
    }
  }
  return Readable.from(bytes());
}

export async function downloadPackage(
  deps: PackageDependencies,
  { path, headers }: OperationInput<'downloadAuditPackage'>,
): Promise<OperationResult<'downloadAuditPackage'>> {
  const record = await recordOrThrow(deps, path.id);
  const s = await deps.services();
  const log = new AuditPackageLog(s.store, record.id);
  await log.refresh();
  const stored = partsOf(log.events);
  const file = describePackage(record, log.events).file;
  if (!stored || !file)
    throw new ApiProblem(
      'audit_package_not_ready',
      `The audit package ${record.id} is not built; follow ${`/api/audit/packages/${record.id}/events`}.`,
    );
  const etag = `"${file.sha256}"`;
  const common = { ETag: etag, 'Accept-Ranges': 'bytes', 'Content-Disposition': `attachment; filename="${file.name}"` };
  // If-Range with another tag asks for the whole of what is there now.
  const wanted =
    headers['If-Range'] === undefined || headers['If-Range'] === etag ? rangeOf(headers.Range, file.size) : undefined;
  if (wanted === 'unsatisfiable')
    throw new ApiProblem('range_not_satisfiable', `The package is ${file.size} bytes long; ask for a range within them.`, {
      headers: { 'Content-Range': `bytes */${file.size}` },
    });
  const { first, last } = wanted ?? { first: 0, last: file.size - 1 };
  const body = partsRange(s.store, record.id, stored, first, last);
  const length = { 'Content-Length': String(last - first + 1) };
  if (!wanted) return { status: 200, body, contentType: 'application/zip', headers: { ...common, ...length } };
  return {
    status: 206,
    body,
    contentType: 'application/zip',
    headers: { ...common, ...length, 'Content-Range': `bytes ${first}-${last}/${file.size}` },
  };
}
