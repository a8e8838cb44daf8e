/**
 * The request list's CSV, read strictly and written defused: a list imported, exported and
 * imported again gives the same requests; each fault of a bad list is found with its row, line
 * and column (an unknown control, a duplicate row, a formula, a wrong encoding, CSV that breaks
 * RFC 4180), and a byte-order mark is read past.
 */
import { describe, expect, it } from 'vitest';
import { CsvUnreadable, readCsv, utf8Text } from '../../../functions/src/requests/csv-reader.ts';
import { readRequestList, RequestListRefused, requestListCsv } from '../../../functions/src/requests/request-csv.ts';
import { answered, decided, newRequest } from '../../../functions/src/requests/request-model.ts';

const context = { isControl: (id: string) => ['IAM-01', 'LOG-02'].includes(id), isId: (id: string) => /^PBC-\d+$/.test(id) };
const step = { by: { uid: 'u-1', email: 'ada@example.com' }, at: '2026-11-24T10:00:00.000Z' };
const read = (text: string | Buffer) => readRequestList(Buffer.isBuffer(text) ? text : Buffer.from(text), context);
/** The faults a list is refused with. */
function faultsOf(text: string | Buffer) {
  try {
    read(text);
  } catch (error) {
    if (error instanceof RequestListRefused) return error.faults;
    throw error;
  }
  throw new Error('the list was read');
}

const list = [
  'id,control,from,to,description',
  'PBC-001,IAM-01,2026-01-01,2026-12-31,"Access reviews, each quarter"',
  'PBC-002,LOG-02,2026-01-01,2026-06-30,"Log retention settings',
  'with the ""before"" and after"',
].join('\r\n');

