/**
 * CSV text (RFC 4180) read by csv-parse, strictly: comma-separated fields, records ended by CRLF
 * or a bare LF (what most editors save), fields in double quotes when they hold a comma, a quote
 * or a line break, a quote inside one doubled. What the RFC does not allow is refused with the
 * line it is on, never guessed at: a quote in an unquoted field, text after a closing quote, a
 * quoted field never closed, a carriage return that ends no line. The bytes must be UTF-8 (a
 * byte-order mark is fine); any other encoding is refused with the first line that is not, since
 * reading it as another would change what the auditor wrote.
 *
 * The library does the reading; this module chooses its options, turns its errors into refusals
 * a person can act on, and numbers the lines itself: csv-parse counts a carriage return as a line
 * of its own (so a CRLF inside a quoted field as two) and gives a record its last line, where a
 * refusal names its first. The request list is the one thing Evident reads as CSV; the reader
 * stops at `maxRecords`, so what it holds is bounded, and its time is linear in the text's length.
 */
import { isUtf8 } from 'node:buffer';
import { CsvError, parse } from 'csv-parse/sync';

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
  const bytes = Buffer.from(text, 'utf8');
  const lineAt = lineCounter(bytes);
  const records: CsvRecord[] = [];
  /** The line after the last record read, and the blank lines skipped by then (the library's `empty_lines` counts them all). */
  let afterRecord = { line: 1, blankLines: 0 };
  /** The line the last field read ended on. */
  let lastField = 1;
  try {
    parse(bytes, {
      bom: true,
      record_delimiter: ['\r\n', '\n'],
      skip_empty_lines: true,
      relax_column_count: true,
      // One record past the bound is enough to refuse the text: the rest is not read.
      to: maxRecords + 1,
      // Called as each field ends; `bytes` is where (a plain field holds no line feed, so it is on that line).
      cast: (value, field) => {
        lastField = lineAt(field.bytes);
        if (!field.quoting && value.includes('\r')) throw new CsvUnreadable(lastField, 'has a carriage return that ends no line');
        return value;
      },
      // Called as each record ends, `bytes` past its line break; the record is kept here, not by the library.
      on_record: (fields: string[], info) => {
        records.push({ line: afterRecord.line + info.empty_lines - afterRecord.blankLines, fields });
        afterRecord = { line: lineAt(info.bytes), blankLines: info.empty_lines };
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The line the failing field starts on: the record's first, or the line the field before it ended on.
    const column = typeof error.column === 'number' ? error.column : 0;
    const emptyLines = typeof error.empty_lines === 'number' ? error.empty_lines : afterRecord.blankLines;
    const line = column > 0 ? lastField : afterRecord.line + emptyLines - afterRecord.blankLines;
    throw new CsvUnreadable(line, refusal(error));
  }
  const past = records[maxRecords];
  if (past) throw new CsvUnreadable(past.line, `has more than ${maxRecords} records`);
  return records;
}

/** What a person is told of csv-parse's error, on the line its field starts on. */
function refusal(error: CsvError): string {
  switch (error.code) {
    case 'INVALID_OPENING_QUOTE':
      return 'has a double quote inside a field that does not start with one';
    case 'CSV_INVALID_CLOSING_QUOTE':
      // The library says which character follows the quote, not where: the field may go on for lines.
      return 'has a quoted field with text after its closing quote';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'has a quoted field that is never closed';
    default:
      // The options above allow no other fault of the text: another code is a fault of this module.
      throw error;
  }
}

/** The line of each offset into `bytes`, the first line being 1; offsets must come in increasing order. */
function lineCounter(bytes: Buffer): (offset: number) => number {
  let line = 1;
  let at = 0;
  return (offset) => {
    for (; at < offset; at++) if (bytes[at] === 0x0a) line++;
    return line;
  };
}
