/**
 * How the pages word who must act on a control and by when (API 1.5.0: a control result's
 * `owner`, and while it is failing, stale or missing evidence its `openSince`, `dueDate` and
 * `overdue`), and the order open work is listed in. Days are counted between calendar dates
 * from the report's own day, never the browser's clock, so the words agree with the report on
 * any day and in any time zone it is read. Pure, so it is unit tested without a browser.
 */
import { plural, severityRank, type Severity } from '@evident/contract';

const dayMs = 24 * 60 * 60 * 1000;

/** Whole days from `from` to `to` (both `YYYY-MM-DD`); negative when `to` comes first. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs);
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/**
 * "due in 5 days", "due today", "3 days overdue": `dueDate` as seen on the report's day `on`.
 * Overdue only from the day after the due date, as the API counts it.
 */
export function dueText(dueDate: string, on: string): string {
  const days = daysBetween(on, dueDate);
  if (days < 0) return `${plural(-days, 'day')} overdue`;
  if (days === 0) return 'due today';
  return `due in ${plural(days, 'day')}`;
}

/** What a control needs for its place in the open work; a result and a list entry both have it. */
export interface FollowedUp {
  id: string;
  severity: Severity;
  dueDate?: string;
  overdue?: boolean;
}

/**
 * The controls that have a due date (those open in a report made from API 1.5.0 on), in the
 * order to act on them: overdue first, then the soonest due, then the riskiest, then by id.
 */
export function openWork<T extends FollowedUp>(controls: readonly T[]): (T & { dueDate: string })[] {
  const due = controls.filter((control): control is T & { dueDate: string } => control.dueDate !== undefined);
  return due.sort(
    (a, b) =>
      Number(b.overdue === true) - Number(a.overdue === true) ||
      (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : 0) ||
      severityRank[a.severity] - severityRank[b.severity] ||
      (a.id < b.id ? -1 : 1),
  );
}

/** How many open controls the dashboard lists before it points to the controls list. */
export const openWorkShown = 8;

/**
 * Whether a report says who must act by when: reports made before API 1.5.0 count no overdue
 * controls and carry no owners or due dates, and their pages show nothing about them.
 */
export const hasFollowUps = <T extends { overdue?: number }>(summary: T): summary is T & { overdue: number } =>
  summary.overdue !== undefined;

/** "and 4 more": the open controls the dashboard does not list; empty when it lists them all. */
export const moreText = (total: number): string =>
  total > openWorkShown ? `and ${plural(total - openWorkShown, 'more open control', 'more open controls')}` : '';
