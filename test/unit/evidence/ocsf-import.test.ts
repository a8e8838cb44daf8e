/**
 * `POST /api/evidence/imports/ocsf`: a scanner's file imported whole or not at all, each refusal naming
 * the finding's line, and the same scan imported again storing nothing twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { maxOcsfImportBytes } from '@evident/contract';
import { createEvidenceFamily } from '../../../functions/src/families/evidence.ts';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { serve, type Served } from '../../support/serve.ts';

const catalog = compileCatalogSources(paths.catalog);
const fixtures = join(import.meta.dirname, '../../fixtures/prowler');
const aws = readFileSync(join(fixtures, 'example_output_aws.ocsf.json'), 'utf8');
const azure = JSON.parse(readFileSync(join(fixtures, 'example_output_azure.ocsf.json'), 'utf8')) as Record<string, unknown>[];

let store: RecordingStore;
let served: Served;

beforeAll(async () => {
  setMode('public');
  vi.spyOn(logs, 'evidenceIngested').mockImplementation(() => undefined);
  store = new RecordingStore(new MemoryStore());
  served = await serve(
    createEvidenceFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => new Date('2025-02-15T09:00:00Z'),
      timeZone: () => 'UTC',
      loadTable: tableOf('evidence'),
      verifyToken: fakeVerifier(),
    }),
  );
});

afterAll(async () => {
  await served.close();
  vi.restoreAllMocks();
});

const importScan = (body: string | Uint8Array<ArrayBuffer>, contentType = 'application/json') =>
  fetch(`${served.url}/api/evidence/imports/ocsf`, { method: 'POST', headers: { 'Content-Type': contentType }, body });

describe('importing a scan', () => {
  it("stores each finding of Prowler's json-ocsf file once, and nothing again when the same file comes back", async () => {
    const first = await importScan(aws);
    expect([first.status, await first.json()]).toEqual([201, { findings: 5, items: 5, created: 5, existing: 0 }]);
    const again = await importScan(aws);
    expect([again.status, await again.json()]).toEqual([200, { findings: 5, items: 5, created: 0, existing: 5 }]);
    const listed = (await (await fetch(`${served.url}/api/evidence?kind=scanner.finding`)).json()) as {
      items: { subject: string; data: { check: string; status: string } }[];
    };
    expect(listed.items.map((item) => [item.data.check, item.data.status]).sort()).toEqual([
      ['accessanalyzer_enabled', 'FAIL'],
      ['account_maintain_current_contact_details', 'MANUAL'],
      ['account_maintain_different_contact_details_to_security_billing_and_operations', 'FAIL'],
      ['account_security_contact_information_is_registered', 'MANUAL'],
      ['account_security_questions_are_registered_in_the_aws_account', 'MANUAL'],
    ]);
  });

  it('takes one finding per line as NDJSON', async () => {
    const response = await importScan(azure.map((finding) => JSON.stringify(finding)).join('\n'), 'application/x-ndjson');
    expect([response.status, await response.json()]).toEqual([201, { findings: 5, items: 5, created: 5, existing: 0 }]);
  });

  it('answers an empty scan with nothing stored', async () => {
    const response = await importScan('[]');
    expect([response.status, await response.json()]).toEqual([200, { findings: 0, items: 0, created: 0, existing: 0 }]);
  });
});

describe('a scan that cannot be imported', () => {
  it('is refused whole with every finding at fault at its line and index, storing nothing', async () => {
    const { metadata: _metadata, ...noCheck } = azure[1]!;
    const body = `[\n${JSON.stringify(azure[0])},\n${JSON.stringify(noCheck)},\n${JSON.stringify(azure[2])},\n{"class_uid": 2004, broken}\n]`;
    store.reset();
    const response = await importScan(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      expectedProblem(
        'invalid_request',
        '2 findings of the file cannot be imported; see errors. Nothing was stored.',
        '/api/evidence/imports/ocsf',
        response.headers.get('x-request-id')!,
        {
          errors: [
            { in: 'body', pointer: '/1', line: 3, message: 'the finding names no check: expected "metadata.event_code"' },
            { in: 'body', pointer: '/3', line: 5, message: 'not valid JSON: Expected double-quoted property name' },
          ],
        },
      ),
    );
    expect(store.of('create')).toEqual([]);
  });

  it('is refused when it is not a Detection Finding, or its array is cut short', async () => {
    const other = await importScan(JSON.stringify([{ ...azure[0], class_uid: 2001 }]));
    expect(((await other.json()) as { detail: string }).detail).toBe(
      'Line 1 of the file cannot be imported: "class_uid" is 2001, not an OCSF Detection Finding (2004). Nothing was stored.',
    );
    const cut = await importScan(`[${JSON.stringify(azure[0])},\n${JSON.stringify(azure[1]).slice(0, 200)}`);
    expect(((await cut.json()) as { errors: unknown[] }).errors).toEqual([
      { in: 'body', pointer: '', line: 2, message: 'the file ends inside the value that starts on line 2' },
    ]);
  });

  it('is refused as another media type (415) or over the size limit (413)', async () => {
    const text = await importScan(aws, 'text/plain');
    expect([text.status, ((await text.json()) as { code: string }).code]).toEqual([415, 'unsupported_media_type']);
    const huge = await importScan(new Uint8Array(maxOcsfImportBytes + 1).fill(0x20));
    expect([huge.status, ((await huge.json()) as { code: string }).code]).toEqual([413, 'payload_too_large']);
  });
});

/** A minimal Detection Finding on `resources`, its texts `text` long. */
function finding(uid: string, resources: readonly object[], extra: Record<string, unknown> = {}) {
  return {
    class_uid: 2004,
    metadata: { event_code: 's3_bucket_default_encryption', product: { name: 'Prowler' } },
    status_code: 'FAIL',
    finding_info: { uid },
    time: 1739539623,
    resources,
    ...extra,
  };
}
const cheap = (count: number, prefix = 'r') => Array.from({ length: count }, (_, index) => ({ uid: `${prefix}${index}` }));
const evidenceWrites = () => store.of('create').filter((name) => !name.startsWith('evidence-keys/'));

