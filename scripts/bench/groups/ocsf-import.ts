/**
 * Importing a 50,000-finding OCSF scan: reading the file Prowler writes (`json-ocsf`, a
 * pretty-printed top-level array) and turning it into `scanner.finding` evidence items, as the
 * product does it (functions/src/evidence/json-values.ts, then ocsf-findings.ts): a read stream
 * split into one element at a time, each parsed and converted. Neither network nor store: the
 * items are counted, not kept. The baseline, in the same run, is the obvious way to read the same
 * file, `JSON.parse(readFileSync(file, 'utf8'))` and one walk of the array.
 *
 * Two figures, each the median of a few passes, each pass in a fresh process
 * (scripts/bench/ocsf-import-worker.ts, which explains how its peak heap is measured), so neither
 * pass's heap carries the other's:
 *
 * - throughput: the import's time for the file beside the baseline's (target ≤ 2×, that is at
 *   least half JSON.parse's findings/s; both rates are printed in the row). The import does more
 *   (converting, hashing each item's id), so it is allowed to be slower, not much slower.
 * - peak heap (target ≤ 0.5×): the point of streaming, that a 100 MB scan must not need the
 *   whole file's text and the whole parsed array in the heap at once.
 *
 * The file is generated from Prowler's own sample output (test/fixtures/prowler/, 10 findings),
 * each copy given its own account, region, resource, finding uid, time and status, so that every
 * finding is distinct and the file the same on every run.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paths } from '../../lib/paths.ts';
import type { Comparison } from '../comparison.ts';
import type { BenchGroup } from '../group.ts';
import { median } from '../median.ts';
import type { OcsfPass } from '../ocsf-import-worker.ts';

const findingCount = 50_000;
/** Passes of each kind; the figures are their medians. */
const passes = 3;
const worker = fileURLToPath(new URL('../ocsf-import-worker.ts', import.meta.url));
const samples = ['example_output_aws.ocsf.json', 'example_output_azure.ocsf.json'];
const statuses = ['PASS', 'FAIL', 'MANUAL'] as const;
const awsRegions = ['us-east-1', 'eu-west-1', 'eu-central-1', 'ap-southeast-2', 'us-west-2'];

type Finding = {
  time: number;
  status_code: string;
  metadata: { event_code: string };
  finding_info: { uid: string; created_time: number };
  resources: { uid: string; name: string; region: string; group?: { name?: string }; type: string }[];
  cloud: { provider: string; region: string; account: { uid: string } };
} & Record<string, unknown>;

