/**
 * The logic of `npm run collect` (scripts/collect.ts), which sends evidence files to
 * `POST /api/evidence`. Only Node built-ins and the import-free API contract, so a collector host
 * needs nothing but Node.
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
 * `main` is the CLI; `runCollector` does the work with injectable I/O, so tests drive it. Each
 * concern is a module of `collector/`: evidence-files, json-positions, batches, problems,
 * delivery, run-collector and command-line.
 */
export { batchItems, idempotencyKey, InputError, planBatches } from './collector/batches.ts';
export { main, parseCollectArgs } from './collector/command-line.ts';
export { parseEvidenceFile } from './collector/evidence-files.ts';
export { formatProblem, locatePointer } from './collector/problems.ts';
export { runCollector, type CollectorIo, type CollectorOptions } from './collector/run-collector.ts';