describe('a scan that makes more evidence than one import stores', () => {
  it("refuses the issue's request — one finding, 6,000 resources, 4,000-emoji texts — at its line, storing nothing", async () => {
    const emoji = '\u{1F525}'.repeat(4000);
    const body = JSON.stringify([
      finding('amplified', cheap(6000), { status_detail: emoji, finding_info: { uid: 'amplified', title: emoji } }),
    ]);
    store.reset();
    const response = await importScan(body);
    expect([response.status, await response.json()]).toEqual([
      400,
      expectedProblem(
        'invalid_request',
        'Line 1 of the file cannot be imported: the finding names 6000 resources; at most 1000 are read per finding, split it. Nothing was stored.',
        '/api/evidence/imports/ocsf',
        response.headers.get('x-request-id')!,
        {
          errors: [
            {
              in: 'body',
              pointer: '/0',
              line: 1,
              message: 'the finding names 6000 resources; at most 1000 are read per finding, split it',
            },
          ],
        },
      ),
    ]);
    expect(store.of('create')).toEqual([]);
  });

  it('answers a finding of more than 125,000 resources with a 400 problem, not a RangeError', async () => {
    store.reset();
    const response = await importScan(JSON.stringify([finding('huge', cheap(130_000))]));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([
      {
        in: 'body',
        pointer: '/0',
        line: 1,
        message: 'the finding names 130000 resources; at most 1000 are read per finding, split it',
      },
    ]);
    expect(store.of('create')).toEqual([]);
  });

  it('refuses more than 5,000 items with 413 scan_too_large at the finding that crossed it, storing nothing', async () => {
    const findings = Array.from({ length: 6 }, (_, n) => JSON.stringify(finding(`wide-${n}`, cheap(1000, `w${n}-`))));
    store.reset();
    const response = await importScan(findings.join('\n'), 'application/x-ndjson');
    expect([response.status, await response.json()]).toEqual([
      413,
      expectedProblem(
        'scan_too_large',
        'The file makes more than 5,000 evidence items (one per finding and resource), the most one import stores; ' +
          'reading stopped at the finding on line 6. Nothing was stored. Split the file, or send it with ' +
          '`npm run collect -- --format ocsf`.',
        '/api/evidence/imports/ocsf',
        response.headers.get('x-request-id')!,
      ),
    ]);
    expect(store.of('create')).toEqual([]);
  });

  it('refuses more than 5,000 findings with 413 scan_too_large', async () => {
    const findings = Array.from({ length: 5001 }, (_, n) => JSON.stringify(finding(`many-${n}`, [{ uid: 'bucket' }])));
    store.reset();
    const response = await importScan(findings.join('\n'), 'application/x-ndjson');
    expect([response.status, ((await response.json()) as { detail: string }).detail]).toEqual([
      413,
      'The file makes more than 5,000 findings, the most one import stores; reading stopped at the finding on line ' +
        '5001. Nothing was stored. Split the file, or send it with `npm run collect -- --format ocsf`.',
    ]);
    expect(store.of('create')).toEqual([]);
  });

  it('refuses items of more than 16 MiB as JSON with 413 scan_too_large, however small the file', async () => {
    // A hundred requirements in each framework, which every resource's item carries, and long resource fields.
    const compliance = {
      SOC2: Array.from({ length: 100 }, (_, n) => `cc_${1 + (n % 9)}_${1 + Math.floor(n / 9)}`),
      'ISO27001-2022': Array.from({ length: 100 }, (_, n) => `A.${5 + (n % 4)}.${1 + Math.floor(n / 4)}`),
      'NIST-800-53-Revision-5': Array.from({ length: 100 }, (_, n) => `ac_${1 + (n % 25)}_${1 + Math.floor(n / 25)}`),
    };
    const findings = Array.from({ length: 5 }, (_, n) =>
      JSON.stringify(
        finding(
          `mapped-${n}`,
          cheap(1000, `m${n}-`.padEnd(200, 'x')).map((resource) => ({
            ...resource,
            region: 'r'.repeat(100),
            type: 't'.repeat(200),
          })),
          { unmapped: { compliance } },
        ),
      ),
    );
    const body = findings.join('\n');
    expect(body.length).toBeLessThan(3e6);
    store.reset();
    const response = await importScan(body, 'application/x-ndjson');
    expect([response.status, ((await response.json()) as { detail: string }).detail]).toEqual([
      413,
      'The file makes more than 16,777,216 bytes of evidence items, the most one import stores; reading stopped at ' +
        'the finding on line 5. Nothing was stored. Split the file, or send it with `npm run collect -- --format ocsf`.',
    ]);
    expect(store.of('create')).toEqual([]);
  });
});

describe('an import is never partial', () => {
  it('refuses a file whose 601st finding repeats the 551st, storing none of the 600 before it', async () => {
    const findings = Array.from({ length: 600 }, (_, n) => finding(`once-${n}`, [{ uid: `bucket-${n}` }]));
    const body = JSON.stringify([...findings, findings[550]]);
    store.reset();
    const response = await importScan(body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([
      {
        in: 'body',
        pointer: '/600',
        line: 1,
        message: 'the finding repeats, for bucket-550, the finding on line 1',
      },
    ]);
    expect(evidenceWrites()).toEqual([]);
  });

  it('refuses a file one of whose later items conflicts with a stored one, storing none of it', async () => {
    const findings = Array.from({ length: 600 }, (_, n) => finding(`conflict-${n}`, [{ uid: `bucket-${n}` }]));
    // The 551st finding stored before with another status: its id is taken by other content.
    expect((await importScan(JSON.stringify([{ ...findings[550], status_code: 'PASS' }]))).status).toBe(201);
    store.reset();
    const response = await importScan(JSON.stringify(findings));
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe('evidence_conflict');
    expect(evidenceWrites()).toEqual([]);
  });
});
