/**
 * The audit package for a person: `index.html` (the period's summary, each in-scope requirement
 * of each framework with its controls, each control's status day by day and the evidence behind
 * its last result, the populations, and a link to every other file) and `evidence.html` (every
 * evidence file, by kind and subject). Static pages that open from the unpacked folder with no
 * network and no script; every text from the data is escaped, every link is relative.
 */
import { controlStatuses } from '@evident/contract';
import type { Actor, Catalog, ControlStatus, Report } from '../assessment/model.js';
import type { EvidenceCounts } from './package-inputs.js';
import type { ArchivedFile, ArchiveFile } from './zip-writer.js';

/** What the readable index needs of the period, gathered as the reports stream past. */
export interface ReadableFacts {
  catalog: Catalog;
  /** The days with a report, and each control's status on each. */
  days: string[];
  scores: number[];
  statuses: Map<string, (ControlStatus | null)[]>;
  last: Report | undefined;
  /** Where each evidence item went, by id. */
  evidencePaths: Map<string, string>;
  evidence: EvidenceCounts & { start?: string; upTo?: string };
}

/** What the pages say of the package itself (audit-package.ts `PackageRequest`). */
interface IndexRequest {
  from: string;
  to: string;
  timeZone: string;
  generatedAt: Date;
  apiVersion: string;
  requestedBy: Actor;
}

/** A file left out, and why (audit-package.ts `Unavailable`). */
interface LeftOut {
  path: string;
  reason: string;
}

export const indexPath = 'index.html';
export const evidenceIndexPath = 'evidence.html';
/** Evidence links shown beside one control; the rest are a link to its history away. */
const evidenceShown = 20;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character]!);
/** A package path as a relative link: each segment encoded (an id's `%3A` is part of its file's name). */
const href = (path: string) => escapeHtml(path.split('/').map(encodeURIComponent).join('/'));
const link = (path: string, text = path) => `<a href="${href(path)}">${escapeHtml(text)}</a>`;
const anchorOf = (controlId: string) => `control-${controlId.replace(/[^A-Za-z0-9_-]/g, '_')}`;

const style = `body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
.days{display:flex;flex-wrap:wrap;gap:1px}.day{display:inline-block;width:.6rem;height:1rem}
.passing{background:#2e7d32}.failing{background:#c62828}.stale{background:#f9a825}.missing{background:#6d4c41}
.not_applicable{background:#9e9e9e}.none{background:#eee}code{font-size:.9em}`;

function page(title: string, body: string): Buffer {
  return Buffer.from(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"><style>${style}</style></head>\n` +
      `<body>\n${body}\n</body></html>\n`,
  );
}

/** The two pages, made from what the package learnt and every file it holds. */
export function* packageIndexFiles(
  request: IndexRequest,
  readable: ReadableFacts,
  unavailable: readonly LeftOut[],
  archived: readonly ArchivedFile[],
): Generator<ArchiveFile> {
  const modified = request.generatedAt;
  // One page made at a time: the evidence page of a year's package is some 10 MB.
  yield {
    path: indexPath,
    data: page(`Audit package ${request.from} to ${request.to}`, indexBody(request, readable, unavailable, archived)),
    modified,
  };
  yield { path: evidenceIndexPath, data: page(`Evidence ${request.from} to ${request.to}`, evidenceBody(archived)), modified };
}

function indexBody(
  request: IndexRequest,
  readable: ReadableFacts,
  unavailable: readonly LeftOut[],
  archived: readonly ArchivedFile[],
): string {
  const who = request.requestedBy.email ?? request.requestedBy.uid;
  return [
    `<h1>Evident audit package: ${escapeHtml(request.from)} to ${escapeHtml(request.to)}</h1>`,
    `<p>Days in ${escapeHtml(request.timeZone)}. Made ${escapeHtml(request.generatedAt.toISOString())} for ${escapeHtml(who)} ` +
      `by Evident ${escapeHtml(request.apiVersion)}. To check that every report follows from the evidence here, run ` +
      `<code>node verify/verify.mjs .</code> in this folder (Node 20 or later); ${link('README.txt')} says what is where.</p>`,
    summarySection(readable),
    requirementsSection(readable.last),
    controlsSection(readable),
    populationsSection(readable.last),
    filesSection(unavailable, archived),
  ].join('\n');
}

function summarySection({ days, scores, last }: ReadableFacts): string {
  const rows = days.map((date, n) => `<tr><td>${link(`reports/${date}.json`, date)}</td><td>${scores[n]}</td></tr>`);
  const counts = last
    ? `<p>On ${escapeHtml(last.date)}: score ${last.summary.score}; ` +
      controlStatuses.map((status) => `${last.summary.counts[status]} ${status.replace('_', ' ')}`).join(', ') +
      '.</p>'
    : '<p>No report in the period.</p>'; // the package is never made so; said rather than left blank
  return `<h2>Summary</h2>\n${counts}\n<table><tr><th>Day</th><th>Score</th></tr>${rows.join('')}</table>`;
}

