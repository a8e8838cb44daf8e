/**
 * The OCSF import's limits through Hosting on the emulators (issue 29): the request that made one
 * finding of 6,000 resources into 6,000 items of 48 KB is refused at its line, a file that makes
 * more items than one import stores is refused whole, and neither stores anything.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import { mode } from '../support/emulator.ts';
import { expectedProblem } from '../support/problems.ts';

const run = Date.now().toString(36);
const emoji = '\u{1F525}'.repeat(4000);
const finding = (uid: string, resources: readonly string[], extra: Record<string, unknown> = {}) => ({
  class_uid: 2004,
  metadata: { event_code: 's3_bucket_default_encryption', product: { name: 'Prowler' } },
  status_code: 'FAIL',
  finding_info: { uid },
  time: Math.floor(Date.now() / 1000) - 3600,
  resources: resources.map((uid) => ({ uid })),
  ...extra,
});
const resources = (count: number, prefix: string) => Array.from({ length: count }, (_, n) => `${prefix}-${n}`);

async function importScan(body: string, contentType = 'application/json') {
  const answer = await api.call('/api/evidence/imports/ocsf', { body, headers: { 'Content-Type': contentType } });
  return { ...answer, requestId: answer.headers.get('x-request-id')! };
}

const storedFor = async (subject: string) =>
  (await api.get<{ items: unknown[] }>(`/api/evidence?${new URLSearchParams({ subject })}`)).items;

describe(`the OCSF import's limits, ${mode} mode`, () => {
  it("refuses the issue's request, one finding naming 6,000 resources with 4,000-emoji texts, and stores nothing", async () => {
    const subjects = resources(6000, `amplified-${run}`);
    const body = JSON.stringify([
      finding(`amplified-${run}`, subjects, { status_detail: emoji, finding_info: { uid: `amplified-${run}`, title: emoji } }),
    ]);
    const message = 'the finding names 6000 resources; at most 1000 are read per finding, split it';
    const answer = await importScan(body);
    expect([answer.status, answer.body]).toEqual([
      400,
      expectedProblem(
        'invalid_request',
        `Line 1 of the file cannot be imported: ${message}. Nothing was stored.`,
        '/api/evidence/imports/ocsf',
        answer.requestId,
        { errors: [{ in: 'body', pointer: '/0', line: 1, message }] },
      ),
    ]);
    expect(await storedFor(subjects[0]!)).toEqual([]);
  });

  it('refuses a file of 6 findings × 1,000 resources, more items than one import stores, and stores nothing', async () => {
    const findings = Array.from({ length: 6 }, (_, n) =>
      JSON.stringify(finding(`wide-${run}-${n}`, resources(1000, `wide-${run}-${n}`))),
    );
    const answer = await importScan(findings.join('\n'), 'application/x-ndjson');
    expect([answer.status, answer.body]).toEqual([
      413,
      expectedProblem(
        'scan_too_large',
        'The file makes more than 5,000 evidence items (one per finding and resource), the most one import stores; ' +
          'reading stopped at the finding on line 6. Nothing was stored. Split the file, or send it with ' +
          '`npm run collect -- --format ocsf`.',
        '/api/evidence/imports/ocsf',
        answer.requestId,
      ),
    ]);
    expect(await storedFor(`wide-${run}-0-0`)).toEqual([]);
  });
});
