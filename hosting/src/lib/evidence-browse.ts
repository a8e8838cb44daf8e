/**
 * The evidence browser's state as it lives in the address bar, so a filtered page is a link:
 * `?kind=tls.endpoint&control=NET-02&source=scanner&from=2026-11-01&limit=20&cursor=…&cursor=…`. The `cursor`s
 * are the API's cursors that led to the page shown, oldest first: the last one asks for this
 * page, and dropping it goes back one page (the API pages forward only). Pure, so it is tested
 * without a browser; the server does the filtering.
 */
import { datePattern, evidenceKindNames, pageLimits } from '@evident/contract';
import type { EvidenceKind, QueryOf } from './api-types.ts';

export interface EvidenceFilters {
  kind: string;
  subject: string;
  /** The collector or person that produced the items, matched exactly. */
  source: string;
  control: string;
  /** Calendar days (UTC), both inclusive; the API takes instants, `from` at or after and `to` before. */
  from: string;
  to: string;
}

export interface EvidenceBrowse {
  filters: EvidenceFilters;
  limit: number;
  /** The cursors that led to the page shown; empty on the first page. */
  cursors: string[];
}

/** Every kind, in the order the catalog groups them. */
export const evidenceKinds: readonly EvidenceKind[] = evidenceKindNames;

export const pageSizes = [10, 25, 50, 100] as const;
/** The API's default `limit`, left out of the address. */
const defaultLimit = pageLimits.evidence.default;

const filterNames = ['kind', 'subject', 'source', 'control', 'from', 'to'] as const;

export const noFilters: EvidenceFilters = { kind: '', subject: '', source: '', control: '', from: '', to: '' };
const day = new RegExp(datePattern);

export function browseFrom(query: URLSearchParams): EvidenceBrowse {
  const filters = Object.fromEntries(filterNames.map((name) => [name, query.get(name) ?? ''])) as unknown as EvidenceFilters;
  const limit = Number(query.get('limit'));
  return {
    filters,
    limit: Number.isInteger(limit) && limit >= 1 && limit <= pageLimits.evidence.maximum ? limit : defaultLimit,
    cursors: query.getAll('cursor').filter(Boolean),
  };
}

/** The address bar's query for a state; empty values and the default page size are left out. */
export function addressOf(browse: EvidenceBrowse): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of filterNames) {
    const value = browse.filters[name].trim();
    if (value) query.set(name, value);
  }
  if (browse.limit !== defaultLimit) query.set('limit', String(browse.limit));
  for (const cursor of browse.cursors) query.append('cursor', cursor);
  return query;
}

/** The day after a calendar day, for the API's exclusive `to`. */
function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * The `GET /api/evidence` query for a state. Days become instants (midnight UTC; the end day is
 * inclusive, so `to` is the next midnight); anything that is not a day is passed on as it is, for
 * the server to answer.
 */
export function evidenceQueryOf(browse: EvidenceBrowse): QueryOf<'listEvidence'> {
  const { subject, source } = browse.filters;
  const kind = browse.filters.kind.trim();
  const control = browse.filters.control.trim();
  const from = browse.filters.from.trim();
  const to = browse.filters.to.trim();
  return {
    // The address may hold any text; the server answers for one that is not a kind.
    kind: (kind || undefined) as EvidenceKind | undefined,
    // The API matches the subject and the source exactly, spaces included.
    subject: subject || undefined,
    source: source || undefined,
    control: control || undefined,
    from: from ? (day.test(from) ? `${from}T00:00:00Z` : from) : undefined,
    to: to ? (day.test(to) ? `${nextDay(to)}T00:00:00Z` : to) : undefined,
    limit: browse.limit,
    cursor: browse.cursors.at(-1) || undefined,
  };
}

/**
 * Which items a page shows, counted from the first: every page before it was full, because the
 * API continues after a full page. (The one exception, a page a bounded scan ended early, is
 * rare enough that its followers' numbers may run ahead; `pageState` (cursor-pages.ts) says when it happens.)
 * `undefined` for an empty page.
 */
export function rangeOf(cursors: readonly string[], limit: number, count: number): { first: number; last: number } | undefined {
  if (count === 0) return undefined;
  const first = cursors.length * limit + 1;
  return { first, last: first + count - 1 };
}

/** One entry of an item's `data`, as text: short values inline, structured ones as indented JSON. */
export interface DataEntry {
  name: string;
  text: string;
  block: boolean;
  /** The page of the evidence item the entry names, for a scanner finding's `textsIn`. */
  href?: string;
}

/**
 * An item's `data` as a definition list's entries, in the order the collector sent them. A
 * scanner finding that names the item carrying its finding's texts (`textsIn`) links to it.
 */
export function dataEntries(data: Record<string, unknown>, kind?: string): DataEntry[] {
  return Object.entries(data).map(([name, value]) => {
    if (kind === 'scanner.finding' && name === 'textsIn' && typeof value === 'string') {
      return { name, text: value, block: false, href: `/evidence/${encodeURIComponent(value)}` };
    }
    if (value === null || typeof value !== 'object') return { name, text: String(value), block: false };
    if (Array.isArray(value) && value.every((element) => element === null || typeof element !== 'object')) {
      return { name, text: value.length === 0 ? '(none)' : value.map(String).join(', '), block: false };
    }
    return { name, text: JSON.stringify(value, null, 2), block: true };
  });
}
