/**
 * An audit package built in the background, as the dashboard's card shows it: its build folded
 * from its events (as the API's own reading, functions/src/audit/package-builds.ts, is), the
 * ranges a download asks for so each request ends well within Hosting's 60 seconds, and the
 * words for its progress. Pure, so it is unit tested without a browser.
 */
import type { AuditPackage, AuditPackageEvent } from './api-types.ts';
import { addDays } from './due-dates.ts';

export interface PackageBuild {
  /** The last event folded in; 0 before the first. */
  lastEventId: number;
  state: AuditPackage['state'];
  progress: AuditPackage['progress'];
  file?: AuditPackage['file'];
  problem?: string;
}

/** The build as the API described the package when it was asked for. */
export const buildOf = (pkg: AuditPackage): PackageBuild => ({
  lastEventId: pkg.lastEventId,
  state: pkg.state,
  progress: pkg.progress,
  ...(pkg.file ? { file: pkg.file } : {}),
  ...(pkg.problem ? { problem: pkg.problem } : {}),
});

/** Folds one event in. An event at or before `lastEventId` is a replay and changes nothing. */
export function foldPackageEvent(build: PackageBuild, event: AuditPackageEvent): PackageBuild {
  if (event.id <= build.lastEventId) return build;
  const next = { ...build, lastEventId: event.id };
  switch (event.type) {
    case 'run.started':
      return { ...next, state: 'building', progress: { ...build.progress, reportsTotal: event.data.reportsTotal } };
    case 'run.progress':
      return { ...next, state: 'building', progress: { ...event.data } };
    case 'run.completed':
      return { ...next, state: 'ready', file: event.data.file };
    case 'run.failed':
      return { ...next, state: 'failed', problem: event.data.problem };
  }
}

/** Bytes asked for per request: at a few MB/s, well within Hosting's 60 seconds. */
export const rangeBytes = 16 * 1024 * 1024;

/** The `Range` headers that fetch a file of `size` bytes in order, `chunk` bytes at a time. */
export function rangesOf(size: number, chunk = rangeBytes): string[] {
  const ranges: string[] = [];
  for (let first = 0; first < size; first += chunk) ranges.push(`bytes=${first}-${Math.min(size, first + chunk) - 1}`);
  return ranges;
}

/** "12.3 MB", "840 kB", "512 bytes". */
export function sizeText(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} kB`;
  return `${bytes} bytes`;
}

/** What the build is doing, in a sentence. */
export function buildText(build: PackageBuild): string {
  const { reports, reportsTotal, bytes } = build.progress;
  switch (build.state) {
    case 'queued':
      return 'Queued: the package will be built in the background.';
    case 'building':
      return `Building: ${reports} of ${reportsTotal} report days written${bytes > 0 ? `, ${sizeText(bytes)} stored` : ''}.`;
    case 'ready':
      return `Ready: ${build.file ? sizeText(build.file.size) : ''}, SHA-256 ${build.file?.sha256.slice(0, 12) ?? ''}…`;
    case 'failed':
      return build.problem ?? 'The package could not be built.';
  }
}

/** The period the card offers first: the 90 days up to yesterday, since today's report is not final. */
export function defaultAuditPeriod(today: string, earliest: string | undefined): { from: string; to: string } {
  const to = earliest && earliest >= today ? today : addDays(today, -1);
  const from = addDays(to, -89);
  return { from: earliest && earliest > from ? earliest : from, to };
}
