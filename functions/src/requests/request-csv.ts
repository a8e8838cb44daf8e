/**
 * The request list as CSV (docs/audit-requests.md), both ways. An import reads a header row
 * naming its columns in any order — `control`, `from`, `to`, `description`, and `id` to make a
 * re-import find the requests it made — and one request a row; the columns an export adds
 * (`status`, `answers`, `history`) are read past, so an exported list imports again. Every
 * fault of every row is found before anything is stored, each naming its row, line and column:
 * an unknown control, a bad period, a duplicate row, a cell a spreadsheet would run as a formula
 * (refused: the list came from outside, and an auditor's cell that starts with `=` is a mistake
 * or an attack). The export defuses such cells with an apostrophe instead (csvOf), since what it
 * writes came from people Evident lets sign in.
 */
import { auditRequestCsvColumns, auditRequestLimits } from '@evident/contract';
import { csvOf } from '../reports/control-history-csv.js';
import { readCsv, utf8Text, type CsvRecord } from './csv-reader.js';
import { normalDescription, periodFault, type AuditRequest, type Period } from './request-model.js';

/** A row of an import, read and checked on its own. */
export interface ImportRow {
  /** 1 for the first row after the header. */
  row: number;
  line: number;
  id: string | undefined;
  controlId: string;
  period: Period;
  description: string;
}

/** A fault of the CSV: where (row 0 is the header, or the file itself) and what. */
export interface CsvFault {
  row: number;
  line: number;
  column?: string;
  message: string;
}

/** The CSV cannot be imported; `faults` says every reason found. */
export class RequestListRefused extends Error {
  readonly faults: CsvFault[];

  constructor(faults: CsvFault[]) {
    super(`${faults.length} faults in the request list`);
    this.name = 'RequestListRefused';
    this.faults = faults;
  }
}

const exportOnly = ['status', 'answers', 'history'] as const;
const required = ['control', 'from', 'to', 'description'] as const;
type Column = (typeof auditRequestCsvColumns)[number];

/** A cell a spreadsheet would read as a formula: one starting, past any spaces, with = + - @, or a tab or carriage return. */
const isFormula = (cell: string): boolean => /^[\t\r]|^ *[=+\-@]/.test(cell);

export interface ImportContext {
  isControl: (id: string) => boolean;
  isId: (id: string) => boolean;
}

/** The rows of a request list's CSV, every one checked; `RequestListRefused` with every fault found. */
export function readRequestList(bytes: Buffer, context: ImportContext): ImportRow[] {
  const records = readCsv(utf8Text(bytes), auditRequestLimits.importRows + 1);
  const [header, ...rest] = records;
  if (!header) throw new RequestListRefused([{ row: 0, line: 1, message: 'is empty: the first row names the columns' }]);
  const columns = columnsOf(header);
  const faults: CsvFault[] = [];
  const rows: ImportRow[] = [];
  rest.forEach((record, index) => {
    const row = readRow(record, index + 1, columns, context, faults);
    if (row) rows.push(row);
  });
  faults.push(...duplicates(rows));
  if (faults.length > 0) throw new RequestListRefused(faults);
  return rows;
}

/** Each column's index in the header; refuses an unknown, repeated or missing column. */
function columnsOf(header: CsvRecord): Map<Column, number> {
  const columns = new Map<Column, number>();
  const faults: CsvFault[] = [];
  header.fields.forEach((name, index) => {
    const column = name.trim().toLowerCase();
    if ((exportOnly as readonly string[]).includes(column)) return;
    if (!(auditRequestCsvColumns as readonly string[]).includes(column)) {
      faults.push({
        row: 0,
        line: header.line,
        column: name,
        message: `is not a column of a request list (${auditRequestCsvColumns.join(', ')})`,
      });
    } else if (columns.has(column as Column)) {
      faults.push({ row: 0, line: header.line, column, message: 'is named twice in the header' });
    } else columns.set(column as Column, index);
  });
  for (const column of required)
    if (!columns.has(column)) faults.push({ row: 0, line: header.line, column, message: 'is missing from the header' });
  if (faults.length > 0) throw new RequestListRefused(faults);
  return columns;
}

