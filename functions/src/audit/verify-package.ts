/**
 * The audit package's verifier: given the package's files, whether they are the ones Evident
 * signed and whether every report follows from the evidence in them. Pure (node:crypto aside):
 * `npm run verify-audit` hands it a zip's files, `verify/verify.mjs` an unpacked folder's.
 *
 * 1. The manifest's Ed25519 signature (`manifest.sig`), with the key given or the one the
 *    manifest names (then its fingerprint must be compared with the published one).
 * 2. Every file's SHA-256 against the manifest: changed, missing, and files it does not list.
 * 3. Each day's report evaluated again from the package's inputs — the catalog, the settings
 *    version the report names, the exceptions in force, the collection-run populations, the
 *    report before it and every item received up to its making, folded as the daily job folds
 *    them (assessment/evidence-state.ts) — and compared with `reports/<date>.json` byte for byte:
 *    the stored bytes are `JSON.stringify` of the report (reports/report-store.ts), so the
 *    re-derived report must serialise to the same bytes. A report an analysis published is a
 *    merge over an earlier version and is not re-derived (the signature still covers it).
 *
 * A changed or removed evidence item is named with the days and controls that no longer follow
 * and cite it.
 */
import { EvidenceState } from '../assessment/evidence-state.js';
import { compileCatalog, evaluate, type CompiledCatalog } from '../assessment/evaluate.js';
import type { ActiveException } from '../assessment/exceptions.js';
import type { Catalog, EvidenceItem, Report } from '../assessment/model.js';
import type { ReviewDecision, SubmissionReviews } from '../assessment/submission-review.js';
import { withSettings } from '../settings/apply-settings.js';
import type { SettingsVersion } from '../settings/settings-model.js';
import {
  catalogPath,
  exceptionsPath,
  idOfEvidencePath,
  populationsFromFiles,
  populationsInputPath,
  type PopulationInput,
  submissionReviewsPath,
} from './package-paths.js';
import { publishedKeyOf, signatureHolds } from './package-signature.js';
import * as crypto from 'node:crypto';

/** The files the manifest does not list, because they are the manifest and what vouches for it. */
const unlistedByDesign = new Set(['manifest.json', 'manifest.sig', 'SHA256SUMS']);

export interface DayOutcome {
  date: string;
  outcome: 'follows' | 'differs' | 'not_rederived';
  /** The controls whose results differ, in id order. */
  controls: string[];
  /** The other parts of the report that differ (`summary`, `diff`, `frameworks`, ...). */
  parts: string[];
  reason?: string;
}

export interface EvidenceProblem {
  path: string;
  id: string;
  change: 'changed' | 'missing';
  /** The days and controls that do not follow and cite the item. */
  days: string[];
  controls: string[];
}

export interface Verification {
  ok: boolean;
  /** What stops verification altogether (no manifest, an unreadable catalog). */
  fatal: string[];
  signature: { outcome: 'valid' | 'invalid' | 'absent' | 'other_key'; fingerprint?: string };
  files: { checked: number; changed: string[]; missing: string[]; unlisted: string[] };
  days: DayOutcome[];
  evidence: EvidenceProblem[];
}

interface Manifest {
  format?: string;
  reports?: { date: string; runId: string }[];
  files?: { path: string; size: number; sha256: string }[];
  signature?: { publicKey: string; fingerprint: string } | null;
}

type Files = ReadonlyMap<string, Uint8Array>;

// crypto.hash, one call per file, is Node 20.12's; a plain Node 20 before it has createHash.
const sha256 = (data: Uint8Array) =>
  typeof crypto.hash === 'function' ? crypto.hash('sha256', data) : crypto.createHash('sha256').update(data).digest('hex');
/** The bytes as text, read in place (a Buffer over them, not a copy). */
const asBuffer = (data: Uint8Array) =>
  Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
const text = (data: Uint8Array) => asBuffer(data).toString('utf8');

function parsed<T>(files: Files, path: string): T | undefined {
  const data = files.get(path);
  if (!data) return undefined;
  try {
    return JSON.parse(text(data)) as T;
  } catch {
    return undefined;
  }
}

export interface VerifyOptions {
  /** The key published at `GET /api/audit/signing-key` (PEM). */
  publicKey?: string;
  /**
   * Files' SHA-256 (hex) already computed, by path: those of files not handed over (re-derivation
   * does not read them) and of any handed over that were hashed as they were read.
   */
  digests?: ReadonlyMap<string, string>;
}

