/**
 * A whole collector run with injectable I/O, so tests drive it: read and check every file, plan
 * the batches, then send them in order (or, with `dryRun`, print the plan). Evidence files are
 * read whole; OCSF files are streamed, checked in a first pass and batched as they are sent in a
 * second (ocsf-files.ts). Any malformed input is reported and nothing at all is sent; a batch not
 * delivered stops the run. Evidence files of one source go under a collection run when asked
 * (collection-run.ts): opened first, completed with the counts once every batch is stored.
 */
import { plural } from '@evident/contract';
import { describeBatch, InputError, type Batch } from './batches.ts';
import { send } from './delivery.ts';
import { cancelRun, completeRun, openRun, runShape, type RunShape } from './collection-run.ts';
import { planRun, type Plan } from './plans.ts';
import type { CollectorIo, CollectorOptions } from './run-options.ts';

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
  for (const line of plan.notes) io.out(line);
  if (options.dryRun) return { exitCode: (await printPlan(plan, io)) ? 0 : 1, summary };
  const run = await runFor(plan, options, io);
  if (run === 'failed') return { exitCode: 1, summary: { ...summary, notSent: plan.items } };
  const complete = await sendAll(plan, options, io, summary, run?.id);
  const sent = complete && summary.rejected + summary.notSent === 0;
  let whole = true;
  if (run) {
    if (sent) whole = await completeRun(run.id, run.shape, options, io);
    else await cancelRun(run.id, 'the collector stopped before sending every batch', options, io);
  }
  io.out(formatSummary(summary));
  return { exitCode: sent && whole ? 0 : 1, summary };
}

/**
 * The collection run to send under: opened when asked for and the batches are of one source;
 * none otherwise (said why); `failed` when it could not be opened, and then nothing is sent.
 */
async function runFor(
  plan: Plan,
  options: CollectorOptions,
  io: CollectorIo,
): Promise<{ id: string; shape: RunShape } | undefined | 'failed'> {
  if (!options.run || options.format === 'ocsf' || !Array.isArray(plan.batches) || plan.items === 0) return undefined;
  const shape = runShape(plan.batches as Batch[]);
  if ('sources' in shape) {
    io.out(
      `Sent without a collection run: a run is of one source, and the files name ${plural(shape.sources.length, 'source')} ` +
        "(send each source's files on their own, or set --source).",
    );
    return undefined;
  }
  const id = await openRun(shape, options, io);
  return id === undefined ? 'failed' : { id, shape };
}

/** The dry run: each batch with its size and key, and each item at its file:line. False when the input failed meanwhile. */
async function printPlan(plan: Plan, io: CollectorIo): Promise<boolean> {
  let batches = 0;
  try {
    for await (const batch of plan.batches) {
      batches++;
      const key = batch.idempotencyKey ? `Idempotency-Key ${batch.idempotencyKey}` : 'no Idempotency-Key (the items carry ids)';
      io.out(`${describeBatch(batch)}: ${Buffer.byteLength(batch.body)} bytes, ${key}`);
      for (const { item, origin } of batch.items) {
        io.out(
          `  ${origin.file}:${origin.line} ${String(item['kind'])} ${typeof item['subject'] === 'string' ? item['subject'] : '(no subject)'}`,
        );
      }
    }
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.err(error.message);
    return false;
  }
  io.out(
    `Dry run: ${plural(plan.items, 'item')} in ${plural(batches, 'batch', 'batches')} from ${plural(plan.files, 'file')}; ` +
      'nothing was sent.',
  );
  return true;
}

/**
 * Sends the batches in order, counting into `summary`. A batch not delivered, a 401, a server
 * that kept failing or an input that failed while being read again stops the run: the rest are
 * counted as not sent, for a re-run to send. False when the input failed.
 */
async function sendAll(
  plan: Plan,
  options: CollectorOptions,
  io: CollectorIo,
  summary: Summary,
  runId: string | undefined,
): Promise<boolean> {
  const base = `${options.url.replace(/(?<!\/)\/+$/, '')}/api/evidence`;
  const endpoint = runId ? `${base}?run=${runId}` : base;
  let tried = 0;
  let stopped = false;
  let complete = true;
  try {
    for await (const batch of plan.batches) {
      tried += batch.items.length;
      stopped = await sendCounted(batch, endpoint, options, io, summary);
      if (stopped) break;
    }
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.err(error.message);
    stopped = true;
    complete = false;
  }
  if (stopped) {
    summary.notSent += Math.max(0, plan.items - tried);
    io.err('collect: stopped; the batches not sent can be sent by running the same command again.');
  }
  return complete;
}

/** One batch sent and counted into `summary`; true when the run must stop. */
async function sendCounted(
  batch: Batch,
  endpoint: string,
  options: CollectorOptions,
  io: CollectorIo,
  summary: Summary,
): Promise<boolean> {
  const outcome = await send(batch, endpoint, options, io);
  if (outcome.kind === 'stored') {
    summary.created += outcome.created;
    summary.existing += outcome.existing;
    io.out(`${describeBatch(batch)}: ${outcome.status}, created ${outcome.created}, already present ${outcome.existing}`);
    return false;
  }
  for (const line of outcome.lines) io.err(line);
  if (outcome.kind === 'undelivered') {
    summary.notSent += batch.items.length;
    return true;
  }
  summary.rejected += batch.items.length;
  return outcome.stop;
}
