/**
 * The audit package of a period: everything an auditor asks for about the days from `from` to
 * `to`, as files made one at a time (see zip-writer.ts for the archive):
 *
 *   README.txt                               what is where, and how to check it
 *   reports/<date>.json                      each day's report, the bytes stored
 *   versions/<date>/<n>.json                 each earlier version of a day's report a publish replaced
 *   oscal/assessment-results/<date>.json     each report as OSCAL Assessment Results
 *   oscal/poam-<date>.json                   the OSCAL POA&M as of the period's last report
 *   history/controls.csv                     every control over the period, one row each
 *   history/<control>.csv                    one control, one row a day (as the history export)
 *   settings/version-<n>.json                each version of the organisation's settings a report names
 *   sampling/method.json                     the published sampling method, its size table and test vector
 *   sampling/populations/<date>.csv          each control's population that day, per kind: count, SHA-256, runs
 *   requests.csv                             the auditor's request list, with its answers and history
 *   catalog/catalog.json, inputs/...         what else re-deriving the reports takes (package-inputs.ts)
 *   evidence/<kind>/<subject>/<date>-<id>.json  the evidence state at the start and every item received
 *                                            after, up to the last report (the cited items among them)
 *   attachments/<submission>/<n>-<name>      the files of the submissions among that evidence
 *   verify/verify.mjs                        the verifier, one file for a plain Node (verify-package.ts)
 *   index.html, evidence.html                the package for a person to read (package-index.ts)
 *   manifest.json, manifest.sig, SHA256SUMS  the period, each file's size and SHA-256; the manifest's Ed25519 signature
 *
 * What it reads: one object per report day (a few at a time, in date order) and the report
 * before the period, with one listing of the versions publishes replaced and each of those; then
 * the inputs (package-inputs.ts: one listing of the batches, a page per thousand, each batch once); then each cited
 * item the batches lacked, and each attachment. Nothing is held but the small facts the closing
 * files need: the histories are built day by day (ControlHistoryBuilder) as the reports stream
 * past, and of the evidence only the ids written and the paths they went to.
 */
import { readFile } from 'node:fs/promises';
import type { KeyObject } from 'node:crypto';
import { addDays } from '../assessment/dates.js';
import type { Actor, Catalog, EvidenceItem, Report } from '../assessment/model.js';
import { toOscalAssessmentResults } from '../assessment/oscal-export.js';
import { toOscalPoam } from '../assessment/oscal-poam.js';
import { logs } from '../logs.js';
import { ControlHistoryBuilder } from '../reports/control-history.js';
import { controlHistoryCsv, periodSummaryCsv, type ControlFacts } from '../reports/control-history-csv.js';
import type { ReportStore, StoredReport } from '../reports/report-store.js';
import type { EvidenceStore } from '../evidence/evidence-store.js';
import { inBatchesAhead, ObjectNotFound } from '../storage/object-store.js';
import { SettingsStore } from '../settings/settings-store.js';
import { attachmentObjectName } from '../submissions/submission-store.js';
import { requestListCsv } from '../requests/request-csv.js';
import { AuditRequestStore } from '../requests/request-store.js';
import type { ObjectStore } from '../storage/object-store.js';
import { packageIndexFiles, type ReadableFacts } from './package-index.js';
import {
  dayInputFiles,
  evidenceFile,
  evidenceInputFiles,
  evidenceWindowOf,
  submissionReviewsFile,
  type ReportDay,
} from './package-inputs.js';
import { submissionOf } from '../assessment/submission-review.js';
import { catalogPath, previousReportPath } from './package-paths.js';
import { publishedKeyOf, signManifest } from './package-signature.js';
import { publishSigningKey } from './package-signing-key.js';
import { populationsCsv, populationsPath, samplingMethod, samplingMethodPath } from './sampling-files.js';
import { archiveName, sha256Hex, type ArchivedFile, type ArchiveFile } from './zip-writer.js';

export const packageFormat = 'evident-audit-package/1';

/** Reports read at a time (and as many more ahead); each is parsed, so a few. */
const reportsAhead = 8;
/** Evidence items read at a time: small objects, where the store's latency is the whole cost. */
export const evidenceAhead = 64;
/** Attachments read at a time: up to the upload limit (10 MiB) each, so only a couple. */
const attachmentsAhead = 2;

