/**
 * What an uploaded file must be to be kept: a type on the allowed list, content that is what the
 * type claims (a "PDF" must start like one, text must be UTF-8 text), not empty, not too large.
 */

/** A file as the request carried it (http/multipart.ts reads it from the form). */
export interface AttachmentFile {
  /** The file name the client sent, without any directory part. */
  name: string;
  /** The media type the client declared for the part. */
  mediaType: string;
  data: Buffer;
}

/**
 * Why a file may not be kept, with the facts; `index` is the file's place among the request's
 * files (absent when there are simply too many). The HTTP core words it (http/domain-problems.ts).
 */
export type AttachmentFault =
  | { fault: 'too_many'; count: number; maxFiles: number }
  | { fault: 'too_large'; index: number; name: string; bytes: number; maxFileBytes: number }
  | { fault: 'type_not_allowed'; index: number; name: string; mediaType: string; allowed: readonly string[] }
  | { fault: 'empty'; index: number; name: string }
  | { fault: 'content_mismatch'; index: number; name: string; mediaType: string };

export class AttachmentRejected extends Error {
  readonly reason: AttachmentFault;

  constructor(reason: AttachmentFault) {
    super(`attachment refused: ${reason.fault}${'index' in reason ? ` (file ${reason.index})` : ''}`);
    this.name = 'AttachmentRejected';
    this.reason = reason;
  }
}

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

/** Throws `AttachmentRejected` for the first file that may not be kept. */
export function checkAttachments(files: readonly AttachmentFile[], limits: UploadLimits): void {
  if (files.length > limits.maxFiles) {
    throw new AttachmentRejected({ fault: 'too_many', count: files.length, maxFiles: limits.maxFiles });
  }
  files.forEach((file, index) => {
    const { name, mediaType } = file;
    if (file.data.length > limits.maxFileBytes) {
      throw new AttachmentRejected({
        fault: 'too_large',
        index,
        name,
        bytes: file.data.length,
        maxFileBytes: limits.maxFileBytes,
      });
    }
    if (!limits.mediaTypes.includes(mediaType)) {
      throw new AttachmentRejected({ fault: 'type_not_allowed', index, name, mediaType, allowed: limits.mediaTypes });
    }
    if (file.data.length === 0) throw new AttachmentRejected({ fault: 'empty', index, name });
    const matches = signatures[mediaType] ?? (mediaType.startsWith('text/') ? isText : () => true);
    if (!matches(file.data)) throw new AttachmentRejected({ fault: 'content_mismatch', index, name, mediaType });
  });
}
