/** How the app words statuses, dates and scores, in one place. */
import type { components } from '$api-types';
import { controlStatusesByRisk, severityRank, type Severity } from '@evident/contract';

export type ControlStatus = components['schemas']['ControlStatus'];

/** Riskiest first, as lists and filters show them. */
export const statusOrder: readonly ControlStatus[] = controlStatusesByRisk;

export const statusLabel: Record<ControlStatus, string> = {
  passing: 'Passing',
  failing: 'Failing',
  stale: 'Stale',
  missing: 'Missing evidence',
  not_applicable: 'Not applicable',
};

/** Riskiest first: by severity, then id. */
export function byRisk<T extends { id: string; severity: Severity }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || (a.id < b.id ? -1 : 1));
}

/** `2026-11-21` → "Saturday, 21 November 2026", read as a calendar day (no time zone shift). */
export function longDate(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export const scoreText = (score: number) => score.toFixed(1);

/** An instant as people read it, in their own time zone. */
export function instantText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}