export interface PackageSources {
  store: ObjectStore;
  reports: ReportStore;
  evidence: EvidenceStore;
  catalog: Catalog;
  /** The single-file verifier (`verify/verify.mjs`); the build's bundle (scripts/lib/verifier-bundle.ts) when absent. */
  verifierScript?: () => Promise<Buffer | undefined>;
}

export interface PackageRequest {
  from: string;
  to: string;
  /** The days of the period that have a report, oldest first (known before the first byte is sent). */
  dates: readonly string[];
  /** The days with a report in the month before `from`, when listed with `dates` (ReportStore.periodDates). */
  monthBefore?: readonly string[];
  /** Today in the report time zone: reports before it never change, so their cached copies serve. */
  today: string;
  timeZone: string;
  generatedAt: Date;
  apiVersion: string;
  /** Who asked for it, as recorded in the manifest. */
  requestedBy: Actor;
  /** The Ed25519 key the manifest is signed with (package-signing-key.ts); an unsigned package says so. */
  signingKey?: KeyObject;
}

/** A file that should be in the package and is not, and why. */
export interface Unavailable {
  path: string;
  reason: string;
}

/** What the package learns as it goes, for the closing files. */
export type { ReadableFacts } from './package-index.js';

export interface PackageFacts {
  reports: { date: string; runId: string; generatedAt: string; catalogVersion: string; asOf?: string }[];
  /** The earlier versions of the days' reports, by day then number. */
  versions: { date: string; version: number; runId: string; generatedAt: string }[];
  evidence: number;
  attachments: number;
  unavailable: Unavailable[];
  /** What the index and the manifest say of the inputs; filled as the files are made. */
  readable?: ReadableFacts;
}

/** The facts of a package not yet begun. */
export const newPackageFacts = (): PackageFacts => ({ reports: [], versions: [], evidence: 0, attachments: 0, unavailable: [] });

/** Media types already compressed, stored as they are. */
const compressedAlready = /^(image\/(?!svg)|video\/|audio\/|application\/(pdf|zip|gzip|x-7z|vnd\.openxmlformats))/;

/** The files of the package before the closing ones; `facts` fills as they are made. */
export async function* packageFiles(
  sources: PackageSources,
  request: PackageRequest,
  facts: PackageFacts,
): AsyncGenerator<ArchiveFile> {
  let finished = false;
  try {
    yield* allFiles(sources, request, facts);
    finished = true;
  } finally {
    if (!finished) {
      const { from, to } = request;
      logs.auditPackageStopped(
        { from, to },
        { reports: facts.reports.length, evidence: facts.evidence, attachments: facts.attachments },
      );
    }
  }
}

async function* allFiles(sources: PackageSources, request: PackageRequest, facts: PackageFacts): AsyncGenerator<ArchiveFile> {
  const readable: ReadableFacts = {
    catalog: sources.catalog,
    days: [],
    scores: [],
    statuses: new Map(),
    last: undefined,
    evidencePaths: new Map(),
    evidence: { atStart: 0, received: 0 },
  };
  facts.readable = readable;
  // Published before anything is signed with it, so every package's key is at GET /api/audit/signing-key.
  if (request.signingKey) await publishSigningKey(sources.store, request.signingKey, request.generatedAt);
  yield { path: 'README.txt', data: Buffer.from(readme(request)), modified: request.generatedAt };
  const method = JSON.stringify(samplingMethod(sources.catalog), null, 2);
  yield { path: samplingMethodPath, data: Buffer.from(method), modified: request.generatedAt };
  yield { path: catalogPath, data: Buffer.from(JSON.stringify(sources.catalog)), modified: request.generatedAt };
  const seen = await periodSeen(sources, request);
  if (seen.before)
    yield {
      path: previousReportPath(seen.before.date),
      data: seen.before.bytes,
      modified: new Date(seen.before.report.generatedAt),
    };
  yield* reportFiles(sources, request, facts, seen);
  yield* historyFiles(sources, request, seen);
  yield* settingsFiles(sources, seen, facts);
  yield* requestListFile(sources, request);
  if (seen.last) {
    const last = seen.last;
    const poam = toOscalPoam(last, { version: last.catalogVersion, nistByControl: seen.nistByControl });
    yield { path: `oscal/poam-${last.date}.json`, data: Buffer.from(JSON.stringify(poam)), modified: new Date(last.generatedAt) };
  }
  const days = facts.reports.map(({ date, asOf, generatedAt }): ReportDay => ({ date, asOf: asOf!, generatedAt }));
  yield* dayInputFiles(sources, days, request.generatedAt);
  const withAttachments: EvidenceItem[] = [];
  const submissions = new Set<string>();
  const window = evidenceWindowOf(days);
  if (window) {
    readable.evidence.start = window.start.toISOString();
    readable.evidence.upTo = window.upTo.toISOString();
    const noteAttachments = (item: EvidenceItem) => {
      if (item.attachments.length > 0 && item.submissionId) withAttachments.push(item);
      const submission = submissionOf(item);
      if (submission) submissions.add(submission);
    };
    for await (const file of evidenceInputFiles(sources, window, readable.evidencePaths, readable.evidence, noteAttachments)) {
      facts.evidence += 1;
      yield file;
    }
  }
  const uncited = [...seen.cited].filter((id) => !readable.evidencePaths.has(id)).sort();
  yield* evidenceFiles(sources, uncited, facts, withAttachments, readable.evidencePaths);
  yield await submissionReviewsFile(sources, submissions, request.generatedAt);
  yield* attachmentFiles(sources, withAttachments, facts);
  yield* verifierFile(sources, request, facts);
}

