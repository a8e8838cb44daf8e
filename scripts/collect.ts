/**
 * Sends evidence files to Evident's `POST /api/evidence`: JSON (one item, an array, or
 * `{"items": [...]}`) and NDJSON (`.ndjson`, `.jsonl`), or with `--format ocsf` scanners' OCSF
 * Detection Findings (Prowler's `json-ocsf`), in idempotent, retried batches.
 *
 *   node scripts/collect.ts [--format evidence|ocsf] [--url <url>] [--token <id token>] [--batch-size <n>] [--source <name>] [--dry-run] <file>...
 *   npm run collect -- --token "$TOKEN" examples/collectors/idp-users.ndjson
 *   npm run collect -- --token "$TOKEN" --format ocsf output/prowler-output-123456789012.ocsf.json
 *
 * All the logic is in `lib/collector.ts`; see docs/collectors.md.
 */
import { main } from './lib/collector.ts';

process.exitCode = await main(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
