/**
 * A clean start, as `npm start -- --empty` gives one and docs/getting-started.md walks through
 * it: the catalog and no evidence, then one's own evidence sent with the collector, then an
 * analysis published as today's report. scripts/test.ts runs this file alone, on emulators
 * started over an empty store (`EVIDENT_TEST_START=empty`); in the other runs it is skipped.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { paths } from '../../scripts/lib/paths.ts';
import { api } from '../support/api.ts';
import { until } from '../support/until.ts';

interface Report {
  date: string;
  summary: { score: number; controls: number; counts: Record<string, number> };
  controls: { id: string; status: string; findings: { message: string }[] }[];
}

const catalog = JSON.parse(readFileSync(join(paths.functionsGenerated, 'catalog.json'), 'utf8')) as { controls: unknown[] };
const folder = mkdtempSync(join(tmpdir(), 'evident-own-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The guide's two users, collected now: Bob is an administrator with no second factor at all. */
function myUsers(): string {
  const collectedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const user = (name: string, admin: boolean, key: boolean) => ({
    kind: 'idp.user',
    source: 'my-idp',
    subject: `${name}@yourcompany.com`,
    collectedAt,
    data: {
      email: `${name}@yourcompany.com`,
      active: true,
      mfaEnabled: key,
      phishingResistantMfa: key,
      admin,
      lastLoginDaysAgo: 0,
      employmentStatus: 'active',
    },
  });
  const file = join(folder, 'my-users.ndjson');
  writeFileSync(
    file,
    [user('alice', true, true), user('bob', true, false)].map((item) => JSON.stringify(item)).join('\n') + '\n',
  );
  return file;
}

describe.runIf(process.env['EVIDENT_TEST_START'] === 'empty')('a clean start, to a first report of one’s own', () => {
  it('has the catalog and no evidence, and today’s report misses every control', async () => {
    expect(await api.get('/api/evidence')).toEqual({ items: [], hasMore: false });
    const report = await api.get<Report>('/api/report/today');
    expect(report.summary.controls).toBe(catalog.controls.length);
    expect(report.summary.counts).toEqual({
      passing: 0,
      failing: 0,
      stale: 0,
      missing: catalog.controls.length,
      not_applicable: 0,
    });
  });

  it('takes the collector’s evidence, and an analysis published as today’s report judges it', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(paths.root, 'scripts', 'collect.ts'), myUsers()]);
    expect(stdout.trim().split('\n').at(-1)).toBe('Summary: created 2, already present 0, rejected 0');

    const run = await api.post<{ id: string }>('/api/analyses', { publish: true }, 202);
    await until(
      `analysis ${run.id} to end`,
      () => api.get<{ state: string }>(`/api/analyses/${run.id}`),
      (analysis) => analysis.state !== 'queued' && analysis.state !== 'running',
    ).then((analysis) => expect(analysis.state).toBe('succeeded'));

    const report = await api.get<Report>('/api/report/today');
    const judged = report.controls.filter((control) => control.status !== 'missing');
    expect(judged.map(({ id, status }) => [id, status])).toEqual([
      ['IAM-01', 'failing'],
      ['IAM-02', 'failing'],
      ['IAM-03', 'passing'],
      ['IAM-04', 'passing'],
    ]);
    expect(judged[1]!.findings.map((finding) => finding.message)).toContain(
      'bob@yourcompany.com holds an administrator role without a phishing-resistant factor enrolled.',
    );
  });
});