/** Where the build leaves the single-file verifier beside the compiled functions. */
const bundledVerifier = new URL('../generated/verify.mjs', import.meta.url);

async function* verifierFile(sources: PackageSources, request: PackageRequest, facts: PackageFacts): AsyncGenerator<ArchiveFile> {
  const path = 'verify/verify.mjs';
  const read = sources.verifierScript ?? (() => unlessNotFound(readFile(bundledVerifier), 'ENOENT'));
  const script = await read();
  if (!script) {
    facts.unavailable.push({ path, reason: 'This build of Evident has no bundled verifier (node scripts/build.ts makes it).' });
    return;
  }
  yield { path, data: script, modified: request.generatedAt };
}

/** What the reports of the period leave behind them as they stream past. */
interface PeriodSeen {
  nistByControl: Record<string, string[]>;
  histories: Map<string, ControlHistoryBuilder>;
  historyOf(id: string): ControlHistoryBuilder;
  /** Facts of controls the catalog no longer has, from their last result in the period. */
  retired: Map<string, ControlFacts>;
  cited: Set<string>;
  /** The versions of the settings the reports name (owners, due days, freshness, scope they were made with). */
  settingsVersions: Set<number>;
  last: Report | undefined;
  /** The report before the period, as stored: the first day's diff was made against it. */
  before: StoredReport | undefined;
}

async function periodSeen(sources: PackageSources, { from, to, monthBefore }: PackageRequest): Promise<PeriodSeen> {
  const before = await sources.reports.latestOnOrBefore(addDays(from, -1), monthBefore && { monthBefore });
  const histories = new Map<string, ControlHistoryBuilder>();
  const historyOf = (id: string) => {
    let builder = histories.get(id);
    if (!builder) {
      const result = before?.report.controls.find((candidate) => candidate.id === id);
      builder = new ControlHistoryBuilder(id, from, to, before && { date: before.date, result });
      histories.set(id, builder);
    }
    return builder;
  };
  for (const control of sources.catalog.controls) historyOf(control.id);
  const nistByControl = Object.fromEntries(sources.catalog.controls.map((control) => [control.id, control.frameworks.nist80053]));
  return {
    nistByControl,
    histories,
    historyOf,
    retired: new Map(),
    cited: new Set(),
    settingsVersions: new Set(),
    last: undefined,
    before,
  };
}

/** Each report as stored and as OSCAL results, feeding the histories and the evidence to include. */
async function* reportFiles(
  sources: PackageSources,
  request: PackageRequest,
  facts: PackageFacts,
  seen: PeriodSeen,
): AsyncGenerator<ArchiveFile> {
  const inCatalog = new Set(sources.catalog.controls.map((control) => control.id));
  const kept = await sources.reports.keptVersionsBetween(request.from, request.to);
  const read = (date: string) => Promise.resolve(sources.reports.find(date, { immutable: date < request.today }));
  for await (const stored of inBatchesAhead(request.dates, reportsAhead, read)) {
    if (!stored) continue; // removed since the period was listed
    const { report } = stored;
    const modified = new Date(report.generatedAt);
    const { date, runId, generatedAt, catalogVersion, asOf } = report;
    facts.reports.push({ date, runId, generatedAt, catalogVersion, asOf });
    noteStatuses(facts.readable!, report);
    yield { path: `reports/${date}.json`, data: stored.bytes, modified };
    yield { path: populationsPath(date), data: Buffer.from(populationsCsv(report)), modified };
    if (report.settingsVersion) seen.settingsVersions.add(report.settingsVersion);
    yield* versionFiles(
      sources,
      kept.filter((version) => version.date === date),
      facts,
      seen,
    );
    const results = toOscalAssessmentResults(report, { version: catalogVersion, nistByControl: seen.nistByControl });
    yield { path: `oscal/assessment-results/${date}.json`, data: Buffer.from(JSON.stringify(results)), modified };
    for (const result of report.controls) {
      seen.historyOf(result.id).add({ date, result });
      if (!inCatalog.has(result.id))
        seen.retired.set(result.id, { title: result.title, owner: result.owner ?? '', severity: result.severity });
      // Every item a result rests on: those its findings cite, and attestations that pass it with no check to cite them.
      for (const id of result.evidence) seen.cited.add(id);
    }
    seen.last = report;
  }
}