/** Prowler's `time_dt`: ISO 8601 to the microsecond, no zone. */
const isoSeconds = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19)}.000000`;

/** The `index`th finding of the file: a copy of a sample, made a resource and a finding of its own. */
function findingOf(template: Finding, index: number, copy: number): string {
  const finding = structuredClone(template);
  const provider = finding.cloud.provider;
  const account =
    provider === 'aws' ? String(210987654321 + (copy % 4)) : `6c1e5a2b-0000-4000-8000-${String(copy % 4).padStart(12, '0')}`;
  const region = provider === 'aws' ? awsRegions[copy % awsRegions.length]! : 'global';
  const name = `bench-${String(copy).padStart(5, '0')}`;
  const resource = finding.resources[0]!;
  const uid =
    provider === 'aws'
      ? `arn:aws:${resource.group?.name ?? 'service'}:${region}:${account}:resource/${name}`
      : `/subscriptions/${account}/resourceGroups/bench/providers/${resource.type}/${name}`;
  Object.assign(resource, { uid, name, region });
  finding.cloud.account.uid = account;
  finding.cloud.region = region;
  // A scan takes a while: a second for every 100 findings after the sample's time.
  finding.time = template.time + Math.floor(index / 100);
  finding.finding_info.created_time = finding.time;
  Object.assign(finding, { time_dt: isoSeconds(finding.time) });
  Object.assign(finding.finding_info, { created_time_dt: isoSeconds(finding.time) });
  finding.status_code = statuses[copy % statuses.length]!;
  finding.finding_info.uid = `prowler-${provider}-${finding.metadata.event_code}-${account}-${region}-${name}`;
  // The anonymised samples' placeholders in the prose (messages, metadata), filled in as a real scan would have them.
  const text = JSON.stringify(finding, null, 2).replace(
    /<(account_uid|subscription_uid|region|resource_name|resource_uid|resource_arn|finding_uid)>/g,
    (_, field: string) =>
      field === 'account_uid' || field === 'subscription_uid'
        ? account
        : field === 'region'
          ? region
          : field === 'resource_name'
            ? name
            : field === 'finding_uid'
              ? finding.finding_info.uid
              : uid,
  );
  // An element of the top-level array, indented as Prowler's file indents it.
  return text.replace(/^/gm, '  ');
}

/** Writes the scan as Prowler does, a batch of findings at a time; its size in bytes. */
function writeScan(file: string, count: number): number {
  const templates = samples.flatMap(
    (name) => JSON.parse(readFileSync(join(paths.root, 'test/fixtures/prowler', name), 'utf8')) as Finding[],
  );
  const fd = openSync(file, 'w');
  let bytes = 0;
  const write = (text: string) => (bytes += writeSync(fd, text));
  try {
    write('[\n');
    for (let start = 0; start < count; start += 1000) {
      const batch: string[] = [];
      for (let index = start; index < Math.min(start + 1000, count); index++) {
        batch.push(findingOf(templates[index % templates.length]!, index, Math.floor(index / templates.length)));
      }
      write(`${start === 0 ? '' : ',\n'}${batch.join(',\n')}`);
    }
    write('\n]\n');
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** One pass in a fresh Node (the bench's own, which runs the .ts modules from source). */
function runPass(mode: 'import' | 'parse', file: string): Promise<OcsfPass> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', worker, mode, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`the ${mode} pass failed (${signal ?? `exit ${code}`})`));
      const pass = JSON.parse(output.trim().split('\n').at(-1)!) as OcsfPass;
      if (pass.problems > 0 || pass.findings !== findingCount) {
        return reject(new Error(`the ${mode} pass read ${pass.findings} findings with ${pass.problems} problems`));
      }
      resolve(pass);
    });
  });
}

/** The medians of each figure over the passes. */
function summary(runs: OcsfPass[]) {
  return {
    findingsPerSecond: median(runs.map((run) => run.findings / (run.ms / 1000))),
    seconds: median(runs.map((run) => run.ms / 1000)),
    peakHeapMiB: median(runs.map((run) => run.peakHeapMiB)),
    peakRssMiB: median(runs.map((run) => run.peakRssMiB)),
    items: runs[0]!.items,
  };
}

const rate = (perSecond: number) => `${Math.round(perSecond).toLocaleString('en')} findings/s`;

export const ocsfImportGroup: BenchGroup = {
  name: 'ocsf',
  heading: () =>
    `OCSF import: a ${findingCount.toLocaleString('en')}-finding Prowler scan read and converted to evidence items (no network, no store; a fresh process per pass)`,
  async measure() {
    const dir = mkdtempSync(join(tmpdir(), 'evident-ocsf-bench-'));
    try {
      const file = join(dir, 'prowler-output.ocsf.json');
      const mb = writeScan(file, findingCount) / 1e6;
      console.log(`  ${findingCount.toLocaleString('en')} findings, ${mb.toFixed(1)} MB of json-ocsf`);
      const imports: OcsfPass[] = [];
      const parses: OcsfPass[] = [];
      for (let pass = 0; pass < passes; pass++) {
        parses.push(await runPass('parse', file));
        imports.push(await runPass('import', file));
      }
      const streamed = summary(imports);
      const parsed = summary(parses);
      if (streamed.items !== parsed.items)
        throw new Error(`the import made ${streamed.items} items for ${parsed.items} resources`);
      return [
        {
          figure: `OCSF import: ${findingCount.toLocaleString('en')} findings, ${mb.toFixed(0)} MB → ${streamed.items.toLocaleString('en')} items — time (${rate(streamed.findingsPerSecond)})`,
          measured: streamed.seconds,
          baselineName: `JSON.parse + one walk (${rate(parsed.findingsPerSecond)})`,
          baseline: parsed.seconds,
          unit: 's',
          target: { atMost: 2 },
        },
        {
          figure: `OCSF import: ${mb.toFixed(0)} MB — peak heap (process peak RSS ${Math.round(streamed.peakRssMiB)} MiB)`,
          measured: streamed.peakHeapMiB,
          baselineName: `JSON.parse + one walk (RSS ${Math.round(parsed.peakRssMiB)} MiB)`,
          baseline: parsed.peakHeapMiB,
          unit: 'MiB',
          target: { atMost: 0.5 },
        },
      ] satisfies Comparison[];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
