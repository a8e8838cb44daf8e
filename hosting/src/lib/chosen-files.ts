/**
 * Files chosen for a submission, checked before they are uploaded against the limits the API
 * enforces (declared once, in `@evident/contract/upload-limits`), so a file the server would
 * refuse is not sent at all. The server checks again, and more (a PDF must look like one); its
 * answer is always shown too. Pure, so it is tested without a browser.
 */
import { uploadLimits } from '@evident/contract/upload-limits';

export { uploadLimits };

export interface Limits {
  maxFiles: number;
  maxFileBytes: number;
  mediaTypes: readonly string[];
}

/** What a file's name says it is, for files the browser gives no type or another name for (`.md`, `.csv` on some systems). */
const byExtension: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
};

/** The media type to send a file as: the browser's when the API accepts it, else the one its extension names. */
export function mediaTypeOf(file: Pick<File, 'name' | 'type'>, limits: Limits = uploadLimits): string {
  if (limits.mediaTypes.includes(file.type)) return file.type;
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  const named = extension ? byExtension[extension] : undefined;
  return named && limits.mediaTypes.includes(named) ? named : file.type || 'application/octet-stream';
}

/** The file as it is uploaded: with the media type `mediaTypeOf` chose (a multipart part carries the `File`'s own type). */
export function asUploaded(file: File, limits: Limits = uploadLimits): File {
  const type = mediaTypeOf(file, limits);
  return type === file.type ? file : new File([file], file.name, { type, lastModified: file.lastModified });
}

export interface Rejected {
  name: string;
  reason: string;
}

const sameFile = (a: File, b: File) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

/**
 * Adds newly chosen files to those already chosen, keeping the ones the API would accept and
 * saying why each other one was left out. A file chosen twice is kept once.
 */
export function addFiles(
  chosen: readonly File[],
  added: readonly File[],
  limits: Limits = uploadLimits,
): { files: File[]; rejected: Rejected[] } {
  const files = [...chosen];
  const rejected: Rejected[] = [];
  for (const file of added) {
    if (files.some((kept) => sameFile(kept, file))) continue;
    const reason =
      file.size === 0
        ? 'is empty'
        : file.size > limits.maxFileBytes
          ? `is ${sizeText(file.size)}; each file may be at most ${sizeText(limits.maxFileBytes)}`
          : !limits.mediaTypes.includes(mediaTypeOf(file, limits))
            ? `is not a type the server accepts (${typeNames(limits)})`
            : files.length >= limits.maxFiles
              ? `would be file ${files.length + 1}; at most ${limits.maxFiles} files can be attached`
              : undefined;
    if (reason) rejected.push({ name: file.name, reason });
    else files.push(file);
  }
  return { files, rejected };
}

const typeWords: Record<string, string> = { 'text/plain': 'plain text', 'text/markdown': 'Markdown' };

/** `application/pdf, image/png, text/plain` → `PDF, PNG, plain text`, for people. */
export function typeNames(limits: Limits = uploadLimits): string {
  return limits.mediaTypes.map((type) => typeWords[type] ?? (type.split('/')[1] ?? type).toUpperCase()).join(', ');
}

/** The file input's `accept`: the types and the extensions that name them. */
export function acceptOf(limits: Limits = uploadLimits): string {
  const extensions = Object.entries(byExtension)
    .filter(([, type]) => limits.mediaTypes.includes(type))
    .map(([extension]) => `.${extension}`);
  return [...limits.mediaTypes, ...extensions].join(',');
}

/** Bytes as people read them: `812 B`, `14.2 KiB`, `10 MiB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : [bytes / 1024 / 1024, 'MiB'];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}