/** Each control's status on a report's day, for the index. */
function noteStatuses(readable: ReadableFacts, report: Report): void {
  const day = readable.days.length;
  readable.days.push(report.date);
  readable.scores.push(report.summary.score);
  for (const result of report.controls) {
    let statuses = readable.statuses.get(result.id);
    if (!statuses) readable.statuses.set(result.id, (statuses = []));
    statuses[day] = result.status;
  }
  readable.last = report;
}

/**
 * The earlier versions of one day's report, as stored. The evidence they rest on is included
 * too, so every report in the package can be checked; the histories follow the last version.
 */
async function* versionFiles(
  sources: PackageSources,
  versions: readonly { date: string; version: number }[],
  facts: PackageFacts,
  seen: PeriodSeen,
): AsyncGenerator<ArchiveFile> {
  for (const { date, version } of versions) {
    const stored = await sources.reports.version(date, version);
    const path = `versions/${date}/${version}.json`;
    if (!stored) {
      facts.unavailable.push({ path, reason: 'The store holds this version of the report, but not as a readable report.' });
      continue;
    }
    const { runId, generatedAt } = stored.report;
    facts.versions.push({ date, version, runId, generatedAt });
    for (const result of stored.report.controls) for (const id of result.evidence) seen.cited.add(id);
    if (stored.report.settingsVersion) seen.settingsVersions.add(stored.report.settingsVersion);
    yield { path, data: stored.bytes, modified: new Date(generatedAt) };
  }
}

/** Every control's period in one CSV, then each control's days. */
async function* historyFiles(sources: PackageSources, request: PackageRequest, seen: PeriodSeen): AsyncGenerator<ArchiveFile> {
  const finished = [...seen.histories]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, builder]) => ({
      history: builder.finish(),
      facts: sources.catalog.controls.find((control) => control.id === id) ?? seen.retired.get(id)!,
    }));
  const modified = request.generatedAt;
  yield { path: 'history/controls.csv', data: Buffer.from(periodSummaryCsv(finished)), modified };
  for (const { history } of finished)
    yield { path: `history/${history.controlId}.csv`, data: Buffer.from(controlHistoryCsv(history)), modified };
}

/** The auditor's requests whose period meets the package's, with their answers and history (one listing, a read of each). */
async function* requestListFile(sources: PackageSources, request: PackageRequest): AsyncGenerator<ArchiveFile> {
  const requests = (await new AuditRequestStore(sources.store).list()).filter(
    ({ period }) => period.from <= request.to && period.to >= request.from,
  );
  yield { path: 'requests.csv', data: Buffer.from(requestListCsv(requests)), modified: request.generatedAt };
}

/** Each version of the settings the period's reports (and their replaced versions) were made with, as saved: who, when, why and what. */
async function* settingsFiles(sources: PackageSources, seen: PeriodSeen, facts: PackageFacts): AsyncGenerator<ArchiveFile> {
  const store = new SettingsStore(sources.store);
  for (const version of [...seen.settingsVersions].sort((a, b) => a - b)) {
    const path = `settings/version-${version}.json`;
    const saved = await store.get(version);
    if (!saved) {
      facts.unavailable.push({ path, reason: 'A report names this version of the settings, but the store does not hold it.' });
      continue;
    }
    yield {
      path,
      data: Buffer.from(JSON.stringify(saved, null, 2)),
      modified: new Date(saved.savedAt),
    };
  }
}

