/**
 * The logic of `npm run collect` (scripts/collect.ts), which sends evidence files to
 * `POST /api/evidence`. Only Node built-ins, so a collector host needs nothing but Node.
 *
 * - Parsing: a JSON file holds one item, an array of items or `{"items": [...]}`; an NDJSON file
 *   (`.ndjson`, `.jsonl`) one item per line. Every item keeps where it came from (file and line,
 *   and for JSON files the line of each value inside it), so a problem's JSON pointer can be
 *   shown as `file:line`. Any malformed input is reported and nothing at all is sent.
 * - Batching: at most `--batch-size` items (≤ 500) and 4 MiB per request, never across files.
 * - Idempotency: each request carries an `Idempotency-Key` derived from the file's SHA-256 and the
 *   batch's index, so running the same files again stores nothing twice.
 * - Delivery: 429, 5xx and network errors are retried with exponential back-off (3 attempts);
 *   other 4xx answers are not, their problem is printed.
 *
 * `main` is the CLI; `runCollector` does the work with injectable I/O, so tests drive it.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

export const defaultUrl = 'http://127.0.0.1:5000';
export const defaultBatchSize = 200;
/** The API's limits for one `POST /api/evidence`: items per batch and body size. */
export const maxBatchItems = 500;
export const maxBatchBytes = 4 * 1024 * 1024;
export const maxAttempts = 3;
export const firstRetryDelayMs = 500;

// ---------------------------------------------------------------------------------------------
// Parsing

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