/** Verifies a package's files. */
export function verifyPackage(files: Files, options: VerifyOptions = {}): Verification {
  const verification: Verification = {
    ok: false,
    fatal: [],
    signature: { outcome: 'absent' },
    files: { checked: 0, changed: [], missing: [], unlisted: [] },
    days: [],
    evidence: [],
  };
  const manifestBytes = files.get('manifest.json');
  const manifest = parsed<Manifest>(files, 'manifest.json');
  if (!manifestBytes || !manifest || !Array.isArray(manifest.files)) {
    verification.fatal.push('The package has no readable manifest.json: it is not an Evident audit package, or not a whole one.');
    return verification;
  }
  verification.signature = signatureOf(manifestBytes, files.get('manifest.sig'), manifest, options.publicKey);
  checkDigests(files, options.digests ?? new Map(), manifest, verification);
  rederive(files, manifest, verification);
  verification.evidence = evidenceProblems(files, verification);
  verification.ok =
    verification.fatal.length === 0 &&
    verification.signature.outcome === 'valid' &&
    verification.files.changed.length === 0 &&
    verification.files.missing.length === 0 &&
    verification.days.every((day) => day.outcome !== 'differs');
  return verification;
}

function signatureOf(manifestBytes: Uint8Array, signature: Uint8Array | undefined, manifest: Manifest, given?: string) {
  if (!signature) return { outcome: 'absent' as const };
  const key = given ?? manifest.signature?.publicKey;
  if (!key) return { outcome: 'invalid' as const };
  const { fingerprint } = publishedKeyOf(key);
  if (!signatureHolds(Buffer.from(manifestBytes), Buffer.from(signature), key))
    return { outcome: 'invalid' as const, fingerprint };
  if (given && manifest.signature?.fingerprint !== fingerprint) return { outcome: 'other_key' as const, fingerprint };
  return { outcome: 'valid' as const, fingerprint };
}

function checkDigests(files: Files, digests: ReadonlyMap<string, string>, manifest: Manifest, verification: Verification): void {
  const listed = new Set<string>();
  for (const { path, sha256: digest } of manifest.files!) {
    listed.add(path);
    verification.files.checked++;
    const data = files.get(path);
    const actual = digests.get(path) ?? (data && sha256(data));
    if (actual === undefined) verification.files.missing.push(path);
    else if (actual !== digest) verification.files.changed.push(path);
  }
  const unlisted = new Set<string>();
  for (const paths of [digests.keys(), files.keys()])
    for (const path of paths) if (!listed.has(path) && !unlistedByDesign.has(path)) unlisted.add(path);
  verification.files.unlisted.push(...unlisted);
}

/** Each day with a report, evaluated again and compared; days in date order. */
function rederive(files: Files, manifest: Manifest, verification: Verification): void {
  const catalog = parsed<Catalog>(files, catalogPath);
  let compiled: CompiledCatalog;
  try {
    if (!catalog) throw new Error(`${catalogPath} is missing or is not JSON`);
    compiled = compileCatalog(catalog);
  } catch (error) {
    verification.fatal.push(`The catalog cannot be read, so no report can be re-derived: ${(error as Error).message}.`);
    return;
  }
  const items = evidenceItems(files);
  const folder = new EvidenceFolder(items);
  const reports = new ReportsInOrder(files);
  const catalogs = new CatalogsBySettings(files, compiled);
  for (const { date } of [...(manifest.reports ?? [])].sort((a, b) => (a.date < b.date ? -1 : 1))) {
    const bytes = files.get(`reports/${date}.json`);
    if (!bytes) {
      verification.days.push({ date, outcome: 'differs', controls: [], parts: [], reason: `reports/${date}.json is missing` });
      continue;
    }
    const previous = reports.before(date) ?? null;
    // Most days follow: re-derived from the report's opening alone, the report is then the one
    // re-derived and needs no parsing (a year's reports are some 30 MB of JSON). Any other
    // outcome is found again from the whole report, which names what differs.
    const opening = openingOf(bytes);
    const quick = opening && rederiveDay(files, catalogs, folder, { date, bytes, stored: opening, previous });
    if (quick?.derived && Boolean(quick.derived.awaitingReview) === Boolean(opening!.awaitingReview)) {
      reports.know(date, quick.derived);
      verification.days.push(quick.outcome);
      continue;
    }
    verification.days.push(rederiveDay(files, catalogs, folder, { date, bytes, stored: reports.on(date), previous }).outcome);
  }
}