/** Each cited evidence item the inputs did not hold, once, noting those that came with attached files. */
async function* evidenceFiles(
  sources: PackageSources,
  ids: readonly string[],
  facts: PackageFacts,
  withAttachments: EvidenceItem[],
  written: Map<string, string>,
): AsyncGenerator<ArchiveFile> {
  const readItem = async (id: string) => ({ id, item: await unlessNotFound(sources.evidence.get(id)) });
  for await (const { id, item } of inBatchesAhead(ids, evidenceAhead, readItem)) {
    if (!item) {
      facts.unavailable.push({
        path: `evidence/${id.replaceAll(':', '%3A')}`,
        reason: 'A report cites this evidence item, and the store has no committed item with this id.',
      });
      continue;
    }
    facts.evidence += 1;
    if (item.attachments.length > 0 && item.submissionId) withAttachments.push(item);
    const file = evidenceFile(item);
    written.set(id, file.path);
    yield file;
  }
}

/** The submitted files, each checked against the SHA-256 recorded when it was submitted. */
async function* attachmentFiles(
  sources: PackageSources,
  items: readonly EvidenceItem[],
  facts: PackageFacts,
): AsyncGenerator<ArchiveFile> {
  const attachments = items.flatMap((item) =>
    item.attachments.map((attachment, index) => ({
      item,
      attachment,
      index,
      submissionId: item.submissionId!,
      path: `attachments/${item.submissionId}/${index}-${archiveName(attachment.name)}`,
    })),
  );
  const read = async (entry: (typeof attachments)[number]) => ({
    ...entry,
    data: (await unlessNotFound(sources.store.read(attachmentObjectName(entry.submissionId, entry.index))))?.data,
  });
  for await (const { item, attachment, index, submissionId, path, data } of inBatchesAhead(attachments, attachmentsAhead, read)) {
    if (!data) {
      facts.unavailable.push({ path, reason: 'The store has no such attachment.' });
      continue;
    }
    const actual = sha256Hex(data);
    if (actual !== attachment.sha256) {
      // The bytes are not the ones submitted: left out, and said so, rather than vouched for.
      logs.attachmentTampered(submissionId, index, attachment.sha256, actual);
      facts.unavailable.push({
        path,
        reason: `Its content no longer has the SHA-256 recorded at submission (${attachment.sha256}).`,
      });
      continue;
    }
    facts.attachments += 1;
    yield { path, data, modified: new Date(item.receivedAt), compress: !compressedAlready.test(attachment.mediaType) };
  }
}

/** The value, or undefined when the store has no such object (or the file system no such file). */
async function unlessNotFound<T>(read: Promise<T>, code?: 'ENOENT'): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ObjectNotFound) return undefined;
    if (code && (error as NodeJS.ErrnoException).code === code) return undefined;
    throw error;
  }
}

/**
 * The index pages, the manifest, its signature and the checksum list, once every other file is
 * in. The index pages are listed in the manifest like every other file; the signature covers the
 * manifest's bytes, so every digest in it.
 */
export function* closingFiles(
  request: PackageRequest,
  facts: PackageFacts,
  archived: readonly ArchivedFile[],
): Generator<ArchiveFile> {
  // Made and handed over one at a time, each let go before the next is made: at the end of a
  // year's package the pages, the manifest and the checksums are some 40 MB together.
  const listed = [...archived];
  for (const page of facts.readable ? packageIndexFiles(request, facts.readable, facts.unavailable, archived) : []) {
    listed.push({ path: page.path, size: page.data.length, sha256: sha256Hex(page.data) });
    yield page;
  }
  const signature = request.signingKey ? publishedKeyOf(request.signingKey) : undefined;
  const manifest = {
    format: packageFormat,
    period: { from: request.from, to: request.to, timeZone: request.timeZone },
    generatedAt: request.generatedAt.toISOString(),
    requestedBy: request.requestedBy,
    apiVersion: request.apiVersion,
    reports: facts.reports,
    versions: facts.versions,
    catalog: { version: facts.readable?.catalog.version ?? null, path: catalogPath },
    evidence: {
      // The state at the start: items received up to `start`; then every item received after, up to `upTo`.
      start: facts.readable?.evidence.start ?? null,
      upTo: facts.readable?.evidence.upTo ?? null,
      atStart: facts.readable?.evidence.atStart ?? 0,
      received: facts.readable?.evidence.received ?? 0,
    },
    signature: signature ?? null,
    counts: {
      reports: facts.reports.length,
      versions: facts.versions.length,
      evidence: facts.evidence,
      attachments: facts.attachments,
      files: listed.length + (signature ? 3 : 2),
    },
    unavailable: facts.unavailable,
    files: listed,
  };
  const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n');
  const manifestDigest = sha256Hex(manifestBytes);
  const modified = request.generatedAt;
  yield { path: 'manifest.json', data: manifestBytes, modified };
  if (request.signingKey)
    yield { path: 'manifest.sig', data: signManifest(manifestBytes, request.signingKey), modified, compress: false };
  const sums = [...listed, { path: 'manifest.json', sha256: manifestDigest }]
    .map(({ path, sha256 }) => `${sha256}  ${path}\n`)
    .join('');
  yield { path: 'SHA256SUMS', data: Buffer.from(sums), modified };
}

