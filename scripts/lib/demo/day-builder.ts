/**
 * How one demo day's evidence is written down: collection times squeezed into the collectors'
 * morning window (and before `now` on today), stable ids, and values that vary by day but never
 * by run. Everything is derived from hashes of names and dates, so the same day always gives the
 * same bytes.
 */
import { addDays } from '../../../functions/src/assessment/dates.ts';
import type { EvidenceInput, EvidenceKindName } from '../../../functions/src/assessment/model.ts';
import type { NewSubmission } from '../../../functions/src/submissions/submission-store.ts';

/** A submission as a person made it through the web app on a demo day. */
export interface DemoSubmission extends NewSubmission {
  /** When it was made (ISO 8601), during its day. */
  submittedAt: string;
}

export const minuteMs = 60_000;
export const hourMs = 60 * minuteMs;
export const dayMs = 24 * hourMs;
/** Every collector posts before this offset into the day. */
const collectionWindowMs = 5 * hourMs;

/** FNV-1a: a stable 32-bit hash for jitter and varied-but-fixed values. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A value in `[0, modulo)` fixed by `key` alone: the same on every day. */
export const fixed = (key: string, modulo: number) => hash(key) % modulo;

/** Letters, digits and dashes: what an evidence id may hold. */
function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const round1 = (value: number) => Math.round(value * 10) / 10;

/** `demo-<kind>-<subject>-<date>`, shortened with a hash if it would pass 128 characters. */
function evidenceId(kind: string, subject: string, date: string): string {
  const id = `demo-${slugify(kind)}-${slugify(subject)}-${date}`;
  if (id.length <= 128) return id;
  const tag = hash(`${kind}|${subject}`).toString(36);
  return `demo-${slugify(kind)}-${slugify(subject).slice(0, 128 - 18 - slugify(kind).length - tag.length)}-${tag}-${date}`;
}

export interface DayContext {
  /** The last day of the history (YYYY-MM-DD), on which the story is anchored. */
  today: string;
  date: string;
  /** Days before today: 0 for today. */
  ago: number;
  /** Days since the first demo day (0-based), for values that drift. */
  index: number;
  start: number;
  /** How far into the day anything may be collected; the whole day except for today. */
  limit: number;
}

export class DayBuilder {
  readonly evidence: EvidenceInput[] = [];
  readonly submissions: DemoSubmission[] = [];
  readonly day: DayContext;

  constructor(day: DayContext) {
    this.day = day;
  }

  /** The day `n` days before today (YYYY-MM-DD). */
  daysAgo(n: number): string {
    return addDays(this.day.today, -n);
  }

  /** A value in `[0, modulo)` that changes from day to day with `key`. */
  vary(key: string, modulo: number): number {
    return hash(`${key}|${this.day.date}`) % modulo;
  }

  /** When something planned at `offset` into the day happens, squeezed before `limit` on today. */
  at(offset: number): number {
    const { start, limit } = this.day;
    const scaled = limit >= collectionWindowMs ? offset : Math.floor((offset * Math.max(0, limit)) / collectionWindowMs);
    return start + Math.max(0, Math.min(scaled, limit));
  }

  /** A collector's run: from `startHour`, with up to 45 minutes of jitter per subject. */
  collectedAt(source: string, startHour: number, subject: string): number {
    const jitterSeconds = hash(`${source}|${subject}|${this.day.date}`) % (45 * 60);
    return this.at(startHour * hourMs + jitterSeconds * 1000);
  }

  add(
    kind: EvidenceKindName,
    source: string,
    subject: string,
    collectedAt: number,
    data: Record<string, unknown>,
    extra: Pick<EvidenceInput, 'effectiveDate' | 'controls'> = {},
  ): void {
    this.evidence.push({
      id: evidenceId(kind, subject, this.day.date),
      kind,
      source,
      subject,
      collectedAt: new Date(collectedAt).toISOString(),
      ...extra,
      data,
    });
  }
}
