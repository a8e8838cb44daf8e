/**
 * The logic of `npm run collect` (scripts/collect.ts), which sends evidence files to
 * `POST /api/evidence`. Only Node built-ins, the import-free API contract and the import-free
 * OCSF readers of functions/src/evidence (json-values.ts, ocsf-findings.ts), so a collector host
 * needs nothing but Node.
 *
 * - Formats: `--format evidence` (the default): a JSON file holds one item, an array of items or
 *   `{"items": [...]}`; an NDJSON file (`.ndjson`, `.jsonl`) one item per line. Every item keeps
 *   where it came from (file and line, and for JSON files the line of each value inside it), so
 *   a problem's JSON pointer can be shown as `file:line`. `--format ocsf`: each file holds a
 *   scanner's OCSF Detection Findings (Prowler's `json-ocsf`: a JSON array, or NDJSON, told
 *   apart by the first character), each finding and resource sent as a `scanner.finding` item
 *   at the finding's line. OCSF files are streamed in two passes, check then send, so a 100 MB
 *   scan is never held whole; `--source` does not apply (the finding names its source).
 * - Any malformed input, in any file, is reported as `file:line: what is wrong` and nothing at
 *   all is sent.
 * - Batching: at most `--batch-size` items (≤ 500) and 4 MiB per request, never across files.
 * - Idempotency: an evidence file's requests each carry an `Idempotency-Key` derived from the
 *   file's SHA-256 and the batch's index; OCSF items carry ids derived from their finding, so no
 *   key is needed. Either way running the same files again stores nothing twice.
 * - Delivery: 429, 5xx and network errors are retried with exponential back-off (3 attempts);
 *   other 4xx answers are not, their problem is printed.
 *
 * `main` is the CLI; `runCollector` does the work with injectable I/O, so tests drive it. Each
 * concern is a module of `collector/`: evidence-files, json-positions, ocsf-files, batches,
 * plans, problems, delivery, run-options, run-collector and command-line.
 */
export { Batcher, batchItems, idempotencyKey, InputError, planBatches } from './collector/batches.ts';
export { main, parseCollectArgs } from './collector/command-line.ts';
export { parseEvidenceFile } from './collector/evidence-files.ts';
export { checkOcsfFiles, ocsfBatches, streamOpener, type OpenStream } from './collector/ocsf-files.ts';
export { formatProblem, locatePointer } from './collector/problems.ts';
export { runCollector } from './collector/run-collector.ts';
export type { CollectorIo, CollectorOptions } from './collector/run-options.ts';
