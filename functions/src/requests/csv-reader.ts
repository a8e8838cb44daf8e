/**
 * A strict reader of CSV text (RFC 4180): comma-separated fields, records ended by CRLF or a
 * bare LF (what most editors save), fields in double quotes when they hold a comma, a quote or a
 * line break, a quote inside one doubled. What the RFC does not allow is refused with the line it
 * is on, never guessed at: a quote in an unquoted field, text after a closing quote, a quoted
 * field never closed. The bytes must be UTF-8 (a byte-order mark is fine); any other encoding is
 * refused with the first line that is not, since reading it as another would change what the
 * auditor wrote. One pass over the text, so its time is linear in its length.
 *
 * The functions depend on no CSV library, and this is the only reader: the request list is the
 * one thing Evident reads as CSV. It stops at `maxRecords`, so what it holds is bounded too.
 */
import { isUtf8 } from 'node:buffer';

export interface CsvRecord {
  /** The line the record starts on, the first line being 1. */
  line: number;
  fields: string[];
}

/** Why the text cannot be read as CSV, and on which line. */
export class CsvUnreadable extends Error {
  readonly line: number;

  constructor(line: number, message: string) {
    super(message);
    this.name = 'CsvUnreadable';
    this.line = line;
  }
}

const bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** The bytes as text: UTF-8, without its byte-order mark; `CsvUnreadable` naming the first line that is not UTF-8. */
export function utf8Text(bytes: Buffer): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new CsvUnreadable(1, 'is UTF-16, not UTF-8: save the file as "CSV UTF-8" and import it again');
  }
  const body = bytes.subarray(0, 3).equals(bom) ? bytes.subarray(3) : bytes;
  if (isUtf8(body)) return body.toString('utf8');
  let line = 1;
  for (let start = 0; start < body.length; line++) {
    const end = body.indexOf(0x0a, start);
    const stop = end === -1 ? body.length : end;
    if (!isUtf8(body.subarray(start, stop))) break;
    start = stop + 1;
  }
  throw new CsvUnreadable(
    line,
    'is not UTF-8 text (the file may be saved as Windows-1252 or another encoding): save it as "CSV UTF-8" and import it again',
  );
}

/** The records of CSV text, at most `maxRecords` of them (then `CsvUnreadable`); a blank line is skipped. */
export function readCsv(text: string, maxRecords: number): CsvRecord[] {
  const records: CsvRecord[] = [];
  let line = 1;
  let at = 0;
  while (at < text.length) {
    if (text[at] === '\n' || text.startsWith('\r\n', at)) {
      at += text[at] === '\n' ? 1 : 2;
      line++;
      continue;
    }
    if (records.length === maxRecords) throw new CsvUnreadable(line, `has more than ${maxRecords} records`);
    const record = readRecord(text, at, line);
    records.push({ line, fields: record.fields });
    ({ at, line } = record);
  }
  return records;
}

/** One record from `at`, and where the next starts. */
function readRecord(text: string, start: number, startLine: number): { fields: string[]; at: number; line: number } {
  const fields: string[] = [];
  let at = start;
  let line = startLine;
  for (;;) {
    const field = text[at] === '"' ? quotedField(text, at, line) : plainField(text, at, line);
    fields.push(field.value);
    ({ at, line } = field);
    if (at >= text.length) return { fields, at, line };
    if (text[at] === ',') {
      at++;
      continue;
    }
    // A record ends at a line break (plainField and quotedField stop at nothing else).
    const width = text[at] === '\n' ? 1 : 2;
    return { fields, at: at + width, line: line + 1 };
  }
}

function plainField(text: string, start: number, line: number): { value: string; at: number; line: number } {
  let at = start;
  while (at < text.length && text[at] !== ',' && text[at] !== '\n' && !text.startsWith('\r\n', at)) {
    if (text[at] === '"') throw new CsvUnreadable(line, 'has a double quote inside a field that does not start with one');
    if (text[at] === '\r') throw new CsvUnreadable(line, 'has a carriage return that ends no line');
    at++;
  }
  return { value: text.slice(start, at), at, line };
}

function quotedField(text: string, start: number, startLine: number): { value: string; at: number; line: number } {
  let value = '';
  let at = start + 1;
  let line = startLine;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) throw new CsvUnreadable(startLine, 'has a quoted field that is never closed');
    const part = text.slice(at, quote);
    value += part;
    line += countLineFeeds(part);
    if (text[quote + 1] === '"') {
      value += '"';
      at = quote + 2;
      continue;
    }
    at = quote + 1;
    const next = text[at];
    if (at < text.length && next !== ',' && next !== '\n' && !text.startsWith('\r\n', at)) {
      throw new CsvUnreadable(line, 'has text after the closing quote of a field');
    }
    return { value, at, line };
  }
}

function countLineFeeds(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