function requirementsSection(last: Report | undefined): string {
  if (!last) return '';
  const sections = (last.frameworks ?? []).map((framework) => {
    const rows = framework.requirements.map(
      (requirement) =>
        `<tr><td>${escapeHtml(requirement.id)}</td><td>${escapeHtml(requirement.status.replace('_', ' '))}</td><td>` +
        (requirement.controls.length === 0
          ? 'no control'
          : requirement.controls.map((id) => `<a href="#${anchorOf(id)}">${escapeHtml(id)}</a>`).join(', ')) +
        '</td></tr>',
    );
    return (
      `<h3>${escapeHtml(framework.name)}</h3><p>${escapeHtml(framework.scope ?? 'Scope')}: ${framework.inScope} requirements in scope.</p>` +
      `<table><tr><th>Requirement</th><th>On ${escapeHtml(last.date)}</th><th>Controls</th></tr>${rows.join('')}</table>`
    );
  });
  return `<h2>Requirements in scope</h2>\n${sections.join('\n')}`;
}

function controlsSection({ days, statuses, last, catalog, evidencePaths }: ReadableFacts): string {
  const results = new Map((last?.controls ?? []).map((result) => [result.id, result]));
  const titles = new Map(catalog.controls.map((control) => [control.id, control.title]));
  const sections = [...statuses.keys()].sort().map((id) => {
    const daily = statuses.get(id)!;
    const cells = days.map((date, n) => {
      const status = daily[n] ?? 'none';
      return `<span class="day ${status}" title="${escapeHtml(`${date}: ${status.replace('_', ' ')}`)}"></span>`;
    });
    const result = results.get(id);
    const evidence = (result?.evidence ?? []).slice(0, evidenceShown).map((itemId) => {
      const path = evidencePaths.get(itemId);
      return `<li>${path ? link(path, itemId) : `${escapeHtml(itemId)} (not in the package)`}</li>`;
    });
    const more = (result?.evidence.length ?? 0) - evidence.length;
    return (
      `<h3 id="${anchorOf(id)}">${escapeHtml(id)} ${escapeHtml(titles.get(id) ?? result?.title ?? '')}</h3>` +
      `<p>${link(`history/${id}.csv`, 'Day by day')}; on ${escapeHtml(last?.date ?? '')}: ${escapeHtml(result?.status ?? 'no result')}.</p>` +
      `<div class="days">${cells.join('')}</div>` +
      (evidence.length > 0 ? `<p>Evidence behind its last result:</p><ul>${evidence.join('')}</ul>` : '') +
      (more > 0 ? `<p>And ${more} more: ${link(`reports/${last!.date}.json`, 'the report')} lists them.</p>` : '')
    );
  });
  return `<h2>Controls</h2>\n<p>Each square is a day of the period: passing, failing, stale, missing, not applicable, or no report.</p>\n${sections.join('\n')}`;
}

function populationsSection(last: Report | undefined): string {
  const rows = (last?.controls ?? []).flatMap((result) =>
    (result.populations ?? []).map(
      (used) =>
        `<tr><td>${escapeHtml(result.id)}</td><td>${escapeHtml(used.kind)}</td><td>${used.count}</td>` +
        `<td><code>${escapeHtml(used.sha256)}</code></td><td>${escapeHtml(used.runs.map((run) => run.runId).join(', '))}</td></tr>`,
    ),
  );
  return (
    `<h2>Populations and samples</h2>\n<p>How samples are drawn, with a test vector: ${link('sampling/method.json')}. ` +
    `Each day's populations: <code>sampling/populations/&lt;date&gt;.csv</code> (below).</p>` +
    (rows.length > 0
      ? `<table><tr><th>Control</th><th>Kind</th><th>Subjects</th><th>SHA-256</th><th>Runs</th></tr>${rows.join('')}</table>`
      : '')
  );
}

function filesSection(unavailable: readonly LeftOut[], archived: readonly ArchivedFile[]): string {
  const listed = archived
    .filter(({ path }) => !path.startsWith('evidence/'))
    .map(({ path, size }) => `<li>${link(path)} (${size} bytes)</li>`);
  const missing = unavailable.map(({ path, reason }) => `<li><code>${escapeHtml(path)}</code>: ${escapeHtml(reason)}</li>`);
  return (
    `<h2>Files</h2>\n<p>Every evidence item: ${link(evidenceIndexPath)}. ${link('manifest.json')} holds every file's SHA-256 ` +
    `and ${link('manifest.sig')} its Ed25519 signature; ${link('SHA256SUMS')} the same digests for <code>sha256sum -c</code>.</p>` +
    `<ul>${listed.join('')}</ul>` +
    (missing.length > 0 ? `<h3>Not included</h3><ul>${missing.join('')}</ul>` : '')
  );
}

/** Every evidence file, by kind then subject (the folders they are in). */
function evidenceBody(archived: readonly ArchivedFile[]): string {
  const paths = archived.map(({ path }) => path).filter((path) => path.startsWith('evidence/'));
  paths.sort();
  const out: string[] = ['<h1>Evidence</h1>', `<p>${paths.length} items; ${link(indexPath, 'back to the index')}.</p>`];
  let kind = '';
  let subject = '';
  for (const path of paths) {
    const [, itemKind = '', itemSubject = '', name = ''] = path.split('/');
    if (itemKind !== kind || itemSubject !== subject) {
      if (subject !== '') out.push('</ul>');
      if (itemKind !== kind) out.push(`<h2>${escapeHtml(itemKind)}</h2>`);
      out.push(`<h3>${escapeHtml(itemSubject)}</h3><ul>`);
      kind = itemKind;
      subject = itemSubject;
    }
    out.push(`<li>${link(path, name)}</li>`);
  }
  if (subject !== '') out.push('</ul>');
  return out.join('\n');
}
