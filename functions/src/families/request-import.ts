/**
 * `POST /api/requests/import`: a request list's CSV made into requests, all or none
 * (requests/request-csv.ts reads it). Every row is checked, against the catalog and against the
 * list as it is, before anything is stored; each fault becomes one error of a 400 naming its
 * line, column and row. A row already in the list (by id, or by control, period and description)
 * is left as it is, so importing a list twice makes nothing twice.
 */
import { CsvUnreadable } from '../requests/csv-reader.js';
import { readRequestList, RequestListRefused, sameAsk, type CsvFault, type ImportRow } from '../requests/request-csv.js';
import { newRequest, type AuditRequest, type Step } from '../requests/request-model.js';
import { newRequestId, type AuditRequestStore } from '../requests/request-store.js';
import { ApiProblem, type RequestError } from '../http/problem.js';
import type { Services } from './services.js';

/** A refusal of the whole file, each fault an error at its line and column. */
function refusal(faults: readonly CsvFault[]): ApiProblem {
  const errors: RequestError[] = faults.map(({ row, line, column, message }) => ({
    in: 'body',
    line,
    ...(column ? { pointer: `/${column}` } : {}),
    message: row > 0 ? `row ${row}: ${message}` : message,
  }));
  const first = faults[0]!;
  const place = first.row > 0 ? `Row ${first.row} (line ${first.line})` : `Line ${first.line}`;
  const where = first.column ? `${place}, column "${first.column}":` : place;
  const detail =
    faults.length === 1
      ? `${where} ${first.message}. Nothing was imported.`
      : `${faults.length} faults in the request list; see errors. Nothing was imported.`;
  return new ApiProblem('invalid_request', detail, { errors });
}

/** The rows' requests against the list as it is: new ones to make, ones already there, and faults. */
function against(held: readonly AuditRequest[], rows: readonly ImportRow[], step: Step, today: string) {
  const made: AuditRequest[] = [];
  const unchanged: string[] = [];
  const faults: CsvFault[] = [];
  for (const row of rows) {
    const byId = row.id !== undefined ? held.find((request) => request.id === row.id) : undefined;
    if (byId && !sameAsk(byId, row)) {
      faults.push({
        row: row.row,
        line: row.line,
        column: 'id',
        message: `"${row.id}" is a request of the list with another control, period or description: edit it in Evident, or give this row a new id`,
      });
    } else if (byId) unchanged.push(byId.id);
    else {
      const same = row.id === undefined ? held.find((request) => sameAsk(request, row)) : undefined;
      if (same) unchanged.push(same.id);
      else
        made.push(
          newRequest(
            { id: row.id ?? newRequestId(today), controlId: row.controlId, period: row.period, description: row.description },
            step,
          ),
        );
    }
  }
  return { made, unchanged, faults };
}

export async function importRequestList(
  c: { s: Services; store: AuditRequestStore; today: string },
  body: Buffer,
  step: Step & { idShape: RegExp },
) {
  const controls = new Set(c.s.catalog.controls.map((control) => control.id));
  let rows: ImportRow[];
  try {
    rows = readRequestList(body, { isControl: (id) => controls.has(id), isId: (id) => step.idShape.test(id) });
  } catch (error) {
    if (error instanceof RequestListRefused) throw refusal(error.faults);
    if (error instanceof CsvUnreadable) throw refusal([{ row: 0, line: error.line, message: error.message }]);
    throw error;
  }
  const { made, unchanged, faults } = against(await c.store.list(), rows, { by: step.by, at: step.at }, c.today);
  if (faults.length > 0) throw refusal(faults);
  await c.store.createAll(made);
  return { status: made.length > 0 ? 201 : 200, body: { created: made.map((request) => request.id), unchanged } } as const;
}
