/**
 * Parses a `multipart/form-data` body that the functions runtime has already buffered, with
 * busboy. Text fields become strings (or lists, for fields the schema declares as arrays) so
 * the schema can validate them; files are handed to the operation whole, for it to check.
 * A body that cannot be read — one cut short by a client gone mid-upload included — is a
 * problem of the request, never an error of the server.
 */
import busboy from 'busboy';
import { cleanFileName } from './file-name.js';
import type { RequestError } from './problem.js';
import type { BodySpec } from './route-table.js';

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
}

export function readForm(raw: Buffer, contentType: string, spec: Pick<BodySpec, 'files' | 'lists'>): Promise<ParsedForm> {
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  const files: Record<string, UploadedFile[]> = Object.create(null) as Record<string, UploadedFile[]>;
  const problems: RequestError[] = [];
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      // Field values are bounded by the body limit already; the defaults (1 MiB, 1000 fields) are looser.
      parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { fieldSize: 64 * 1024 } });
    } catch (error) {
      problems.push({ in: 'body', pointer: '', message: `is not a readable form: ${(error as Error).message}` });
      resolve({ fields, files, problems });
      return;
    }
    const pending: Promise<void>[] = [];
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) problems.push({ in: 'body', pointer: `/${name}`, message: 'is longer than 65536 bytes' });
      if (spec.files.includes(name)) {
        problems.push({ in: 'body', pointer: `/${name}`, message: 'must be sent as a file part' });
      } else if (spec.lists.includes(name)) {
        const list = fields[name];
        fields[name] = Array.isArray(list) ? [...list, value] : [value];
      } else if (name in fields) {
        problems.push({ in: 'body', pointer: `/${name}`, message: 'must be given once' });
      } else {
        fields[name] = value;
      }
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      pending.push(
        new Promise((done) => {
          // A part cut short fails its stream as well as the parser; the parser's error reports it.
          stream.on('error', () => done());
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            if (!spec.files.includes(name)) {
              problems.push({ in: 'body', pointer: `/${name}`, message: 'is not a file field of this operation' });
            } else {
              (files[name] ??= []).push({
                name: cleanFileName(info.filename ?? ''),
                mediaType: (info.mimeType || 'application/octet-stream').toLowerCase(),
                data: Buffer.concat(chunks),
              });
            }
            done();
          });
        }),
      );
    });
    parser.on('error', (error: Error) => {
      problems.push({ in: 'body', pointer: '', message: unreadable(error) });
      resolve({ fields, files, problems });
    });
    parser.on('close', () => void Promise.all(pending).then(() => resolve({ fields, files, problems })));
    parser.end(raw);
  });
}

/** busboy's message for a body that ends before the boundary that closes the form. */
const cutShort = 'Unexpected end of form';

function unreadable(error: Error): string {
  return error.message === cutShort
    ? 'ends before the closing boundary of the form; the upload was cut short'
    : `is not a readable form: ${error.message}`;
}
