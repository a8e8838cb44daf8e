/**
 * A control's history as CSV (RFC 4180), one row a day, for a spreadsheet or an auditor's
 * workpapers: the day, its status (empty without a report), and on the day of a change the
 * status before, why (the findings that were not a pass; for a fix, the ones it resolved) and
 * the evidence items that came with it.
 *
 * Finding messages quote evidence, which anyone who can submit evidence writes: a cell that a
 * spreadsheet would read as a formula (starting with = + - @, a tab or a carriage return) is
 * prefixed with an apostrophe, as OWASP advises against CSV injection.
 */
import type { ControlHistory } from './control-history.js';

export const historyCsvColumns = ['date', 'status', 'changed_from', 'reasons', 'evidence_added'] as const;

/** One field: quoted when it holds a comma, quote or line break; defused when it could be a formula. */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function controlHistoryCsv(history: ControlHistory): string {
  const changes = new Map(history.changes.map((change) => [change.date, change]));
  const rows: string[][] = [[...historyCsvColumns]];
  for (const day of history.days) {
    const change = changes.get(day.date);
    const explaining = change && (change.to.status === 'passing' ? (change.from?.findings ?? []) : change.to.findings);
    rows.push([
      day.date,
      day.status ?? '',
      change ? (change.from?.status ?? 'none') : '',
      explaining?.map((finding) => finding.message).join(' | ') ?? '',
      change?.evidence.added.join(' ') ?? '',
    ]);
  }
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}
