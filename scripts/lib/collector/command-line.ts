/**
 * The command line of `npm run collect`: its usage text, its arguments checked into options, and
 * `main`, which runs the collector and answers with the exit code.
 */
import { parseArgs } from 'node:util';
import { maxBatchItems } from '@evident/contract';
import { runCollector } from './run-collector.ts';
import type { CollectorIo, CollectorOptions } from './run-options.ts';

export const defaultUrl = 'http://127.0.0.1:5000';
export const defaultBatchSize = 200;

export const usage = `Usage: node scripts/collect.ts [options] <file>...
       npm run collect -- [options] <file>...

Sends evidence items to POST /api/evidence. Every file is checked first; when anything in any
file is malformed, the problems are printed and nothing is sent.

  --format evidence    (the default) a .json file holds one item, an array of items or
                       {"items": [...]}; a .ndjson or .jsonl file holds one item per line
  --format ocsf        each file is a scanner's OCSF Detection Findings, such as Prowler's
                       json-ocsf output: a JSON array of findings, or one finding per line
                       (whatever the file is named). Each finding and resource is sent as a
                       scanner.finding item with an id of its own, so a scan sent again is
                       answered "already present"; files are streamed, never read whole

Options:
  --format <format>    evidence or ocsf (see above)
  --url <url>          the Evident site (default ${defaultUrl}, or EVIDENT_URL)
  --token <token>      a Firebase ID token, sent as "Authorization: Bearer" (or EVIDENT_TOKEN)
  --batch-size <n>     items per request, 1 to ${maxBatchItems} (default ${defaultBatchSize})
  --source <name>      sets "source" on items that have none (not with --format ocsf: each
                       finding names its scanner and account)
  --no-run             send evidence files without a collection run (by default files of one
                       source are sent under one: opened first, completed with the count of
                       each kind, so Evident can tell whether it got everything)
  --dry-run            check and print the batches; send nothing
  -h, --help           show this help

Exit status: 0 when every item was stored or already present, 1 when any input was malformed
or any batch was rejected or not sent, 2 for a usage error.`;

export type ParsedArgs = { kind: 'run'; options: CollectorOptions } | { kind: 'help' } | { kind: 'usage'; message: string };

export function parseCollectArgs(argv: string[], env: Record<string, string | undefined> = {}): ParsedArgs {
  let values: {
    format?: string;
    url?: string;
    token?: string;
    'batch-size'?: string;
    source?: string;
    'dry-run'?: boolean;
    'no-run'?: boolean;
    help?: boolean;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        'batch-size': { type: 'string' },
        source: { type: 'string' },
        'dry-run': { type: 'boolean' },
        'no-run': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { kind: 'usage', message: (error as Error).message };
  }
  if (values.help) return { kind: 'help' };
  if (positionals.length === 0) return { kind: 'usage', message: 'no file given' };
  const format = values.format;
  if (format !== undefined && format !== 'evidence' && format !== 'ocsf') {
    return { kind: 'usage', message: `--format "${format}" is not one of: evidence, ocsf` };
  }
  if (format === 'ocsf' && values.source !== undefined) {
    return { kind: 'usage', message: '--source cannot be used with --format ocsf: each finding names its source' };
  }

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
      ...(format !== undefined ? { format } : {}),
      url,
      ...(token ? { token } : {}),
      batchSize: Number(batchSize),
      ...(values.source !== undefined ? { source: values.source } : {}),
      dryRun: values['dry-run'] ?? false,
      run: format !== 'ocsf' && !values['no-run'],
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
