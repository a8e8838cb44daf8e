/**
 * The submit page's pure pieces: the multipart body it sends, the server's problems placed on
 * its fields by JSON pointer, and the checks on chosen files before they are uploaded.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../hosting/src/lib/api.ts';
import { acceptOf, addFiles, asUploaded, mediaTypeOf, sizeText, typeNames } from '../../../hosting/src/lib/chosen-files.ts';
import {
  controlsAskedIn,
  emptyValues,
  fieldOf,
  formDataOf,
  instantOf,
  problemsOf,
} from '../../../hosting/src/lib/submission-form.ts';
import { uploadLimits } from '@evident/contract/upload-limits';

const problem = (extra: Partial<Problem>): Problem => ({
  type: 'https://evident.example/problems/invalid_request',
  title: 'Invalid request',
  status: 400,
  code: 'invalid_request',
  requestId: 'r-1',
  detail: '2 parts of the request do not match the API description; see errors.',
  ...extra,
});

describe('formDataOf', () => {
  it('repeats controls, sends optional fields only when given, and attaches files by name', async () => {
    const file = new File(['minutes'], 'minutes.txt', { type: 'text/plain' });
    const form = formDataOf(
      {
        controls: 'PPL-06 PPL-07',
        statement: 'Roles are assigned.',
        subject: ' charter ',
        effectiveDate: '2026-11-20',
        expiresAt: '2027-01-01T09:30',
        notApplicable: true,
      },
      [file],
    );
    expect(form.getAll('controls')).toEqual(['PPL-06', 'PPL-07']);
    expect(form.get('statement')).toBe('Roles are assigned.');
    expect(form.get('subject')).toBe('charter');
    expect(form.get('effectiveDate')).toBe('2026-11-20');
    expect(form.get('expiresAt')).toBe(new Date('2027-01-01T09:30').toISOString());
    expect(form.get('notApplicable')).toBe('true');
    const sent = form.getAll('attachments') as File[];
    expect(sent.map((part) => [part.name, part.type])).toEqual([['minutes.txt', 'text/plain']]);
    expect(await sent[0]!.text()).toBe('minutes');
  });

  it('leaves out what was not given, so the server defaults apply (and a missing statement is its to report)', () => {
    const form = formDataOf(emptyValues(), []);
    const names: string[] = [];
    form.forEach((_value, name) => names.push(name));
    expect(names).toEqual(['statement']);
    expect(form.get('statement')).toBe('');
  });
});

describe('controlsAskedIn', () => {
  it('starts the form with the controls a link names, leaving out what is not a control id', () => {
    expect(controlsAskedIn(new URLSearchParams('control=IAM-01'))).toBe('IAM-01');
    expect(controlsAskedIn(new URLSearchParams('control=IAM-01&control=nope&control=NET-02'))).toBe('IAM-01, NET-02');
    expect(controlsAskedIn(new URLSearchParams(''))).toBe('');
  });
});

describe('instantOf', () => {
  it('reads a local date-time input in the browser time zone, and passes anything else on', () => {
    expect(instantOf('2027-01-01T09:30')).toBe(new Date('2027-01-01T09:30').toISOString());
    expect(instantOf('soon')).toBe('soon');
  });
});

describe('fieldOf', () => {
  it.each([
    ['/controls', 'controls'],
    ['/controls/3', 'controls'],
    ['/statement', 'statement'],
    ['/expiresAt', 'expiresAt'],
    ['/attachments/0', 'attachments'],
    ['', undefined],
    ['/unknown', undefined],
    [undefined, undefined],
  ])('%s names %s', (pointer, field) => {
    expect(fieldOf(pointer)).toBe(field);
  });
});

describe('problemsOf', () => {
  it('puts each body error under its field, naming the control or file it is about, and keeps the detail as the summary', () => {
    const placed = problemsOf(
      problem({
        errors: [
          { in: 'body', pointer: '/controls/1', message: 'names no control in the catalog' },
          { in: 'body', pointer: '/statement', message: 'is required' },
          { in: 'body', pointer: '/expiresAt', message: 'is already in the past' },
          { in: 'body', pointer: '/attachments/0', message: 'is empty' },
          { in: 'body', pointer: '', message: 'is not a readable form: Unexpected end of form' },
          { in: 'query', name: 'statement', message: 'is not a query parameter of this operation' },
        ],
      }),
      { controls: ['PPL-06', 'ZZZ-99'], files: ['empty.txt'] },
    );
    expect(placed).toEqual({
      byField: {
        controls: ['ZZZ-99 names no control in the catalog'],
        statement: ['Statement is required'],
        expiresAt: ['Expires at is already in the past'],
        attachments: ['empty.txt is empty'],
      },
      summary: '2 parts of the request do not match the API description; see errors.',
    });
  });

  it('a missing list is about the field as a whole', () => {
    expect(
      problemsOf(problem({ errors: [{ in: 'body', pointer: '/controls', message: 'is required' }] }), { controls: [], files: [] })
        .byField,
    ).toEqual({ controls: ['Controls is required'] });
  });

  it.each(['attachment_too_large', 'attachment_type_not_allowed', 'payload_too_large'] as const)(
    'a %s problem, which has no pointers, is shown under the attachments',
    (code) => {
      const detail = 'attachments[0] ("a.exe") is "application/x-msdownload"; accepted types are application/pdf.';
      expect(problemsOf(problem({ code, detail, errors: undefined }), { controls: [], files: ['a.exe'] })).toEqual({
        byField: { attachments: [detail] },
        summary: detail,
      });
    },
  );

  it('any other problem is a summary only, in the server words', () => {
    expect(
      problemsOf(problem({ code: 'unauthenticated', status: 401, detail: 'Sign in first.', errors: undefined }), {
        controls: [],
        files: [],
      }),
    ).toEqual({ byField: {}, summary: 'Sign in first.' });
  });
});

const limits = { maxFiles: 2, maxFileBytes: 10, mediaTypes: ['text/plain', 'text/markdown', 'application/pdf'] };
const file = (name: string, content: string, type = 'text/plain', lastModified = 1) =>
  new File([content], name, { type, lastModified });

describe('addFiles', () => {
  it('keeps files the API would accept and says why each other one is left out', () => {
    const kept = file('a.txt', 'aaa');
    const result = addFiles(
      [kept],
      [
        file('empty.txt', ''),
        file('big.txt', '12345678901'),
        file('tool.exe', 'MZ', 'application/x-msdownload'),
        file('a.txt', 'aaa'),
        file('b.md', '# b', ''),
        file('c.txt', 'ccc'),
      ],
      limits,
    );
    expect(result.files.map((f) => f.name)).toEqual(['a.txt', 'b.md']);
    expect(result.rejected).toEqual([
      { name: 'empty.txt', reason: 'is empty' },
      { name: 'big.txt', reason: 'is 11 B; each file may be at most 10 B' },
      { name: 'tool.exe', reason: 'is not a type the server accepts (plain text, Markdown, PDF)' },
      { name: 'c.txt', reason: 'would be file 3; at most 2 files can be attached' },
    ]);
  });

  it('uses the API limits by default: at most 5 files of 10 MiB', () => {
    expect(uploadLimits.maxFiles).toBe(5);
    const six = Array.from({ length: 6 }, (_, n) => file(`f${n}.txt`, 'x'));
    const { files, rejected } = addFiles([], six);
    expect(files).toHaveLength(5);
    expect(rejected).toEqual([{ name: 'f5.txt', reason: 'would be file 6; at most 5 files can be attached' }]);
  });
});

describe('mediaTypeOf and asUploaded', () => {
  it.each([
    ['notes.md', '', 'text/markdown'],
    ['data.CSV', 'application/vnd.ms-excel', 'text/csv'],
    ['scan.pdf', 'application/pdf', 'application/pdf'],
    ['tool.exe', 'application/x-msdownload', 'application/x-msdownload'],
    ['blob', '', 'application/octet-stream'],
  ])('%s typed "%s" is sent as %s', (name, type, expected) => {
    expect(mediaTypeOf({ name, type })).toBe(expected);
  });

  it('re-types a file only when needed, keeping its name and bytes', async () => {
    const typed = file('a.txt', 'aaa');
    expect(asUploaded(typed)).toBe(typed);
    const untyped = asUploaded(file('notes.md', '# notes', ''));
    expect([untyped.name, untyped.type, await untyped.text()]).toEqual(['notes.md', 'text/markdown', '# notes']);
  });
});

describe('sizes and types for people', () => {
  it.each([
    [0, '0 B'],
    [812, '812 B'],
    [1024, '1 KiB'],
    [14_540, '14.2 KiB'],
    [10 * 1024 * 1024, '10 MiB'],
  ])('%i bytes is %s', (bytes, text) => {
    expect(sizeText(bytes)).toBe(text);
  });

  it('names the accepted types and their extensions', () => {
    expect(typeNames()).toBe('PDF, PNG, JPEG, plain text, CSV, Markdown, JSON');
    expect(acceptOf(limits)).toBe('text/plain,text/markdown,application/pdf,.pdf,.txt,.md,.markdown');
  });
});
