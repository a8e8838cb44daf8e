/**
 * Reading scanners' OCSF Detection Finding files (`--format ocsf`): Prowler's `json-ocsf` (a
 * top-level JSON array of findings) or NDJSON (one finding per line), told apart by the first
 * character whatever the file is named. Each finding becomes `scanner.finding` items (one per
 * resource) through functions/src/common/ocsf-findings.ts, each at the line its finding starts on.
 *
 * Files are streamed, never read whole, so a 100 MB scan costs about one batch of memory. That
 * takes two passes: `checkOcsfFiles` reads every file and checks every finding, keeping only
 * counts and problems; only when nothing is wrong does `ocsfBatches` read the files again and
 * yield their batches, one at a time, for sending or for the dry run's plan.
 *
 * Idempotency: these batches carry no `Idempotency-Key`. Every item has an id derived from its
 * finding (ocsf-findings.ts `findingId`), and the API stores items create-only by id, so a retried
 * request or a re-run stores nothing twice and answers `existing` for what it already has. A key
 * would add nothing but trouble: the API answers a repeated key with the first request's outcomes
 * unchanged (a re-run would report `created` again), refuses it for another body (a re-run with
 * another --batch-size would fail with `idempotency_key_reused`), and hashing each file for it
 * would be one more thing pass 1 must keep.
 */
import { createReadStream } from 'node:fs';
import { jsonValues } from '../../../functions/src/evidence/json-values.ts';
import { convertFinding } from '../../../functions/src/common/ocsf-findings.ts';
import { Batcher, InputError, type Batch } from './batches.ts';
import type { SourceItem } from './evidence-files.ts';

/** Opens a file as a stream of bytes. */
export type OpenStream = (path: string) => AsyncIterable<Uint8Array>;

/**
 * The collector's way to open a file: `io.openStream` when given; else, when a test gave only
 * `io.readFile`, its bytes as a single chunk; else the file streamed from disk.
 */
export function streamOpener(io: { openStream?: OpenStream; readFile?(path: string): Promise<Uint8Array> }): OpenStream {
  if (io.openStream) return io.openStream;
  const { readFile } = io;
  if (readFile) {
    return async function* (path: string) {
      yield await readFile(path);
    };
  }
  return (path: string) => createReadStream(path);
}

/** What pass 1 learnt of a file that pass 2 needs: how many items and batches it makes. */
export interface OcsfFileCheck {
  file: string;
  findings: number;
  items: number;
  batches: number;
}

export interface OcsfCheck {
  files: OcsfFileCheck[];
  /** `file:line: what is wrong`, in file order; when not empty, nothing may be sent. */
  problems: string[];
}

/** A file that could not be opened or read to its end. */
export class UnreadableFile extends Error {}

type Piece = { finding: true } | { entry: SourceItem } | { problem: string };

/**
 * The items of a file's findings, in order, each at its finding's line, with a `finding` marker
 * before each finding's items; and a problem for anything that is not a valid finding. Throws
 * `UnreadableFile` when reading fails.
 */
async function* findingItems(file: string, open: OpenStream): AsyncGenerator<Piece> {
  const where = (line: number) => (line > 0 ? `${file}:${line}` : file);
  try {
    for await (const piece of jsonValues(open(file))) {
      if ('error' in piece) {
        yield { problem: `${where(piece.line)}: ${piece.error}` };
        continue;
      }
      const converted = convertFinding(piece.value);
      if ('problem' in converted) {
        yield { problem: `${where(piece.line)}: ${converted.problem}` };
        continue;
      }
      yield { finding: true };
      for (const item of converted.items) {
        yield { entry: { item: item as unknown as Record<string, unknown>, origin: { file, line: piece.line } } };
      }
    }
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    throw new UnreadableFile(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * Pass 1: reads every file and checks every finding, and that every item fits in a request.
 * Holds one batch of items at a time. Throws `UnreadableFile` for a file it cannot read.
 */
export async function checkOcsfFiles(
  files: readonly string[],
  open: OpenStream,
  size: number,
  maxBytes: number,
): Promise<OcsfCheck> {
  const checked: OcsfFileCheck[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const counts: OcsfFileCheck = { file, findings: 0, items: 0, batches: 0 };
    const batcher = new Batcher<SourceItem>(size, maxBytes);
    for await (const piece of findingItems(file, open)) {
      if ('problem' in piece) problems.push(piece.problem);
      else if ('finding' in piece) counts.findings++;
      else {
        try {
          if (batcher.add(piece.entry)) counts.batches++;
          counts.items++;
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
          problems.push(error.message);
        }
      }
    }
    if (batcher.finish()) counts.batches++;
    checked.push(counts);
  }
  return { files: checked, problems };
}

/**
 * Pass 2: the files' batches, read again and built one at a time. A file that changed since pass 1
 * so that it now has a problem, or cannot be read any more, throws `InputError`: the batches
 * yielded before it stay sent, and a re-run sends the rest (their ids keep it from storing any twice).
 */
export async function* ocsfBatches(
  files: readonly OcsfFileCheck[],
  open: OpenStream,
  size: number,
  maxBytes: number,
): AsyncGenerator<Batch> {
  for (const { file, items, batches: of } of files) {
    if (items === 0) continue;
    const batcher = new Batcher<SourceItem>(size, maxBytes);
    let index = 0;
    const batchOf = (entries: SourceItem[]): Batch => ({
      file,
      index: index++,
      of,
      items: entries,
      body: JSON.stringify({ items: entries.map((entry) => entry.item) }),
    });
    try {
      for await (const piece of findingItems(file, open)) {
        if ('problem' in piece) throw new InputError(`${piece.problem} (the file changed after it was checked)`);
        const full = 'entry' in piece ? batcher.add(piece.entry) : undefined;
        if (full) yield batchOf(full);
      }
    } catch (error) {
      if (error instanceof UnreadableFile) throw new InputError(`collect: ${error.message}`);
      throw error;
    }
    const last = batcher.finish();
    if (last) yield batchOf(last);
  }
}
