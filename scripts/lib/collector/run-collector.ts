/**
 * A whole collector run with injectable I/O, so tests drive it: read and check every file, plan
 * the batches, then send them in order (or, with `dryRun`, print the plan). Any malformed input
 * is reported and nothing at all is sent; a batch not delivered stops the run.
 */
import { readFile } from 'node:fs/promises';
import { maxBatchBytes, plural } from '../../../functions/src/contract.ts';
import { describeBatch, InputError, planBatches, type Batch } from './batches.ts';
import { send } from './delivery.ts';
import { parseEvidenceFile, type ParsedFile } from './evidence-files.ts';

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

export function formatSummary(summary: Summary): string {
  const parts = [`created ${summary.created}`, `already present ${summary.existing}`, `rejected ${summary.rejected}`];
  if (summary.notSent > 0) parts.push(`not sent ${summary.notSent}`);
  return `Summary: ${parts.join(', ')}`;
}

/** Reads, checks and batches the files, then sends them (or, with `dryRun`, prints the plan). */
export async function runCollector(options: CollectorOptions, io: CollectorIo): Promise<RunResult> {
  const summary: Summary = { created: 0, existing: 0, rejected: 0, notSent: 0 };
  const plan = await planRun(options, io);
  if ('exitCode' in plan) return { exitCode: plan.exitCode, summary };
  if (options.dryRun) {
    printPlan(plan, io);
    return { exitCode: 0, summary };
  }
  await sendAll(plan.batches, options, io, summary);
  io.out(formatSummary(summary));
  return { exitCode: summary.rejected + summary.notSent > 0 ? 1 : 0, summary };
}

interface Plan {
  parsed: ParsedFile[];
  batches: Batch[];
}

/** Every file read and checked, and its batches; or the exit code when a file cannot be read or any input is wrong. */
async function planRun(options: CollectorOptions, io: CollectorIo): Promise<Plan | { exitCode: 1 | 2 }> {
  const read = io.readFile ?? ((path: string) => readFile(path));
  const parsed: ParsedFile[] = [];
  for (const file of options.files) {
    try {
      parsed.push(parseEvidenceFile(file, await read(file)));
    } catch (error) {
      io.err(`collect: cannot read ${file}: ${(error as Error).message}`);
      return { exitCode: 2 };
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
    return { exitCode: 1 };
  }
  return { parsed, batches };
}

/** The dry run: each batch with its size and key, and each item at its file:line. */
function printPlan({ parsed, batches }: Plan, io: CollectorIo): void {
  const total = batches.reduce((sum, batch) => sum + batch.items.length, 0);
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
}

/**
 * Sends the batches in order, counting into `summary`. A batch not delivered, a 401 or a server
 * that kept failing stops the run: the rest are counted as not sent, for a re-run to send.
 */
async function sendAll(batches: readonly Batch[], options: CollectorOptions, io: CollectorIo, summary: Summary): Promise<void> {
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
}