function readRow(
  record: CsvRecord,
  row: number,
  columns: Map<Column, number>,
  context: ImportContext,
  faults: CsvFault[],
): ImportRow | undefined {
  const before = faults.length;
  const fault = (column: string | undefined, message: string) =>
    faults.push({ row, line: record.line, ...(column ? { column } : {}), message });
  record.fields.forEach((cell, index) => {
    if (isFormula(cell))
      fault(
        [...columns].find(([, at]) => at === index)?.[0] ?? `${index + 1}`,
        'starts like a spreadsheet formula (= + - @): write it without that first character',
      );
  });
  const cell = (column: Column) => {
    const at = columns.get(column);
    return at === undefined ? undefined : (record.fields[at] ?? '').trim();
  };
  const id = cell('id') || undefined;
  const controlId = cell('control')!;
  const description = normalDescription(cell('description')!);
  const period = { from: cell('from')!, to: cell('to')! };
  if (id !== undefined && !context.isId(id)) fault('id', `"${id}" is not a request id (letters, then a digit, as PBC-001)`);
  if (!context.isControl(controlId)) fault('control', controlId ? `"${controlId}" names no control in the catalog` : 'is empty');
  const periodProblem = periodFault(period);
  if (periodProblem) fault(periodProblem.field, periodProblem.message);
  if (description === '') fault('description', 'is empty');
  else if (description.length > auditRequestLimits.descriptionChars)
    fault('description', `is longer than ${auditRequestLimits.descriptionChars} characters`);
  return faults.length === before ? { row, line: record.line, id, controlId, period, description } : undefined;
}

/** What makes two rows the same request: its control, period and description. */
export const sameAsk = (a: Pick<ImportRow, 'controlId' | 'period' | 'description'>, b: typeof a): boolean =>
  a.controlId === b.controlId &&
  a.period.from === b.period.from &&
  a.period.to === b.period.to &&
  a.description === b.description;

/** A fault for each row that repeats an earlier one, or an earlier row's id. */
function duplicates(rows: readonly ImportRow[]): CsvFault[] {
  const faults: CsvFault[] = [];
  const byKey = new Map<string, ImportRow>();
  const byId = new Map<string, ImportRow>();
  for (const row of rows) {
    const key = JSON.stringify([row.controlId, row.period.from, row.period.to, row.description]);
    const first = byKey.get(key);
    if (first)
      faults.push({
        row: row.row,
        line: row.line,
        message: `repeats row ${first.row} (the same control, period and description)`,
      });
    else byKey.set(key, row);
    const sameId = row.id !== undefined ? byId.get(row.id) : undefined;
    if (sameId)
      faults.push({ row: row.row, line: row.line, column: 'id', message: `"${row.id}" is the id of row ${sameId.row} too` });
    else if (row.id !== undefined) byId.set(row.id, row);
  }
  return faults;
}

const whoOf = (by: { uid: string; email?: string }) => by.email ?? by.uid;

/**
 * The request list as CSV: the import's columns, then each request's status, its answers (one
 * a line: kind, reference and note) and its history (one step a line: when, what, who, and the
 * comment). For the audit package and `GET /api/requests/export.csv`.
 */
export function requestListCsv(requests: readonly AuditRequest[]): string {
  const rows = requests.map((request) => [
    request.id,
    request.controlId,
    request.period.from,
    request.period.to,
    request.description,
    request.status,
    request.answers.map(({ kind, ref, note }) => `${kind} ${ref}${note ? ` (${note})` : ''}`).join('\n'),
    request.history
      .map(({ at, action, by, comment }) => `${at} ${action} by ${whoOf(by)}${comment ? `: ${comment}` : ''}`)
      .join('\n'),
  ]);
  return csvOf([[...auditRequestCsvColumns, ...exportOnly], ...rows]);
}