/**
 * What re-derivation takes from a report: the fields it opens with, before its summary, and
 * whether it names submissions awaiting review (its last field). Undefined when its opening is
 * not such JSON. Its bytes equal to a re-derivation's, the whole report has these very values.
 */
function openingOf(bytes: Uint8Array): DayInputs['stored'] {
  const report = asBuffer(bytes);
  const end = report.indexOf(',"summary":');
  if (end < 0 || end > 4096) return undefined;
  let opening: unknown;
  try {
    opening = JSON.parse(`${report.toString('utf8', 0, end)}}`);
  } catch {
    return undefined;
  }
  if (typeof opening !== 'object' || opening === null || Array.isArray(opening)) return undefined;
  return { ...(opening as Opening), ...(report.includes('"awaitingReview":') ? { awaitingReview: {} } : {}) };
}

/**
 * The package's reports (and the one before the period), each parsed when its day comes and
 * kept only as the next day's previous report: a year's reports are some 30 MB of JSON.
 */
class ReportsInOrder {
  readonly #files: Files;
  /** Each day with a report, and its file: the period's, else the one before it. */
  readonly #paths = new Map<string, string>();
  readonly #dates: string[];
  /** The last two reports parsed: a day's and the one before it. */
  readonly #parsed = new Map<string, Report | undefined>();