function readme({ from, to, timeZone, generatedAt, apiVersion, requestedBy }: PackageRequest): string {
  const who = requestedBy.email ?? requestedBy.uid;
  return `Evident audit package: ${from} to ${to} (days in ${timeZone})
Made ${generatedAt.toISOString()} for ${who} by Evident ${apiVersion}.

README.txt                               This file.
reports/<date>.json                      Each day's report, exactly as stored (Evident's Report schema):
                                         its last version, when it was published more than once.
versions/<date>/<n>.json                 Each earlier version of a day's report, exactly as stored and
                                         numbered in the order they were published (the daily job's
                                         and each one an analysis published, then replaced); the
                                         manifest lists them with their runs.
oscal/assessment-results/<date>.json     Each report as OSCAL Assessment Results.
oscal/poam-<date>.json                   The OSCAL plan of action and milestones as of the period's last report.
history/controls.csv                     Every control over the period: days assessed and passing, the
                                         longest run not passing, fixes and how long they took.
history/<control>.csv                    One control, one row a day: its status, and on each change the
                                         status before, why, and the evidence that came with it.
settings/version-<n>.json                Each version of the organisation's settings a report names
                                         (its "settingsVersion"): owners, due days, freshness, scope,
                                         and who saved it, when and why.
sampling/method.json                     How Evident samples a control's days (docs/sampling.md): the
                                         method, the suggested sizes, each control's frequency and a
                                         test vector to check a re-derivation against.
sampling/populations/<date>.csv          Each control's population that day, per kind of subjects its
                                         checks read: how many, the SHA-256 of their sorted ids, and the
                                         collection runs behind it (a control that reads none: the
                                         subjects its findings name).
requests.csv                             The auditor's request list: each request whose period meets this
                                         one, its status, its answers and every step taken on it, by whom
                                         and when.
catalog/catalog.json                     The control catalog the reports name ("catalogVersion"): every
                                         control, its checks' CEL expressions and the frameworks.
inputs/previous/<date>.json              The report before the period, exactly as stored (the first day's diff).
inputs/submission-reviews.json           Every submission's review (accepted or rejected, and when): what a
                                         report made with SUBMISSION_REVIEW=required counted.
inputs/exceptions/<date>.json            The exceptions in force for each day's report.
inputs/populations/<date>.json           The collection-run populations each day's evaluation saw; the
                                         subjects of each complete one in inputs/populations/runs/.
evidence/<kind>/<subject>/<date>-<id>.json
                                         Every evidence item: those current at the start of the period and
                                         every one received after, up to the last report's making, so every
                                         item a result rests on. Named by kind, subject and the day it was
                                         collected, then its id (":" in an id is written "%3A").
attachments/<submission>/<n>-<name>      The files attached to the submissions among that evidence.
verify/verify.mjs                        The verifier: run "node verify/verify.mjs ." in the unpacked folder
                                         (Node 20 or later, nothing to install). It checks the signature and
                                         every file's SHA-256, and evaluates each day again from the files
                                         above, comparing the result with reports/<date>.json byte for byte.
index.html, evidence.html                The package to read in a browser, offline: the summary, each
                                         requirement's controls, their days and evidence, and every file.
manifest.json                            The period, the reports, each file's size and SHA-256, and any
                                         file that should be here and could not be included, with why.
manifest.sig                             The manifest's Ed25519 signature. Evident publishes the public key
                                         at GET /api/audit/signing-key; compare its fingerprint with the
                                         manifest's "signature", or pass it: node verify/verify.mjs . --key key.pem
SHA256SUMS                               The same digests: run "sha256sum -c SHA256SUMS" in the unpacked
                                         folder to check every file.

Days without a report have no status; the rules for streaks, fixes and statuses are in Evident's
methodology (docs/methodology.md).
`;
}
