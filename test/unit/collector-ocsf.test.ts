/**
 * `npm run collect -- --format ocsf` (scripts/lib/collector/ocsf-files.ts): scanners' OCSF
 * Detection Finding files, JSON arrays or NDJSON, checked whole in a first streamed pass and sent
 * in a second, as `scanner.finding` items whose ids make a re-import store nothing twice. Driven
 * through `main` with an injected fetch that stands in for `POST /api/evidence` and records
 * every request.
 */
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertFinding, type ScannerFindingInput } from '../../functions/src/common/ocsf-findings.ts';
import { main, parseCollectArgs, type CollectorIo } from '../../scripts/lib/collector.ts';
import { paths } from '../../scripts/lib/paths.ts';

const fixture = (cloud: 'aws' | 'azure') => join(paths.root, 'test', 'fixtures', 'prowler', `example_output_${cloud}.ocsf.json`);
const findingsOf = (cloud: 'aws' | 'azure') => JSON.parse(readFileSync(fixture(cloud), 'utf8')) as Record<string, unknown>[];
/** What ocsf-findings.ts makes of a finding: the items the collector must send for it, exactly. */
const itemsOf = (finding: unknown): ScannerFindingInput[] => {
  const converted = convertFinding(finding);
  if ('problem' in converted) throw new Error(converted.problem);
  return converted.items;
};
/** The 1-based lines a pretty-printed top-level array's elements start on. */
const elementLines = (text: string) =>
  text.split('\n').flatMap((line, index) => (line === '  {' || line.startsWith('  {"') ? [index + 1] : []));

interface Request {
  url: string;
  headers: Record<string, string>;
  items: ScannerFindingInput[];
}

interface Captured extends CollectorIo {
  output: string[];
  errors: string[];
  requests: Request[];
}

/**
 * Captured output, and a fetch that stands in for `POST /api/evidence` as the API answers items
 * with ids: `created` for an id it has not seen (201), `existing` for one it has (200 when all
 * are). `answer` overrides the status of the n-th request (0-based).
 */
function capture(known = new Set<string>(), answer: Record<number, number> = {}): Captured {
  const io: Captured = {
    output: [],
    errors: [],
    requests: [],
    out: (line) => io.output.push(line),
    err: (line) => io.errors.push(line),
    sleep: async () => {},
    fetch: async (url, init) => {
      const body = JSON.parse(String(init?.body)) as { items: ScannerFindingInput[] };
      io.requests.push({ url: String(url), headers: init?.headers as Record<string, string>, items: body.items });
      const status = answer[io.requests.length - 1];
      if (status) {
        return new Response(JSON.stringify({ code: 'unauthenticated', detail: 'Needs a token.' }), { status });
      }
      const results = body.items.map((item) => {
        const existing = known.has(item.id);
        known.add(item.id);
        return { id: item.id, status: existing ? 'existing' : 'created' };
      });
      const created = results.some((result) => result.status === 'created');
      return new Response(JSON.stringify({ items: results }), { status: created ? 201 : 200 });
    },
  };
  return io;
}

