/**
 * What a run will send, from its files checked: evidence files read whole and batched up front,
 * or OCSF files checked in a streamed first pass and batched as they are sent (ocsf-files.ts).
 * Any malformed input is reported here, and then nothing at all is sent.
 */
import { readFile } from 'node:fs/promises';
import { maxBatchBytes, plural } from '@evident/contract';
import { InputError, planBatches, type Batch } from './batches.ts';
import { parseEvidenceFile, type ParsedFile } from './evidence-files.ts';
import { checkOcsfFiles, ocsfBatches, streamOpener, UnreadableFile, type OcsfCheck } from './ocsf-files.ts';
import type { CollectorIo, CollectorOptions } from './run-options.ts';

/** What a checked input makes: its batches, built up front (evidence) or as they are sent (OCSF, streamed). */
export interface Plan {
  files: number;
  items: number;
  batches: Iterable<Batch> | AsyncIterable<Batch>;
  /** Lines to print before the batches, such as a file that has nothing to send. */
  notes: string[];
}

export type Refusal = { exitCode: 1 | 2 };

/** Prints every problem of the input and that nothing was sent. */
function refuseInput(problems: readonly string[], io: CollectorIo): Refusal {
  for (const line of problems) io.err(line);
  io.err(`collect: ${plural(problems.length, 'problem')} in the input; nothing was sent.`);
  return { exitCode: 1 };
}

/** Every evidence file read and checked, and its batches; or the exit code when a file cannot be read or any input is wrong. */
async function planEvidenceRun(options: CollectorOptions, io: CollectorIo): Promise<Plan | Refusal> {
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
  if (errors.length > 0) return refuseInput(errors, io);
  const items = batches.reduce((sum, batch) => sum + batch.items.length, 0);
  return { files: parsed.length, items, batches, notes: [] };
}

/**
 * OCSF files checked whole (pass 1, streamed); when all is well, their batches are read again as
 * they are sent (pass 2). See ocsf-files.ts.
 */
async function planOcsfRun(options: CollectorOptions, io: CollectorIo): Promise<Plan | Refusal> {
  const open = streamOpener(io);
  const maxBytes = options.maxBatchBytes ?? maxBatchBytes;
  let checked: OcsfCheck;
  try {
    checked = await checkOcsfFiles(options.files, open, options.batchSize, maxBytes);
  } catch (error) {
    if (!(error instanceof UnreadableFile)) throw error;
    io.err(`collect: ${error.message}`);
    return { exitCode: 2 };
  }
  if (checked.problems.length > 0) return refuseInput(checked.problems, io);
  return {
    files: checked.files.length,
    items: checked.files.reduce((sum, file) => sum + file.items, 0),
    batches: ocsfBatches(checked.files, open, options.batchSize, maxBytes),
    notes: checked.files.filter((file) => file.findings === 0).map((file) => `${file.file}: no findings; nothing to send`),
  };
}

/** The plan of the run's format, or the exit code when a file cannot be read (2) or any input is wrong (1). */
export function planRun(options: CollectorOptions, io: CollectorIo): Promise<Plan | Refusal> {
  return options.format === 'ocsf' ? planOcsfRun(options, io) : planEvidenceRun(options, io);
}
