/**
 * Parses a `multipart/form-data` body that the functions runtime has already buffered, with
 * busboy. Text fields become strings (or lists, for fields the schema declares as arrays) so
 * the schema can validate them; files are handed to the operation whole, for it to check.
 * A body that cannot be read — one cut short by a client gone mid-upload included — is a
 * problem of the request, never an error of the server.
 *
 * A form is read only up to its operation's `x-form-limits`, before anything validates it: past
 * a count of text fields, files or parts busboy reads no further part and the form is refused
 * (413 `too_many_form_parts`); a text field past its bytes is cut there and refused (400). What
 * is read is gathered in place, so reading n parts costs n steps.
 */
import busboy from 'busboy';
import { cleanFileName } from './file-name.js';
import { ApiProblem, type RequestError } from './problem.js';
import type { BodySpec, FormLimits } from './route-table.js';

export interface UploadedFile {
  /** The file name the client sent, without any directory part. */
  name: string;
  /** The media type the client declared for the part. */
  mediaType: string;
  data: Buffer;
}

export interface ParsedForm {
  fields: Record<string, string | string[]>;
  files: Record<string, UploadedFile[]>;
  problems: RequestError[];
  /** Set when the form passed one of its limits: what was read up to there is above, the rest was not read. */
  refusal?: ApiProblem;
}

/** What the parser needs of an operation's body: its file fields, its repeatable fields and its limits. */
export type FormSpec = Pick<BodySpec, 'files' | 'lists'> & { formLimits: FormLimits };

const nullRecord = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

export function readForm(raw: Buffer, contentType: string, spec: FormSpec): Promise<ParsedForm> {
  const form: ParsedForm = { fields: nullRecord(), files: nullRecord(), problems: [] };
  const limits = spec.formLimits;
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        defParamCharset: 'utf8',
        // busboy reports `fields` and `files` when one more begins, `parts` when the count is reached: one more lets a form have exactly `parts`.
        limits: { fields: limits.fields, files: limits.files, parts: limits.parts + 1, fieldSize: limits.fieldBytes },
      });
    } catch (error) {
      form.problems.push({ in: 'body', pointer: '', message: `is not a readable form: ${(error as Error).message}` });
      resolve(form);
      return;
    }
    const refuse = (what: string, limit: number) => () => {
      form.refusal ??= new ApiProblem(
        'too_many_form_parts',
        `The form has more than ${limit} ${what}, more than this operation reads; it was not read further.`,
      );
    };
    parser.on('fieldsLimit', refuse('text fields', limits.fields));
    parser.on('filesLimit', refuse('files', limits.files));
    parser.on('partsLimit', refuse('parts', limits.parts));
    parser.on('field', (name, value, info) => {
      if (!form.refusal) addField(form, spec, name, value, info.valueTruncated);
    });
    const pending: Promise<void>[] = [];
    parser.on('file', (name, stream, info) => {
      if (form.refusal) return void stream.resume();
      pending.push(readFile(form, spec, name, stream, info));
    });
    parser.on('error', (error: Error) => {
      form.problems.push({ in: 'body', pointer: '', message: unreadable(error) });
      resolve(form);
    });
    parser.on('close', () => void Promise.all(pending).then(() => resolve(form)));
    parser.end(raw);
  });
}

/** Adds a text field: a list field's value to its one list (never a copy), any other once. */
function addField(form: ParsedForm, spec: FormSpec, name: string, value: string, truncated: boolean): void {
  const { fields, problems } = form;
  if (truncated)
    problems.push({ in: 'body', pointer: `/${name}`, message: `is longer than ${spec.formLimits.fieldBytes} bytes` });
  if (spec.files.includes(name)) {
    problems.push({ in: 'body', pointer: `/${name}`, message: 'must be sent as a file part' });
  } else if (spec.lists.includes(name)) {
    const list = fields[name];
    if (Array.isArray(list)) list.push(value);
    else fields[name] = [value];
  } else if (name in fields) {
    problems.push({ in: 'body', pointer: `/${name}`, message: 'must be given once' });
  } else {
    fields[name] = value;
  }
}

/** Reads one file part whole; it settles when the part ends or fails (a part cut short fails the parser too, which reports it). */
function readFile(
  form: ParsedForm,
  spec: FormSpec,
  name: string,
  stream: NodeJS.ReadableStream,
  info: busboy.FileInfo,
): Promise<void> {
  const chunks: Buffer[] = [];
  return new Promise((done) => {
    stream.on('error', () => done());
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      if (!spec.files.includes(name)) {
        form.problems.push({ in: 'body', pointer: `/${name}`, message: 'is not a file field of this operation' });
      } else {
        (form.files[name] ??= []).push({
          name: cleanFileName(info.filename ?? ''),
          mediaType: (info.mimeType || 'application/octet-stream').toLowerCase(),
          data: Buffer.concat(chunks),
        });
      }
      done();
    });
  });
}

/** busboy's message for a body that ends before the boundary that closes the form. */
const cutShort = 'Unexpected end of form';

function unreadable(error: Error): string {
  return error.message === cutShort
    ? 'ends before the closing boundary of the form; the upload was cut short'
    : `is not a readable form: ${error.message}`;
}