  constructor(files: Files) {
    this.#files = files;
    for (const path of files.keys()) {
      const match = /^(reports|inputs\/previous)\/(\d{4}-\d{2}-\d{2})\.json$/.exec(path);
      if (match && (match[1] === 'reports' || !this.#paths.has(match[2]!))) this.#paths.set(match[2]!, path);
    }
    this.#dates = [...this.#paths.keys()].sort();
  }

  /** The report of the day, known to be `report` (its bytes are `JSON.stringify` of it). */
  know(date: string, report: Report): void {
    this.#parsed.set(date, report);
    if (this.#parsed.size > 2) this.#parsed.delete(this.#parsed.keys().next().value!);
  }

  /** The report of the day; undefined when it is not JSON. */
  on(date: string): Report | undefined {
    if (!this.#parsed.has(date)) {
      const path = this.#paths.get(date);
      this.#parsed.set(date, path === undefined ? undefined : parsed<Report>(this.#files, path));
      if (this.#parsed.size > 2) this.#parsed.delete(this.#parsed.keys().next().value!);
    }
    return this.#parsed.get(date);
  }

  /** The last readable report before `date`, as the daily job finds it. */
  before(date: string): Report | undefined {
    for (let at = this.#dates.findLastIndex((other) => other < date); at >= 0; at--) {
      const report = this.on(this.#dates[at]!);
      if (report) return report;
    }
    return undefined;
  }
}

/** The catalog with each settings version the reports name applied, once per version. */
class CatalogsBySettings {
  readonly #files: Files;
  readonly compiled: CompiledCatalog;
  readonly #applied = new Map<number | null, CompiledCatalog | undefined>();

  constructor(files: Files, compiled: CompiledCatalog) {
    this.#files = files;
    this.compiled = compiled;
  }

  /** Undefined when the package lacks the version named. */
  with(version: number | null): CompiledCatalog | undefined {
    if (!this.#applied.has(version)) {
      const settings = version === null ? undefined : parsed<SettingsVersion>(this.#files, settingsPathOf(version));
      this.#applied.set(version, version !== null && !settings ? undefined : withSettings(this.compiled, settings));
    }
    return this.#applied.get(version);
  }
}

const settingsPathOf = (version: number | null | undefined) => `settings/version-${version}.json`;

/** Every item the package holds, oldest arrival first. */
function evidenceItems(files: Files): EvidenceItem[] {
  const items: EvidenceItem[] = [];
  for (const path of files.keys()) {
    if (idOfEvidencePath(path) === undefined) continue;
    const item = parsed<EvidenceItem>(files, path);
    if (item && typeof item.receivedAt === 'string') items.push(item);
  }
  return items.sort((a, b) => (a.receivedAt < b.receivedAt ? -1 : a.receivedAt > b.receivedAt ? 1 : a.id < b.id ? -1 : 1));
}

/**
 * The evidence state, folded forward as the daily job folds it: while days come with later
 * cut-offs and later makings, only the items received since the last are added; otherwise it
 * starts again.
 */
class EvidenceFolder {
  readonly #items: readonly EvidenceItem[];
  #state: EvidenceState | undefined;
  #next = 0;
  #upTo = -Infinity;

  constructor(items: readonly EvidenceItem[]) {
    this.#items = items;
  }

  itemsFor(asOf: number, upTo: number): EvidenceItem[] {
    if (!this.#state || asOf < this.#state.asOf || upTo < this.#upTo) {
      this.#state = new EvidenceState(asOf);
      this.#next = 0;
    }
    this.#state.advance(asOf);
    for (; this.#next < this.#items.length; this.#next++) {
      const item = this.#items[this.#next]!;
      if (Date.parse(item.receivedAt) > upTo) break;
      this.#state.add(item);
    }
    this.#upTo = upTo;
    return this.#state.items();
  }
}

/** A report's fields re-derivation takes. */
type Opening = Pick<Report, 'runId' | 'catalogVersion' | 'settingsVersion' | 'timeZone' | 'asOf' | 'generatedAt'> & {
  awaitingReview?: unknown;
};

interface DayInputs {
  date: string;
  bytes: Uint8Array;
  /** The report the bytes hold, or its opening; undefined when they are not JSON. */
  stored: Report | Opening | undefined;
  previous: Report | null;
}

/** The day's outcome and, when it follows, the report re-derived. */
function rederiveDay(
  files: Files,
  catalogs: CatalogsBySettings,
  folder: EvidenceFolder,
  day: DayInputs,
): { outcome: DayOutcome; derived?: Report } {
  const { date, stored } = day;
  const skip = (reason: string) => ({ outcome: { date, outcome: 'differs' as const, controls: [], parts: [], reason } });
  if (!stored) return skip(`reports/${date}.json is not JSON`);
  if (!stored.runId?.startsWith('daily-'))
    return {
      outcome: {
        date,
        outcome: 'not_rederived',
        controls: [],
        parts: [],
        reason: `published by ${stored.runId}, not the daily job`,
      },
    };
  const { compiled } = catalogs;
  if (stored.catalogVersion !== compiled.catalog.version)
    return skip(`it names catalog ${stored.catalogVersion}, and the package holds ${compiled.catalog.version}`);
  const applied = catalogs.with(stored.settingsVersion ?? null);
  if (!applied) return skip(`${settingsPathOf(stored.settingsVersion)} is missing`);
  const exceptions = parsed<ActiveException[]>(files, exceptionsPath(date));
  const populations = parsed<PopulationInput[]>(files, populationsInputPath(date));
  if (!exceptions || !populations) return skip(`its inputs (${exceptionsPath(date)}, ${populationsInputPath(date)}) are missing`);
  let derived: Report;
  try {
    const asOf = new Date(stored.asOf);
    derived = evaluate(applied, {
      date,
      timeZone: stored.timeZone,
      asOf,
      generatedAt: new Date(stored.generatedAt),
      runId: stored.runId,
      evidence: folder.itemsFor(asOf.getTime(), Date.parse(stored.generatedAt)),
      previous: day.previous,
      exceptions,
      populations: populationsFromFiles(populations, (path) => parsed<string[]>(files, path) ?? []),
      // A report made with reviews required names what awaited review: it counted reviewed submissions only.
      ...(stored.awaitingReview ? { submissionReviews: reviewsOf(files) } : {}),
    });
  } catch (error) {
    return skip(`evaluating it failed: ${(error as Error).message}`);
  }
  if (Buffer.from(JSON.stringify(derived)).equals(day.bytes))
    return { outcome: { date, outcome: 'follows', controls: [], parts: [] }, derived };
  return { outcome: { date, outcome: 'differs', ...differences(stored as Report, derived) } };
}

/** The submissions' reviews the package carries, as an evaluation takes them. */
function reviewsOf(files: Files): SubmissionReviews {
  const reviews = parsed<Record<string, ReviewDecision>>(files, submissionReviewsPath) ?? {};
  return new Map(Object.entries(reviews));
}

/** Which controls, and which other parts, of two reports differ. */
function differences(stored: Report, derived: Report): { controls: string[]; parts: string[] } {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const storedControls = new Map((stored.controls ?? []).map((result) => [result.id, result]));
  const derivedControls = new Map(derived.controls.map((result) => [result.id, result]));
  const ids = [...new Set([...storedControls.keys(), ...derivedControls.keys()])].sort();
  const controls = ids.filter((id) => !same(storedControls.get(id), derivedControls.get(id)));
  const keys = [...new Set([...Object.keys(stored), ...Object.keys(derived)])].filter((key) => key !== 'controls');
  const parts = keys.filter((key) => !same(stored[key as keyof Report], derived[key as keyof Report]));
  return { controls, parts };
}

/** The evidence files changed or missing, each with the days and controls that do not follow and cite it. */
function evidenceProblems(files: Files, verification: Verification): EvidenceProblem[] {
  const tampered = [
    ...verification.files.changed.map((path) => ({ path, change: 'changed' as const })),
    ...verification.files.missing.map((path) => ({ path, change: 'missing' as const })),
  ];
  const problems: EvidenceProblem[] = [];
  for (const { path, change } of tampered) {
    const id = idOfEvidencePath(path);
    if (id === undefined) continue;
    const days: string[] = [];
    const controls = new Set<string>();
    for (const day of verification.days) {
      if (day.outcome !== 'differs' || day.controls.length === 0) continue;
      const report = parsed<Report>(files, `reports/${day.date}.json`);
      const citing = (report?.controls ?? []).filter(
        (result) => day.controls.includes(result.id) && result.evidence.includes(id),
      );
      if (citing.length === 0) continue;
      days.push(day.date);
      for (const result of citing) controls.add(result.id);
    }
    problems.push({ path, id, change, days, controls: [...controls].sort() });
  }
  return problems;
}

/** Days as ranges of consecutive days: `2026-11-10..2026-11-12, 2026-11-14`. */
export function dayRanges(days: readonly string[]): string {
  const next = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const ranges: [string, string][] = [];
  for (const day of [...days].sort()) {
    const last = ranges.at(-1);
    if (last && next(last[1]) === day) last[1] = day;
    else ranges.push([day, day]);
  }
  return ranges.map(([from, to]) => (from === to ? from : `${from}..${to}`)).join(', ');
}

/** The verification as lines for a person, the verdict last. */
export function describeVerification(verification: Verification): string[] {
  const lines = [...verification.fatal];
  const { signature, files, days } = verification;
  const signatureLines = {
    valid: `Signature: valid (Ed25519, key ${signature.fingerprint}).`,
    invalid: 'Signature: INVALID — manifest.json is not what was signed, or not with this key.',
    absent: 'Signature: ABSENT — the package has no manifest.sig.',
    other_key: `Signature: made with key ${signature.fingerprint}, not the manifest's — compare with the published key.`,
  };
  lines.push(signatureLines[signature.outcome]);
  lines.push(`Files: ${files.checked} listed; ${files.changed.length} changed, ${files.missing.length} missing.`);
  for (const path of files.changed) lines.push(`  changed: ${path}`);
  for (const path of files.missing) lines.push(`  missing: ${path}`);
  for (const path of files.unlisted) lines.push(`  not in the manifest (ignored): ${path}`);
  const follow = days.filter((day) => day.outcome === 'follows').length;
  const differ = days.filter((day) => day.outcome === 'differs');
  lines.push(`Reports: ${days.length}; ${follow} follow from the evidence, ${differ.length} do not.`);
  for (const day of differ) {
    const what = [
      day.controls.length > 0 ? `controls ${day.controls.join(', ')}` : '',
      day.parts.length > 0 ? `parts ${day.parts.join(', ')}` : '',
      day.reason ?? '',
    ].filter((part) => part !== '');
    lines.push(`  ${day.date} does not follow: ${what.join('; ')}`);
  }
  for (const day of days.filter((each) => each.outcome === 'not_rederived'))
    lines.push(`  ${day.date} not re-derived: ${day.reason}`);
  for (const problem of verification.evidence) {
    const affected =
      problem.days.length > 0
        ? `days ${dayRanges(problem.days)}, controls ${problem.controls.join(', ')} no longer follow`
        : 'no report that cites it differs';
    lines.push(
      `Evidence item ${problem.id} ${problem.change === 'changed' ? 'changed' : 'removed'} (${problem.path}): ${affected}.`,
    );
  }
  lines.push(verification.ok ? 'VERIFIED: every file is as signed and every report follows.' : 'NOT VERIFIED.');
  return lines;
}
