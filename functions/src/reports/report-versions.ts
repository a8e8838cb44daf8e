/**
 * The versions of a day's report. Today's report may be published again (an analysis published
 * as today's report); each publish keeps the report it replaces, so the day's history — the
 * scheduled report included — is never lost:
 *
 *   reports/day=<D>/report.json                  the latest version, where it always was
 *   report-versions/day=<D>/<000001>.json        each version a publish replaced, by number
 *
 * The latest keeps its name so that everything reading `reports/day=*` (the list of days at one
 * `list` per thousand days, BigQuery's hive table of one report a day, the diff, the chat) reads
 * exactly what it read before, and a day never republished costs no extra object. The replaced
 * versions live under a prefix of their own, so listing the days never meets them. Numbers are
 * padded to six digits so that the store's name order is their order.
 *
 * Each report object carries in its metadata its version number and how it was published (the
 * daily job and its trigger, or an analysis and who started it), so the versions list without
 * reading a report. A version number names one report's bytes for ever: version n + 1 is written
 * only over the object holding version n, at that object's generation, so two publishers never
 * write the same number, and a kept version is written create-only.
 */
import type { Actor, Report, ReportSummary } from '../assessment/model.js';
import type { components } from '../generated/api-types.js';
import type { WriteOptions } from '../storage/object-store.js';

export const reportVersionsPrefix = 'report-versions/';
const versionDigits = 6;

/** Where the versions of a day that a publish replaced are kept. */
export const versionsPrefixOf = (date: string) => `${reportVersionsPrefix}day=${date}/`;
export const versionObjectName = (date: string, version: number) =>
  `${versionsPrefixOf(date)}${String(version).padStart(versionDigits, '0')}.json`;
const versionNamePattern = /^report-versions\/day=(\d{4}-\d{2}-\d{2})\/(\d+)\.json$/;

/** The day and number a kept version's object name holds, or undefined for another name. */
export function parseVersionName(name: string): { date: string; version: number } | undefined {
  const match = versionNamePattern.exec(name);
  return match ? { date: match[1]!, version: Number(match[2]) } : undefined;
}

/** How a report came to be published: by the daily job (and what ran it), or by an analysis. */
export type Publication = { by: 'daily'; trigger: string } | { by: 'analysis'; startedBy: Actor };

/** One version of a day's report, as the versions listing shows it (without the links the API adds). */
export type ReportVersion = Omit<components['schemas']['ReportVersion'], 'links'>;

/*
 * Metadata keys are lower case: a download's headers carry them so (object-store.ts,
 * infoAsDownloaded), and a report read with its bytes must show the same version as a listing.
 * `generatedAt` and `summary` predate versions and are read from listings only.
 */

/** How a report is written: JSON, with what the list of days and the list of versions show in its metadata. */
export function reportWriteOptions(report: Report, version = 1, publication?: Publication): WriteOptions {
  return {
    contentType: 'application/json',
    metadata: {
      generatedAt: report.generatedAt,
      summary: JSON.stringify(report.summary),
      version: String(version),
      runid: report.runId,
      ...(publication?.by === 'daily' ? { trigger: publication.trigger } : {}),
      ...(publication?.by === 'analysis' ? { startedby: JSON.stringify(publication.startedBy) } : {}),
    },
  };
}

/** How a stored report object was published, as its metadata says; undefined for one stored before versions. */
export function publicationIn(metadata: Record<string, string>): Publication | undefined {
  if (metadata['startedby']) return { by: 'analysis', startedBy: JSON.parse(metadata['startedby']) as Actor };
  return metadata['trigger'] ? { by: 'daily', trigger: metadata['trigger'] } : undefined;
}

/** The version a stored report object holds: 1 for one written before versions were kept. */
export function versionIn(metadata: Record<string, string>): number {
  const version = Number(metadata['version']);
  return Number.isInteger(version) && version >= 1 ? version : 1;
}

/**
 * A version as listed, from a report object's metadata, with the report itself when it was
 * read (a report stored before versions were kept has no metadata to list it by; its run id
 * then says who published it).
 */
export function describeVersion(
  metadata: Record<string, string>,
  current: boolean,
  report?: Pick<Report, 'generatedAt' | 'runId' | 'summary'>,
): ReportVersion | undefined {
  const generatedAt = report?.generatedAt ?? metadata['generatedAt'];
  const runId = report?.runId ?? metadata['runid'];
  const summary = report?.summary ?? (metadata['summary'] ? (JSON.parse(metadata['summary']) as ReportSummary) : undefined);
  if (!generatedAt || !runId || !summary) return undefined;
  const publication = publicationIn(metadata);
  return {
    version: versionIn(metadata),
    current,
    generatedAt,
    runId,
    publishedBy: publication?.by ?? (runId.startsWith('an-') ? 'analysis' : 'daily'),
    ...(publication?.by === 'daily' ? { trigger: publication.trigger } : {}),
    ...(publication?.by === 'analysis' ? { startedBy: publication.startedBy } : {}),
    summary,
  };
}