describe('the request list CSV', () => {
  it('reads each row as a request: id, control, period and description (quoted commas, quotes and line breaks kept)', () => {
    expect(read(list)).toEqual([
      {
        row: 1,
        line: 2,
        id: 'PBC-001',
        controlId: 'IAM-01',
        period: { from: '2026-01-01', to: '2026-12-31' },
        description: 'Access reviews, each quarter',
      },
      {
        row: 2,
        line: 3,
        id: 'PBC-002',
        controlId: 'LOG-02',
        period: { from: '2026-01-01', to: '2026-06-30' },
        description: 'Log retention settings\nwith the "before" and after',
      },
    ]);
  });

  it('gives the same requests imported, exported with answers and history, and imported again', () => {
    const first = read(list).map((row) =>
      newRequest({ id: row.id!, controlId: row.controlId, period: row.period, description: row.description }, step),
    );
    const worked = [
      decided(
        answered(first[0]!, { add: [{ kind: 'evidence', ref: 'ev-1', note: 'the Q1 review' }], remove: [] }, step),
        'returned',
        {
          ...step,
          comment: 'not enough',
        },
      ),
      first[1]!,
    ];
    const exported = requestListCsv(worked);
    expect(exported.split('\r\n')[0]).toBe('"id","control","from","to","description","status","answers","history"');
    expect(exported).toContain(
      `"returned","evidence ev-1 (the Q1 review)","${step.at} created by ada@example.com\n${step.at} answered by ada@example.com\n${step.at} returned by ada@example.com: not enough"`,
    );
    const again = read(exported).map((row) => ({
      id: row.id,
      controlId: row.controlId,
      period: row.period,
      description: row.description,
    }));
    expect(again).toEqual(first.map(({ id, controlId, period, description }) => ({ id, controlId, period, description })));
  });

  it('writes a cell a spreadsheet would run as a formula with an apostrophe before it', () => {
    const formula = newRequest(
      { id: 'R1', controlId: 'IAM-01', period: { from: '2026-01-01', to: '2026-01-31' }, description: '=1+2' },
      step,
    );
    expect(requestListCsv([formula]).split('\r\n')[1]).toBe(
      `"R1","IAM-01","2026-01-01","2026-01-31","'=1+2","open","","${step.at} created by ada@example.com"`,
    );
  });

  it('reads past a UTF-8 byte-order mark, and columns in any order, without an id', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('description,to,from,control\nÉvidence des accès,2026-03-31,2026-01-01,IAM-01\n'),
    ]);
    expect(read(bytes)).toEqual([
      {
        row: 1,
        line: 2,
        id: undefined,
        controlId: 'IAM-01',
        period: { from: '2026-01-01', to: '2026-03-31' },
        description: 'Évidence des accès',
      },
    ]);
  });

  it('refuses an unknown control, a bad period and an empty description, each at its row, line and column', () => {
    expect(faultsOf('control,from,to,description\nXYZ-01,2026-01-01,2026-02-30,\nIAM-01,2026-01-01,2027-01-02,x\n')).toEqual([
      { row: 1, line: 2, column: 'control', message: '"XYZ-01" names no control in the catalog' },
      { row: 1, line: 2, column: 'to', message: 'is not a calendar date (YYYY-MM-DD)' },
      { row: 1, line: 2, column: 'description', message: 'is empty' },
      { row: 2, line: 3, column: 'to', message: 'makes a period longer than 366 days' },
    ]);
  });

  it('refuses a row that repeats another, and an id given twice', () => {
    expect(
      faultsOf(
        'id,control,from,to,description\nPBC-1,IAM-01,2026-01-01,2026-01-31,Same\nPBC-2,IAM-01,2026-01-01,2026-01-31, Same \nPBC-1,IAM-01,2026-02-01,2026-02-28,Other\n',
      ),
    ).toEqual([
      { row: 2, line: 3, message: 'repeats row 1 (the same control, period and description)' },
      { row: 3, line: 4, column: 'id', message: '"PBC-1" is the id of row 1 too' },
    ]);
  });

  it('refuses a cell a spreadsheet would run as a formula (= + - @, past spaces)', () => {
    const formula = 'starts like a spreadsheet formula (= + - @): write it without that first character';
    expect(
      faultsOf(
        'control,from,to,description\nIAM-01,2026-01-01,2026-01-31,=SUM(A1:A9)\nIAM-01,2026-01-01,2026-01-31," @SUM(A1)"\nIAM-01,2026-01-01,2026-01-31,+1\nIAM-01,2026-01-01,2026-01-31,-1\n',
      ),
    ).toEqual([
      { row: 1, line: 2, column: 'description', message: formula },
      { row: 2, line: 3, column: 'description', message: formula },
      { row: 3, line: 4, column: 'description', message: formula },
      { row: 4, line: 5, column: 'description', message: formula },
    ]);
  });

  it('refuses an unknown, repeated or missing column in the header', () => {
    expect(faultsOf('control,from,from,owner\n')).toEqual([
      { row: 0, line: 1, column: 'from', message: 'is named twice in the header' },
      { row: 0, line: 1, column: 'owner', message: 'is not a column of a request list (id, control, from, to, description)' },
      { row: 0, line: 1, column: 'to', message: 'is missing from the header' },
      { row: 0, line: 1, column: 'description', message: 'is missing from the header' },
    ]);
    expect(faultsOf('')).toEqual([{ row: 0, line: 1, message: 'is empty: the first row names the columns' }]);
  });

  it('refuses text that is not UTF-8 at its first line that is not, and UTF-16 at once', () => {
    const latin1 = Buffer.concat([
      Buffer.from('control,from,to,description\nIAM-01,2026-01-01,2026-01-31,ok\nIAM-01,2026-01-01,2026-01-31,acc'),
      Buffer.from([0xe8]),
      Buffer.from('s\n'),
    ]);
    expect(() => utf8Text(latin1)).toThrow(
      new CsvUnreadable(
        3,
        'is not UTF-8 text (the file may be saved as Windows-1252 or another encoding): save it as "CSV UTF-8" and import it again',
      ),
    );
    expect(() => utf8Text(latin1)).toThrow(expect.objectContaining({ line: 3 }));
    expect(() => utf8Text(Buffer.from('\ufeffcontrol', 'utf16le'))).toThrow(
      new CsvUnreadable(1, 'is UTF-16, not UTF-8: save the file as "CSV UTF-8" and import it again'),
    );
  });

  // A refusal names the line its field starts on. Text after a closing quote was named at the
  // quote's own line (3 in the third case) by the reader of our own; csv-parse says which
  // character follows the quote but not where it is, and its own line count is off after a
  // carriage return inside a quoted field, so the field's first line is named, and the message
  // says it is a quoted field's closing quote (which may be lines further on).
  it.each([
    ['a,b"c\n', 1, 'has a double quote inside a field that does not start with one'],
    ['a\n"b\nc', 2, 'has a quoted field that is never closed'],
    ['a\n"b\nc"d\n', 2, 'has a quoted field with text after its closing quote'],
    ['a\r\n"b\r\nc",d\r\n\r\ne,"f"g\r\n', 5, 'has a quoted field with text after its closing quote'],
    ['"a\r\nb",c\n\nd,"e\n', 4, 'has a quoted field that is never closed'],
    ['"a\r\nb",c"d\n', 2, 'has a double quote inside a field that does not start with one'],
    ['a\rb\n', 1, 'has a carriage return that ends no line'],
    ['"a\r\nb"\r\n\r\nc,d\re\n', 4, 'has a carriage return that ends no line'],
  ])('refuses CSV that breaks RFC 4180: %j on line %i', (text, line, message) => {
    expect(() => readCsv(text, 10)).toThrow(new CsvUnreadable(line, message));
    expect(() => readCsv(text, 10)).toThrow(expect.objectContaining({ line }));
  });

  it('reads empty fields, a last line without a break, and skips blank lines; stops past its bound', () => {
    expect(readCsv('a,,"",b\r\n\r\n"x",y', 10)).toEqual([
      { line: 1, fields: ['a', '', '', 'b'] },
      { line: 3, fields: ['x', 'y'] },
    ]);
    // A record spanning lines starts where it starts, a CRLF inside it being one line break; a
    // carriage return in quotes is data.
    expect(readCsv('a\r\n\r\n"b\r\nc\rd",e\n\nf\r\n', 10)).toEqual([
      { line: 1, fields: ['a'] },
      { line: 3, fields: ['b\r\nc\rd', 'e'] },
      { line: 6, fields: ['f'] },
    ]);
    expect(() => readCsv('a\nb\nc\n', 2)).toThrow(new CsvUnreadable(3, 'has more than 2 records'));
    // The reading stops at the first record past the bound: a fault further on is never reached.
    expect(() => readCsv('a\nb\nc\n"d\n', 2)).toThrow(new CsvUnreadable(3, 'has more than 2 records'));
  });
});