const url = 'http://evident.test';
const dir = mkdtempSync(join(tmpdir(), 'evident-collect-ocsf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};

describe('collect --format ocsf', () => {
  const aws = fixture('aws');
  const azure = fixture('azure');

  it('sends exactly the converted items of each Prowler file, ids and all, with no Idempotency-Key', async () => {
    const io = capture();
    expect(await main(['--format', 'ocsf', '--url', url, '--token', 't', aws, azure], {}, io)).toBe(0);

    expect(io.requests.map((request) => request.items.length)).toEqual([5, 5]);
    expect(io.requests[0]!.items).toEqual(findingsOf('aws').flatMap(itemsOf));
    expect(io.requests[1]!.items).toEqual(findingsOf('azure').flatMap(itemsOf));
    for (const request of io.requests) {
      expect(request.url).toBe(`${url}/api/evidence`);
      expect(request.headers).toEqual({
        'Content-Type': 'application/json',
        Accept: 'application/json, application/problem+json',
        Authorization: 'Bearer t',
      });
    }
    const sent = io.requests.flatMap((request) => request.items);
    expect(new Set(sent.map((item) => item.kind))).toEqual(new Set(['scanner.finding']));
    expect(new Set(sent.map((item) => item.id)).size).toBe(10);
    for (const item of sent) expect(item.id).toMatch(/^ocsf-[0-9a-f]{40}$/);
    expect(sent.map((item) => [item.subject, item.source, item.data.check])).toEqual([
      ['<resource_uid>', 'Prowler aws <account_uid>', 'accessanalyzer_enabled'],
      ['arn:aws:iam::<account_uid>:root', 'Prowler aws <account_uid>', 'account_maintain_current_contact_details'],
      [
        'arn:aws:iam::<account_uid>:root',
        'Prowler aws <account_uid>',
        'account_maintain_different_contact_details_to_security_billing_and_operations',
      ],
      ['arn:aws:iam::<account_uid>:root', 'Prowler aws <account_uid>', 'account_security_contact_information_is_registered'],
      [
        'arn:aws:iam::<account_uid>:root',
        'Prowler aws <account_uid>',
        'account_security_questions_are_registered_in_the_aws_account',
      ],
      ['AppInsights', 'Prowler azure <subscription_uid>', 'appinsights_ensure_is_configured'],
      ['<resource_uid>', 'Prowler azure <subscription_uid>', 'defender_additional_email_configured_with_a_security_contact'],
      ['<resource_uid>', 'Prowler azure <subscription_uid>', 'defender_auto_provisioning_log_analytics_agent_vms_on'],
      ['<resource_uid>', 'Prowler azure <subscription_uid>', 'defender_container_images_scan_enabled'],
      ['<resource_uid>', 'Prowler azure <subscription_uid>', 'defender_ensure_defender_for_app_services_is_on'],
    ]);
    const awsLines = elementLines(readFileSync(aws, 'utf8'));
    const azureLines = elementLines(readFileSync(azure, 'utf8'));
    expect(io.output).toEqual([
      `${aws} batch 1/1 (5 items, lines ${awsLines[0]}-${awsLines[4]}): 201, created 5, already present 0`,
      `${azure} batch 1/1 (5 items, lines ${azureLines[0]}-${azureLines[4]}): 201, created 5, already present 0`,
      'Summary: created 10, already present 0, rejected 0',
    ]);
    expect(io.errors).toEqual([]);
  });

  it('stores nothing twice: the same files again are all already present', async () => {
    const known = new Set<string>();
    const first = capture(known);
    expect(await main(['--format', 'ocsf', '--url', url, aws, azure], {}, first)).toBe(0);
    const again = capture(known);
    expect(await main(['--format', 'ocsf', '--url', url, aws, azure], {}, again)).toBe(0);
    expect(again.requests.map((request) => request.items)).toEqual(first.requests.map((request) => request.items));
    expect(again.output.at(-1)).toBe('Summary: created 0, already present 10, rejected 0');
  });

  it('reports every malformed finding at its line and sends nothing', async () => {
    const [one, two, three] = findingsOf('aws');
    const noCheck = { ...two, metadata: { ...(two!['metadata'] as object), event_code: undefined } };
    const elements = [JSON.stringify(one, null, 2), JSON.stringify(noCheck, null, 2), '{broken}', JSON.stringify(three, null, 2)];
    const path = file('malformed.ocsf.json', `[\n${elements.join(',\n')}\n]\n`);
    // After the "[" line, each element starts on the line after the one before ends.
    const startLine = (index: number) => 2 + elements.slice(0, index).reduce((sum, text) => sum + text.split('\n').length, 0);

    // In NDJSON an unclosed "{broken" runs to the end of the file.
    const lines = file('malformed.ndjson', `${JSON.stringify(one)}\n${JSON.stringify(noCheck)}\n{broken\n`);

    const io = capture();
    expect(await main(['--format', 'ocsf', '--url', url, aws, path, lines], {}, io)).toBe(1);
    expect(io.requests).toEqual([]);
    expect(io.output).toEqual([]);
    expect(io.errors).toEqual([
      `${path}:${startLine(1)}: the finding names no check: expected "metadata.event_code"`,
      `${path}:${startLine(2)}: not valid JSON: Expected property name or '}'`,
      `${lines}:2: the finding names no check: expected "metadata.event_code"`,
      `${lines}:3: the file ends inside the value that starts on line 3`,
      'collect: 4 problems in the input; nothing was sent.',
    ]);
  });

  it('refuses, at its line, a finding of more than 1,000 resources, as the API does, and sends nothing', async () => {
    const [first] = findingsOf('aws');
    const wide = { ...first, resources: Array.from({ length: 1001 }, (_, n) => ({ uid: `bucket-${n}` })) };
    const path = file('wide.ndjson', `${JSON.stringify(first)}\n${JSON.stringify(wide)}\n`);
    const io = capture();
    expect(await main(['--format', 'ocsf', '--url', url, path], {}, io)).toBe(1);
    expect(io.requests).toEqual([]);
    expect(io.errors).toEqual([
      `${path}:2: the finding names 1001 resources; at most 1000 are read per finding, split it`,
      'collect: 1 problem in the input; nothing was sent.',
    ]);
  });

  it("sends a finding's texts once, on its first resource's item, the others naming it", async () => {
    const [first] = findingsOf('aws');
    const several = { ...first, resources: [{ uid: 'bucket-a' }, { uid: 'bucket-b' }] };
    const path = file('several.ndjson', `${JSON.stringify(several)}\n`);
    const io = capture();
    expect(await main(['--format', 'ocsf', '--url', url, path], {}, io)).toBe(0);
    const [a, b] = io.requests[0]!.items;
    expect([a!.data.message !== undefined, a!.data.resourceCount, b!.data.message, b!.data.textsIn]).toEqual([
      true,
      2,
      undefined,
      a!.id,
    ]);
  });

  it('reads NDJSON, one finding a line, whatever the file is named', async () => {
    const findings = findingsOf('azure');
    const text = [JSON.stringify(findings[0]), '', ...findings.slice(1).map((finding) => JSON.stringify(finding))].join('\n');
    const path = file('azure-scan.json', `${text}\n`);
    const io = capture();
    expect(await main(['--format', 'ocsf', '--url', url, '--batch-size', '3', path], {}, io)).toBe(0);
    expect(io.requests.map((request) => request.items)).toEqual([
      findings.slice(0, 3).flatMap(itemsOf),
      findings.slice(3).flatMap(itemsOf),
    ]);
    expect(io.output).toEqual([
      `${path} batch 1/2 (3 items, lines 1-4): 201, created 3, already present 0`,
      `${path} batch 2/2 (2 items, lines 5-6): 201, created 2, already present 0`,
      'Summary: created 5, already present 0, rejected 0',
    ]);
  });

  it('reads through an injected readFile when no openStream is given', async () => {
    const io = capture();
    io.readFile = async (path) => {
      expect(path).toBe('scans/azure.json');
      return readFileSync(azure);
    };
    expect(await main(['--format', 'ocsf', '--url', url, 'scans/azure.json'], {}, io)).toBe(0);
    expect(io.requests.map((request) => request.items)).toEqual([findingsOf('azure').flatMap(itemsOf)]);
  });

  it('stops when a file changed between the check and the sending, and counts the rest as not sent', async () => {
    const findings = findingsOf('aws');
    const ndjsonOf = (list: unknown[]) => Buffer.from(list.map((finding) => JSON.stringify(finding)).join('\n'));
    const changed = [...findings.slice(0, 3), { ...findings[3], class_uid: 2003 }, findings[4]];
    let opened = 0;
    const io = capture();
    io.openStream = async function* () {
      yield opened++ === 0 ? ndjsonOf(findings) : ndjsonOf(changed);
    };
    expect(await main(['--format', 'ocsf', '--url', url, '--batch-size', '2', 'scan.json'], {}, io)).toBe(1);
    expect(io.requests.map((request) => request.items)).toEqual([findings.slice(0, 2).flatMap(itemsOf)]);
    expect(io.errors).toEqual([
      'scan.json:4: "class_uid" is 2003, not an OCSF Detection Finding (2004) (the file changed after it was checked)',
      'collect: stopped; the batches not sent can be sent by running the same command again.',
    ]);
    expect(io.output.at(-1)).toBe('Summary: created 2, already present 0, rejected 0, not sent 3');
  });

  it('prints the plan in a dry run, each item at its finding’s line, and sends nothing', async () => {
    const io = capture();
    expect(await main(['--format', 'ocsf', '--dry-run', '--batch-size', '4', aws], {}, io)).toBe(0);
    expect(io.requests).toEqual([]);
    const lines = elementLines(readFileSync(aws, 'utf8'));
    const items = findingsOf('aws').flatMap(itemsOf);
    const itemLine = (index: number) => `  ${aws}:${lines[index]} scanner.finding ${items[index]!.subject}`;
    expect(io.output).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${aws} batch 1/2 \\(4 items, lines ${lines[0]}-${lines[3]}\\): \\d+ bytes, no Idempotency-Key \\(the items carry ids\\)$`,
        ),
      ),
      ...[0, 1, 2, 3].map(itemLine),
      expect.stringMatching(new RegExp(`^${aws} batch 2/2 \\(1 item, line ${lines[4]}\\): `)),
      itemLine(4),
      'Dry run: 5 items in 2 batches from 1 file; nothing was sent.',
    ]);
  });

  it('accepts a file with no findings, and says so', async () => {
    const empty = file('empty.ocsf.json', '[]\n');
    const io = capture();
    expect(await main(['--format', 'ocsf', '--url', url, empty, aws], {}, io)).toBe(0);
    expect(io.requests).toHaveLength(1);
    expect(io.output[0]).toBe(`${empty}: no findings; nothing to send`);
    expect(io.output.at(-1)).toBe('Summary: created 5, already present 0, rejected 0');
  });

  it('counts the findings of a stopped run as not sent, for a re-run to send', async () => {
    const io = capture(new Set(), { 0: 401 });
    expect(await main(['--format', 'ocsf', '--url', url, '--batch-size', '2', aws, azure], {}, io)).toBe(1);
    expect(io.requests).toHaveLength(1);
    expect(io.errors.at(-1)).toBe('collect: stopped; the batches not sent can be sent by running the same command again.');
    expect(io.output).toEqual(['Summary: created 0, already present 0, rejected 2, not sent 8']);
  });

  it('exits 2 for a file it cannot read', async () => {
    const io = capture();
    expect(await main(['--format', 'ocsf', join(dir, 'missing.json')], {}, io)).toBe(2);
    expect(io.errors[0]).toMatch(/^collect: cannot read .*missing\.json: ENOENT/);
  });

  it.each([
    [
      ['--format', 'ocsf', '--source', 'prowler', 'a.json'],
      '--source cannot be used with --format ocsf: each finding names its source',
    ],
    [['--format', 'sarif', 'a.json'], '--format "sarif" is not one of: evidence, ocsf'],
  ])('refuses %j as a usage error, exit 2', async (argv, message) => {
    expect(parseCollectArgs(argv)).toEqual({ kind: 'usage', message });
    const io = capture();
    expect(await main(argv, {}, io)).toBe(2);
    expect(io.errors).toEqual([`collect: ${message}`, 'Run with --help for usage.']);
    expect(io.requests).toEqual([]);
  });

  it('keeps the evidence format the default, and describes both in --help', async () => {
    expect(parseCollectArgs(['a.json'])).toEqual({
      kind: 'run',
      options: { files: ['a.json'], url: 'http://127.0.0.1:5000', batchSize: 200, dryRun: false, run: true },
    });
    expect(parseCollectArgs(['--format', 'ocsf', 'a.json'])).toMatchObject({ options: { format: 'ocsf', run: false } });
    expect(parseCollectArgs(['--no-run', 'a.json'])).toMatchObject({ options: { run: false } });
    const io = capture();
    expect(await main(['--help'], {}, io)).toBe(0);
    expect(io.output.join('\n')).toMatch(/--format ocsf {8}each file is a scanner's OCSF Detection Findings/);
  });

  it('streams a large scan: 20,000 findings, sent batch by batch while the file is still being read', async () => {
    const [sample] = findingsOf('aws');
    const info = sample!['finding_info'] as Record<string, unknown>;
    const count = 20_000;
    const batchSize = 500;
    const path = join(dir, 'large.ocsf.json');
    const parts = Array.from({ length: count }, (_, index) =>
      JSON.stringify({ ...sample, finding_info: { ...info, uid: `prowler-finding-${index}` } }),
    );
    writeFileSync(path, `[\n${parts.join(',\n')}\n]\n`);

    const events: string[] = [];
    const io = capture();
    const fetch = io.fetch!;
    io.fetch = (input, init) => {
      events.push('send');
      return fetch(input, init);
    };
    io.openStream = async function* (name) {
      events.push('open');
      for await (const chunk of createReadStream(name, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
        events.push('read');
        yield chunk;
      }
    };
    expect(await main(['--format', 'ocsf', '--url', url, '--batch-size', String(batchSize), path], {}, io)).toBe(0);

    expect(io.requests).toHaveLength(Math.ceil(count / batchSize));
    expect(io.requests.every((request) => request.items.length === batchSize)).toBe(true);
    const ids = io.requests.flatMap((request) => request.items.map((item) => item.id));
    expect(new Set(ids).size).toBe(count);
    expect(io.requests[39]!.items.at(-1)!.data.findingUid).toBe(`prowler-finding-${count - 1}`);
    expect(io.output.at(-1)).toBe(`Summary: created ${count}, already present 0, rejected 0`);
    // Two passes, each reading the file in many chunks; the first batch goes out long before the second pass ends.
    expect(events.filter((event) => event === 'open')).toHaveLength(2);
    const secondPass = events.lastIndexOf('open');
    expect(events.indexOf('send')).toBeGreaterThan(secondPass);
    expect(events.indexOf('send')).toBeLessThan(events.lastIndexOf('read'));
    expect(events.filter((event) => event === 'read').length).toBeGreaterThan(100);
  }, 60_000);
});
