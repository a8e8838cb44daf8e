/**
 * A control's history as CSV (RFC 4180), one row a day, for a spreadsheet or an auditor's
 * workpapers: the day, its status (empty without a report), and on the day of a change the
 * status before, why (the findings that were not a pass; for a fix, the ones it resolved) and
 * the evidence items that came with it.
 *
 * Finding messages quote evidence, which anyone who can submit evidence writes, so every field
 * is quoted and every formula is defused (OWASP, CSV injection): an apostrophe goes before each
 * formula trigger (= + - @, a tab or a carriage return) that a spreadsheet could read as the
 * start of a cell. That is the start of the field, and also any place after a separator some
 * reader splits at: a `;` (the list separator of many locales, where `x;=1+2;` would open as a
 * cell `=1+2`), a `,`, a tab or a line break, even past spaces (a reader may trim them) and
 * quotes. The apostrophe shows as text and stops the spreadsheet evaluating what follows.
 */
import type { ControlHistory } from './control-history.js';

export const historyCsvColumns = ['date', 'status', 'changed_from', 'reasons', 'evidence_added'] as const;

/**
 * Where a cell could start with a formula: before a trigger, after the field's start or a
 * separator and any spaces or quotes. The lookahead comes first, so the lookbehind only scans
 * back from a trigger, over the spaces and quotes just before it: linear in the field.
 */
const cellStartBeforeFormula = /(?=[=+\-@\t\r])(?<=(?:^|[;,\t\r\n])[ "]*)/g;

/** One field, defused and quoted. */
function field(value: string): string {
  return `"${value.replace(cellStartBeforeFormula, "'").replaceAll('"', '""')}"`;
}

/** Rows as CSV text, header first, CRLF line ends, every field defused and quoted. */
export const csvOf = (rows: readonly (readonly string[])[]) => rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';

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
  return csvOf(rows);
}

export const periodSummaryColumns = [
  'control',
  'title',
  'owner',
  'severity',
  'status_at_end',
  'days_assessed',
  'days_passing',
  'passing_share',
  'longest_not_passing_days',
  'longest_not_passing_from',
  'longest_not_passing_to',
  'fixes',
  'mean_days_to_fix',
] as const;

/** What the period summary says of a control besides its history: from the catalog, or its last result. */
export interface ControlFacts {
  title: string;
  owner: string;
  severity: string;
}

/**
 * Every control over one period, one row each (the audit package's `history/controls.csv`): its
 * status on the period's last report, days assessed and passing, the share (0–1, four decimals),
 * its longest non-passing streak and its fixes. Empty cells where the period has no figure.
 */
export function periodSummaryCsv(controls: readonly { history: ControlHistory; facts: ControlFacts }[]): string {
  const rows: string[][] = [[...periodSummaryColumns]];
  for (const { history, facts } of controls) {
    const { summary } = history;
    const streak = summary.longestNonPassingStreak;
    const last = history.days.findLast((day) => day.status !== null);
    rows.push([
      history.controlId,
      facts.title,
      facts.owner,
      facts.severity,
      last?.status ?? '',
      String(summary.daysWithReport),
      String(summary.daysPassing),
      summary.passingShare === null ? '' : summary.passingShare.toFixed(4),
      streak ? String(streak.days) : '',
      streak?.from ?? '',
      streak?.to ?? '',
      String(summary.fixes),
      summary.meanTimeToFixDays === null ? '' : String(Math.round(summary.meanTimeToFixDays * 10) / 10),
    ]);
  }
  return csvOf(rows);
}
