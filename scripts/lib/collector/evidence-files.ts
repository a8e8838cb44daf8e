/**
 * Reading evidence files: a JSON file holds one item, an array of items or `{"items": [...]}`; an
 * NDJSON file (`.ndjson`, `.jsonl`) one item per line. Every item keeps where it came from (file
 * and line, and for JSON files the line of each value inside it). Only the shape is checked here
 * (an object with a kind); the server checks everything else.
 */
import { createHash } from 'node:crypto';
import { describeJsonError, valueLines } from './json-positions.ts';

export interface Origin {
  file: string;
  line: number;
}

/** One evidence item as read from a file. */
export interface SourceItem {
  item: Record<string, unknown>;
  origin: Origin;
  /** For JSON files: the line of each value inside the item, by JSON pointer relative to the item. */
  lines?: ReadonlyMap<string, number>;
}

export interface ParsedFile {
  file: string;
  /** SHA-256 of the file's bytes, hex. */
  digest: string;
  items: SourceItem[];
  /** `file:line: message` for everything that is wrong; when not empty, nothing may be sent. */
  errors: string[];
}

export function isNdjson(file: string): boolean {
  return /\.(?:ndjson|jsonl)$/i.test(file);
}

/** Reads a JSON or NDJSON file (told apart by its extension) into items with their origin. */
export function parseEvidenceFile(file: string, contents: string | Uint8Array): ParsedFile {
  const bytes = typeof contents === 'string' ? Buffer.from(contents, 'utf8') : contents;
  const digest = createHash('sha256').update(bytes).digest('hex');
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const parsed = isNdjson(file) ? parseNdjson(file, text) : parseJson(file, text);
  return { file, digest, ...parsed };
}

function parseNdjson(file: string, text: string): Pick<ParsedFile, 'items' | 'errors'> {
  const items: SourceItem[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const source = raw.trim();
    if (source === '') return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      const { message, column } = describeJsonError(error as Error, source);
      errors.push(`${file}:${line}: not valid JSON: ${message}${column ? ` (column ${column})` : ''}`);
      return;
    }
    const problem = shapeProblem(value);
    if (problem) errors.push(`${file}:${line}: ${problem}`);
    else items.push({ item: value as Record<string, unknown>, origin: { file, line } });
  });
  return { items, errors };
}

function parseJson(file: string, text: string): Pick<ParsedFile, 'items' | 'errors'> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { message, line, column } = describeJsonError(error as Error, text);
    const where = line ? `${file}:${line}${column ? `:${column}` : ''}` : file;
    return { items: [], errors: [`${where}: not valid JSON: ${message}`] };
  }
  const lines = valueLines(text);
  // Where the items are: `/0`, `/1`… of an array or of `/items`, or the whole document.
  let base: string;
  let list: unknown[];
  let single = false;
  if (Array.isArray(value)) {
    [base, list] = ['', value];
  } else if (isObject(value) && Object.hasOwn(value, 'items')) {
    if (!Array.isArray(value['items'])) {
      return { items: [], errors: [`${file}:${lines.get('/items') ?? 1}: "items" must be an array of evidence items`] };
    }
    [base, list] = ['/items', value['items']];
  } else if (isObject(value)) {
    [base, list, single] = ['', [value], true];
  } else {
    return {
      items: [],
      errors: [`${file}:${lines.get('') ?? 1}: expected an evidence item, an array of items or {"items": [...]}`],
    };
  }

  const perItem = list.map(() => new Map<string, number>());
  for (const [pointer, line] of lines) {
    if (single) {
      perItem[0]!.set(pointer, line);
      continue;
    }
    if (!pointer.startsWith(`${base}/`)) continue;
    const rest = pointer.slice(base.length + 1);
    const slash = rest.indexOf('/');
    const index = Number(slash === -1 ? rest : rest.slice(0, slash));
    perItem[index]?.set(slash === -1 ? '' : rest.slice(slash), line);
  }

  const items: SourceItem[] = [];
  const errors: string[] = [];
  list.forEach((entry, index) => {
    const itemLines = perItem[index]!;
    const origin = { file, line: itemLines.get('') ?? 1 };
    const problem = shapeProblem(entry);
    if (problem) errors.push(`${file}:${origin.line}: ${problem}`);
    else items.push({ item: entry as Record<string, unknown>, origin, lines: itemLines });
  });
  return { items, errors };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The local check: an object with a kind. The server checks everything else. */
function shapeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'an evidence item must be a JSON object';
  if (typeof value['kind'] !== 'string' || value['kind'] === '') return 'the item has no "kind"';
  return undefined;
}
