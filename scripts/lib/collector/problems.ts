/**
 * A refused batch explained: the problem's code and detail, each error mapped from its JSON
 * pointer back to the file and line it came from, and a hint for the codes a collector can fix.
 */
import { describeBatch, type Batch } from './batches.ts';
import type { Origin } from './evidence-files.ts';

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
