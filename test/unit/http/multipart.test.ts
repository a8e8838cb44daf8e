/**
 * The form parser reads a form only up to its limits, and gathers what it reads in place: the
 * work a form costs is the parts read, not the parts sent. Counted here by what it read, so
 * nothing depends on the machine's speed.
 */
import { describe, expect, it } from 'vitest';
import { readForm, type FormSpec } from '../../../functions/src/http/multipart.ts';

const boundary = 'limits-boundary';
const contentType = `multipart/form-data; boundary=${boundary}`;
const spec: FormSpec = {
  files: ['attachments'],
  lists: ['controls'],
  formLimits: { fields: 3, files: 1, parts: 5, fieldBytes: 8 },
};

const text = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
const file = (name: string) =>
  `Content-Disposition: form-data; name="attachments"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${name}`;
const nameless = 'Content-Type: text/plain\r\n\r\nno name';
const form = (...parts: string[]) =>
  Buffer.from(parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('') + `--${boundary}--\r\n`);

describe('readForm', () => {
  it('gathers a repeated field into one list in order, and reads no text field past its limit', async () => {
    const parts = Array.from({ length: 60_000 }, (_, index) => text('controls', `C-${index}`));
    const read = await readForm(form(...parts), contentType, spec);
    expect(read.fields).toEqual({ controls: ['C-0', 'C-1', 'C-2'] });
    expect(read.refusal?.code).toBe('too_many_form_parts');
    expect(read.refusal?.message).toBe(
      'The form has more than 3 text fields, more than this operation reads; it was not read further.',
    );
    expect(read.problems).toEqual([]);
  });

  it('reads a form of exactly its limits whole: three text fields, one file, one part that names no field', async () => {
    const read = await readForm(
      form(text('controls', 'A'), text('controls', 'B'), text('statement', 'ok'), file('a.txt'), nameless),
      contentType,
      spec,
    );
    expect(read.refusal).toBeUndefined();
    expect(read.fields).toEqual({ controls: ['A', 'B'], statement: 'ok' });
    expect(read.files['attachments']?.map((uploaded) => uploaded.name)).toEqual(['a.txt']);
  });

  it.each([
    ['a second file', [file('a.txt'), file('b.txt')], 'more than 1 files', {}],
    [
      'a sixth part',
      [text('controls', 'A'), file('a.txt'), nameless, nameless, nameless, nameless],
      'more than 5 parts',
      { controls: ['A'] },
    ],
  ])('refuses a form with %s, keeping only what came before it', async (_case, parts, passed, fields) => {
    const read = await readForm(form(...parts), contentType, spec);
    expect(read.refusal?.message).toBe(`The form has ${passed}, more than this operation reads; it was not read further.`);
    expect(read.fields).toEqual(fields);
    expect(read.files['attachments']?.map((uploaded) => uploaded.name)).toEqual(['a.txt']);
  });

  it('cuts a text field at its bytes and names it', async () => {
    const read = await readForm(form(text('statement', '123456789')), contentType, spec);
    expect(read.refusal).toBeUndefined();
    expect(read.problems).toEqual([{ in: 'body', pointer: '/statement', message: 'is longer than 8 bytes' }]);
  });
});