/** V8's JSON error without the echoed input, and where it happened when V8 says so. */
function describeJsonError(error: Error, text: string): { message: string; line?: number; column?: number } {
  let message = error.message.replace(/, ".*" is not valid JSON$/s, '');
  const located = / in JSON at position (\d+)(?: \(line (\d+) column (\d+)\))?$/.exec(message);
  if (located) {
    message = message.slice(0, located.index);
    const position = Number(located[1]);
    const before = text.slice(0, position).split('\n');
    const line = located[2] ? Number(located[2]) : before.length;
    const column = located[3] ? Number(located[3]) : before.at(-1)!.length + 1;
    return { message, line, column };
  }
  if (/^Unexpected end of JSON input/.test(message)) return { message, line: text.trimEnd().split('\n').length };
  return { message };
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The line each value of a valid JSON text starts on, by JSON pointer. Iterative, so deep
 * nesting cannot overflow the stack; assumes `JSON.parse` accepted the text.
 */
export function valueLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let pos = 0;
  let line = 1;
  const skipSpace = () => {
    for (; pos < text.length; pos++) {
      const c = text[pos];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '\uFEFF') break;
    }
  };
  const readString = (): string => {
    const start = pos++;
    while (text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    pos++;
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const stack: { pointer: string; array: boolean; index: number }[] = [];
  /** Positions on the next member's value and returns its pointer. */
  const next = (frame: { pointer: string; array: boolean; index: number }): string => {
    if (frame.array) return `${frame.pointer}/${frame.index}`;
    skipSpace();
    const key = readString();
    skipSpace();
    pos++; // ':'
    return `${frame.pointer}/${escapePointer(key)}`;
  };

  let pointer = '';
  for (;;) {
    skipSpace();
    lines.set(pointer, line);
    const c = text[pos];
    if (c === '{' || c === '[') {
      pos++;
      skipSpace();
      if (text[pos] === (c === '{' ? '}' : ']')) {
        pos++;
      } else {
        const frame = { pointer, array: c === '[', index: 0 };
        stack.push(frame);
        pointer = next(frame);
        continue;
      }
    } else if (c === '"') {
      readString();
    } else {
      while (pos < text.length && !/[\s,\]}]/.test(text[pos]!)) pos++;
    }
    // The value is complete: move to the next member, closing containers on the way.
    for (;;) {
      const frame = stack.at(-1);
      if (!frame) return lines;
      skipSpace();
      if (text[pos++] === ',') {
        frame.index++;
        pointer = next(frame);
        break;
      }
      stack.pop();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Batching and idempotency

export interface Batch {
  file: string;
  /** 0-based within the file. */
  index: number;
  /** How many batches the file makes. */
  of: number;
  items: SourceItem[];
  /** The exact request body. */
  body: string;
  idempotencyKey: string;
}

export class InputError extends Error {}

/** Sets `source` on the items that have none; the others keep theirs. */
export function withSource(items: SourceItem[], source: string | undefined): SourceItem[] {
  if (source === undefined) return items;
  return items.map((entry) => (entry.item['source'] === undefined ? { ...entry, item: { ...entry.item, source } } : entry));
}

/** Splits items, in order, into groups of at most `size` items whose `{"items": [...]}` body fits in `maxBytes`. */
export function batchItems<T extends { item: unknown; origin?: Origin }>(
  items: readonly T[],
  size: number,
  maxBytes = maxBatchBytes,
): T[][] {
  const overhead = Buffer.byteLength('{"items":[]}');
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = overhead;
  for (const entry of items) {
    const itemBytes = Buffer.byteLength(JSON.stringify(entry.item));
    if (overhead + itemBytes > maxBytes) {
      const where = entry.origin ? `${entry.origin.file}:${entry.origin.line}: ` : '';
      throw new InputError(`${where}the item is ${itemBytes} bytes; a request may carry at most ${maxBytes}`);
    }
    // Each item after the first also costs a comma.
    if (current.length > 0 && (current.length >= size || bytes + 1 + itemBytes > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = overhead;
    }
    bytes += itemBytes + (current.length > 0 ? 1 : 0);
    current.push(entry);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * The `Idempotency-Key` of a file's batch: the same file contents and batch index always give the
 * same key, so a re-run is answered from the first run's result and the server derives the same
 * item ids. (The same file sent again with other options, such as another `--source`, is a
 * different body under the same key: the server refuses it with `idempotency_key_reused`.)
 */
export function idempotencyKey(fileDigest: string, batchIndex: number): string {
  return `collect-${createHash('sha256').update(`evident-collect/1\n${fileDigest}\n${batchIndex}`).digest('hex')}`;
}

/** A parsed file's requests. Throws `InputError` for an item too large to send. */
export function planBatches(parsed: ParsedFile, size: number, source?: string, maxBytes = maxBatchBytes): Batch[] {
  const groups = batchItems(withSource(parsed.items, source), size, maxBytes);
  return groups.map((items, index) => ({
    file: parsed.file,
    index,
    of: groups.length,
    items,
    body: JSON.stringify({ items: items.map((entry) => entry.item) }),
    idempotencyKey: idempotencyKey(parsed.digest, index),
  }));
}

/** `batch 2/3 of file (lines 201-400)`. */
export function describeBatch(batch: Batch): string {
  const lines = batch.items.map((entry) => entry.origin.line);
  const first = Math.min(...lines);
  const last = Math.max(...lines);
  const range = first === last ? `line ${first}` : `lines ${first}-${last}`;
  return `${batch.file} batch ${batch.index + 1}/${batch.of} (${plural(batch.items.length, 'item')}, ${range})`;
}

// ---------------------------------------------------------------------------------------------
// Problems

export interface ProblemError {
  in?: string;
  name?: string;
  pointer?: string;
  message?: string;
}

export interface Problem {
  status?: number;
  code?: string;
  title?: string;
  detail?: string;
  requestId?: string;
  errors?: ProblemError[];
}

/** Where in the files a pointer into a batch's body (`/items/3/data/mfaEnabled`) came from. */
export function locatePointer(batch: Batch, pointer: string): Origin | undefined {
  const match = /^\/items\/(\d+)((?:\/.*)?)$/.exec(pointer);
  const entry = match ? batch.items[Number(match[1])] : undefined;
  if (!entry) return undefined;
  let relative = match![2]!;
  for (;;) {
    const line = entry.lines?.get(relative);
    if (line !== undefined) return { file: entry.origin.file, line };
    if (relative === '') return entry.origin;
    relative = relative.slice(0, relative.lastIndexOf('/'));
  }
}

const hints: Record<string, string> = {
  unauthenticated: 'send a Firebase ID token with --token or EVIDENT_TOKEN (see /docs/authentication)',
  invalid_token: 'the token is not from the configured identity project, or is mangled; get a fresh ID token',
  token_expired: 'ID tokens last an hour; get a fresh one and run again (already stored items are not sent twice)',
  evidence_conflict: 'evidence is append-only: send a correction as a new item with a new id',
  idempotency_key_reused:
    'this file was sent before as a different body (other --source or --batch-size?); its first run was stored',
  payload_too_large: 'lower --batch-size',
};

/** The lines that explain a refused batch: code and detail, then each error at its file:line. */
export function formatProblem(batch: Batch, status: number, problem: Problem | undefined, raw = ''): string[] {
  if (!problem || typeof problem.code !== 'string') {
    const text = raw.replace(/\s+/g, ' ').trim();
    return [`${describeBatch(batch)}: rejected: HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`];
  }
  const lines = [`${describeBatch(batch)}: rejected: ${status} ${problem.code}: ${problem.detail ?? problem.title ?? ''}`];
  for (const error of Array.isArray(problem.errors) ? problem.errors : []) {
    const message = error.message ?? 'is invalid';
    if (error.in && error.in !== 'body') {
      lines.push(`  ${error.in} ${error.name ? `"${error.name}" ` : ''}${message}`);
      continue;
    }
    const pointer = error.pointer ?? '';
    const origin = locatePointer(batch, pointer);
    lines.push(`  ${origin ? `${origin.file}:${origin.line}: ` : ''}${pointer || '(body)'} ${message}`);
  }
  if (problem.code === 'evidence_conflict') {
    const id = /"([^"]+)"/.exec(problem.detail ?? '')?.[1];
    const entry = batch.items.find((candidate) => candidate.item['id'] === id);
    if (entry) lines.push(`  ${entry.origin.file}:${entry.origin.line}: the item with id "${id}"`);
  }
  if (hints[problem.code]) lines.push(`  hint: ${hints[problem.code]}`);
  if (problem.requestId) lines.push(`  requestId: ${problem.requestId}`);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Running

export interface CollectorOptions {
  files: string[];
  url: string;
  token?: string;
  batchSize: number;
  source?: string;
  dryRun: boolean;
  /** Per request; a timed-out request is retried like a network error. */
  timeoutMs?: number;
  /** The body limit to batch for; the API's 4 MiB unless a test says otherwise. */
  maxBatchBytes?: number;
}

export interface CollectorIo {
  out(line: string): void;
  err(line: string): void;
  readFile?(path: string): Promise<Uint8Array>;
  fetch?: typeof fetch;
  sleep?(ms: number): Promise<void>;
}

export interface Summary {
  created: number;
  existing: number;
  rejected: number;
  /** Items of batches not delivered (the server stayed unreachable), or not tried after that or after a 401. */
  notSent: number;
}

export interface RunResult {
  exitCode: 0 | 1 | 2;
  summary: Summary;
}

type Outcome =
  | { kind: 'stored'; status: number; created: number; existing: number }
  | { kind: 'rejected'; status: number; lines: string[]; stop: boolean }
  | { kind: 'undelivered'; lines: string[] };

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export function formatSummary(summary: Summary): string {
  const parts = [`created ${summary.created}`, `already present ${summary.existing}`, `rejected ${summary.rejected}`];
  if (summary.notSent > 0) parts.push(`not sent ${summary.notSent}`);
  return `Summary: ${parts.join(', ')}`;
}

/** Reads, checks and batches the files, then sends them (or, with `dryRun`, prints the plan). */
export async function runCollector(options: CollectorOptions, io: CollectorIo): Promise<RunResult> {
  const summary: Summary = { created: 0, existing: 0, rejected: 0, notSent: 0 };
  const read = io.readFile ?? ((path: string) => readFile(path));

  const parsed: ParsedFile[] = [];
  for (const file of options.files) {
    try {
      parsed.push(parseEvidenceFile(file, await read(file)));
    } catch (error) {
      io.err(`collect: cannot read ${file}: ${(error as Error).message}`);
      return { exitCode: 2, summary };
    }
  }
  const errors = parsed.flatMap((file) => file.errors);
  const batches: Batch[] = [];
  for (const file of parsed) {
    try {
      batches.push(...planBatches(file, options.batchSize, options.source, options.maxBatchBytes ?? maxBatchBytes));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      errors.push(error.message);
    }
  }
  if (errors.length > 0) {
    for (const line of errors) io.err(line);
    io.err(`collect: ${plural(errors.length, 'problem')} in the input; nothing was sent.`);
    return { exitCode: 1, summary };
  }

  const total = batches.reduce((sum, batch) => sum + batch.items.length, 0);
  if (options.dryRun) {
    for (const batch of batches) {
      io.out(`${describeBatch(batch)}: ${Buffer.byteLength(batch.body)} bytes, Idempotency-Key ${batch.idempotencyKey}`);
      for (const { item, origin } of batch.items) {
        io.out(
          `  ${origin.file}:${origin.line} ${String(item['kind'])} ${typeof item['subject'] === 'string' ? item['subject'] : '(no subject)'}`,
        );
      }
    }
    io.out(
      `Dry run: ${plural(total, 'item')} in ${plural(batches.length, 'batch', 'batches')} from ${plural(parsed.length, 'file')}; ` +
        'nothing was sent.',
    );
    return { exitCode: 0, summary };
  }

  const endpoint = `${options.url.replace(/\/+$/, '')}/api/evidence`;
  let stopped = false;
  for (const batch of batches) {
    if (stopped) {
      summary.notSent += batch.items.length;
      continue;
    }
    const outcome = await send(batch, endpoint, options, io);
    if (outcome.kind === 'stored') {
      summary.created += outcome.created;
      summary.existing += outcome.existing;
      io.out(`${describeBatch(batch)}: ${outcome.status}, created ${outcome.created}, already present ${outcome.existing}`);
    } else {
      for (const line of outcome.lines) io.err(line);
      if (outcome.kind === 'undelivered') {
        summary.notSent += batch.items.length;
        stopped = true;
      } else {
        summary.rejected += batch.items.length;
        stopped = outcome.stop;
      }
    }
  }
  if (stopped) io.err('collect: stopped; the batches not sent can be sent by running the same command again.');
  io.out(formatSummary(summary));
  return { exitCode: summary.rejected + summary.notSent > 0 ? 1 : 0, summary };
}

const retryable = (status: number) => status === 429 || status >= 500;

function retryDelay(attempt: number, retryAfter: string | null): number {
  const backoff = firstRetryDelayMs * 2 ** (attempt - 1);
  const seconds = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : 0;
  return Math.max(backoff, Math.min(seconds * 1000, 30_000));
}

/** One batch, with retries. Only 429, 5xx and network errors are retried: a 4xx would fail the same way again. */
async function send(batch: Batch, endpoint: string, options: CollectorOptions, io: CollectorIo): Promise<Outcome> {
  const doFetch = io.fetch ?? fetch;
  const sleep = io.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, application/problem+json',
    'Idempotency-Key': batch.idempotencyKey,
  };
  if (options.token) headers['Authorization'] = `Bearer ${options.token}`;

  for (let attempt = 1; ; attempt++) {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(endpoint, {
        method: 'POST',
        headers,
        body: batch.body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      });
      text = await response.text();
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause;
      const reason = `${(error as Error).message}${cause?.message ? ` (${cause.message})` : ''}`;
      if (attempt < maxAttempts) {
        const delay = retryDelay(attempt, null);
        io.err(`${describeBatch(batch)}: ${reason}; retrying in ${delay} ms`);
        await sleep(delay);
        continue;
      }
      return {
        kind: 'undelivered',
        lines: [`${describeBatch(batch)}: not delivered after ${maxAttempts} attempts: ${reason}`],
      };
    }

    const body = parseBody(text);
    if (response.status === 200 || response.status === 201) {
      const results = (body as { items?: { status?: string }[] } | undefined)?.items;
      if (!Array.isArray(results)) {
        io.err(`${describeBatch(batch)}: answered ${response.status} without an IngestResult body`);
        const all = batch.items.length;
        return { kind: 'stored', status: response.status, created: response.status === 201 ? all : 0, existing: 0 };
      }
      const created = results.filter((result) => result.status === 'created').length;
      return { kind: 'stored', status: response.status, created, existing: results.length - created };
    }
    if (retryable(response.status) && attempt < maxAttempts) {
      const delay = retryDelay(attempt, response.headers.get('retry-after'));
      io.err(`${describeBatch(batch)}: answered ${response.status}; retrying in ${delay} ms`);
      await sleep(delay);
      continue;
    }
    const lines = formatProblem(batch, response.status, body as Problem | undefined, text);
    if (retryable(response.status)) lines.push(`  gave up after ${maxAttempts} attempts`);
    return { kind: 'rejected', status: response.status, lines, stop: response.status === 401 || retryable(response.status) };
  }
}

function parseBody(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The command line

export const usage = `Usage: node scripts/collect.ts [options] <file>...
       npm run collect -- [options] <file>...

Sends evidence items to POST /api/evidence. A .json file holds one item, an array of items or
{"items": [...]}; a .ndjson or .jsonl file holds one item per line.

Options:
  --url <url>          the Evident site (default ${defaultUrl}, or EVIDENT_URL)
  --token <token>      a Firebase ID token, sent as "Authorization: Bearer" (or EVIDENT_TOKEN)
  --batch-size <n>     items per request, 1 to ${maxBatchItems} (default ${defaultBatchSize})
  --source <name>      sets "source" on items that have none
  --dry-run            check and print the batches; send nothing
  -h, --help           show this help

Exit status: 0 when every item was stored or already present, 1 when any input was malformed
or any batch was rejected or not sent, 2 for a usage error.`;

export type ParsedArgs = { kind: 'run'; options: CollectorOptions } | { kind: 'help' } | { kind: 'usage'; message: string };

export function parseCollectArgs(argv: string[], env: Record<string, string | undefined> = {}): ParsedArgs {
  let values: { url?: string; token?: string; 'batch-size'?: string; source?: string; 'dry-run'?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        'batch-size': { type: 'string' },
        source: { type: 'string' },
        'dry-run': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { kind: 'usage', message: (error as Error).message };
  }
  if (values.help) return { kind: 'help' };
  if (positionals.length === 0) return { kind: 'usage', message: 'no file given' };

  const url = values.url ?? (env['EVIDENT_URL'] || defaultUrl);
  let parsedUrl: URL | undefined;
  try {
    parsedUrl = new URL(url);
  } catch {
    // reported below
  }
  if (!parsedUrl || !['http:', 'https:'].includes(parsedUrl.protocol)) {
    return { kind: 'usage', message: `--url "${url}" is not an http(s) URL` };
  }
  const batchSize = values['batch-size'] ?? String(defaultBatchSize);
  if (!/^\d+$/.test(batchSize) || Number(batchSize) < 1 || Number(batchSize) > maxBatchItems) {
    return { kind: 'usage', message: `--batch-size must be a whole number from 1 to ${maxBatchItems}` };
  }
  if (values.token === '') return { kind: 'usage', message: '--token is empty (is the variable you passed set?)' };
  const token = values.token ?? (env['EVIDENT_TOKEN'] || undefined);
  if (values.source !== undefined && (values.source.trim() === '' || values.source.length > 200)) {
    return { kind: 'usage', message: '--source must be 1 to 200 characters' };
  }
  return {
    kind: 'run',
    options: {
      files: positionals,
      url,
      ...(token ? { token } : {}),
      batchSize: Number(batchSize),
      ...(values.source !== undefined ? { source: values.source } : {}),
      dryRun: values['dry-run'] ?? false,
    },
  };
}

/** The whole command: arguments in, exit code out. */
export async function main(argv: string[], env: Record<string, string | undefined>, io: CollectorIo): Promise<number> {
  const parsed = parseCollectArgs(argv, env);
  if (parsed.kind === 'help') {
    io.out(usage);
    return 0;
  }
  if (parsed.kind === 'usage') {
    io.err(`collect: ${parsed.message}`);
    io.err('Run with --help for usage.');
    return 2;
  }
  return (await runCollector(parsed.options, io)).exitCode;
}
