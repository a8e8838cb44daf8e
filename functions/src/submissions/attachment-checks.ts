/**
 * What an uploaded file must be to be kept: a type on the allowed list, content that is what the
 * type claims (a "PDF" must start like one, text must be UTF-8 text), not empty, not too large.
 */
import { ApiProblem } from '../http/problem.js';
import type { UploadedFile } from '../http/multipart.js';

export interface UploadLimits {
  maxFiles: number;
  maxFileBytes: number;
  mediaTypes: readonly string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isText(data: Buffer): boolean {
  if (data.includes(0)) return false;
  try {
    utf8.decode(data);
    return true;
  } catch {
    return false;
  }
}

const signatures: Record<string, (data: Buffer) => boolean> = {
  'application/pdf': (data) => data.subarray(0, 5).toString('latin1') === '%PDF-',
  'image/png': (data) => data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (data) => data.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  'application/json': (data) => {
    if (!isText(data)) return false;
    try {
      JSON.parse(data.toString('utf8'));
      return true;
    } catch {
      return false;
    }
  },
};

/** Throws the problem for the first file that may not be kept. */
export function checkAttachments(files: readonly UploadedFile[], limits: UploadLimits): void {
  if (files.length > limits.maxFiles) {
    throw new ApiProblem('attachment_too_large', `${files.length} files were attached; at most ${limits.maxFiles} are accepted.`);
  }
  files.forEach((file, index) => {
    const label = `attachments[${index}] ("${file.name}")`;
    if (file.data.length > limits.maxFileBytes) {
      throw new ApiProblem(
        'attachment_too_large',
        `${label} is ${file.data.length} bytes; each file may be at most ${limits.maxFileBytes} bytes.`,
      );
    }
    if (!limits.mediaTypes.includes(file.mediaType)) {
      throw new ApiProblem(
        'attachment_type_not_allowed',
        `${label} is "${file.mediaType}"; accepted types are ${limits.mediaTypes.join(', ')}.`,
      );
    }
    if (file.data.length === 0) {
      throw new ApiProblem('invalid_request', `${label} is empty.`, {
        errors: [{ in: 'body', pointer: `/attachments/${index}`, message: 'is empty' }],
      });
    }
    const matches = signatures[file.mediaType] ?? (file.mediaType.startsWith('text/') ? isText : () => true);
    if (!matches(file.data)) {
      throw new ApiProblem('attachment_type_not_allowed', `${label} claims to be "${file.mediaType}" but its content is not.`);
    }
  });
}
