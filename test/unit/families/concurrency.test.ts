/**
 * Nothing is lost when writers race. Three independent instances of each family (separate
 * caches and in-flight maps, as separate Cloud Functions instances would have) serve over real
 * HTTP on loopback and share one local-folder store; every request below is in flight at once.
 * (Through the emulators the same races run with fewer requests in flight, because the
 * functions emulator starts one process per concurrent request.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvidenceFamily } from '../../../functions/src/families/evidence.ts';
import { createReportFamily } from '../../../functions/src/families/report.ts';
import { createSubmissionsFamily } from '../../../functions/src/families/submissions.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { everyItem } from '../../support/every-item.ts';
import { serve, type Served } from '../../support/serve.ts';

const dir = mkdtempSync(join(tmpdir(), 'evident-concurrency-'));
const store = new LocalFolderStore(dir);
const catalog = compileCatalogSources(paths.catalog);
const now = new Date('2026-11-21T09:00:00Z');
const options = (family: string) => ({
  store: async () => store,
  catalog: () => catalog,
  now: () => now,
  timeZone: () => 'UTC',
  loadTable: tableOf(family),
  verifyToken: fakeVerifier(),
});

const instances: Record<'evidence' | 'report' | 'submissions', Served[]> = { evidence: [], report: [], submissions: [] };
const pick = (family: keyof typeof instances, n: number) => instances[family][n % 3]!.url;

beforeAll(async () => {
  setMode('public');
  for (let n = 0; n < 3; n++) {
    instances.evidence.push(await serve(createEvidenceFamily(options('evidence'))));
    instances.report.push(await serve(createReportFamily(options('report'))));
    instances.submissions.push(await serve(createSubmissionsFamily(options('submissions'))));
  }
});

afterAll(async () => {
  for (const served of Object.values(instances).flat()) await served.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('concurrent writers', () => {
  it('100 concurrent ingests across three instances are all stored', async () => {
    const ids = Array.from({ length: 100 }, (_, n) => `race-${n}`);
    const responses = await Promise.all(
      ids.map((id, n) =>
        fetch(`${pick('evidence', n)}/api/evidence`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            id,
            kind: 'vuln.scan',
            source: 'race',
            subject: `asset-${n}`,
            collectedAt: '2026-11-21T08:00:00Z',
            data: { scanner: 'trivy', openCritical: 0, openHigh: 0, openMedium: n, oldestCriticalDays: 0, oldestHighDays: 0 },
          }),
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(ids.map(() => 201));
    const stored = (await everyItem(store)).map((item) => item.id);
    expect(stored.filter((id) => id.startsWith('race-')).sort()).toEqual([...ids].sort());
    const claims = (await store.list('evidence-ids/race-')).items.map((item) => item.name);
    expect(claims.sort()).toEqual(ids.map((id) => `evidence-ids/${id}.json`).sort());
  });

  it('the same item sent 30 times at once is stored once, and every sender hears it is there', async () => {
    const body = JSON.stringify({
      id: 'same-item',
      kind: 'tls.endpoint',
      source: 'race',
      subject: 'same.example.com',
      collectedAt: '2026-11-21T08:00:00Z',
      data: { minTlsVersion: '1.3', hsts: true, certificateDaysLeft: 50, weakCiphers: false },
    });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        fetch(`${pick('evidence', n)}/api/evidence`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }),
      ),
    );
    const outcomes = await Promise.all(
      responses.map(async (response) => ((await response.json()) as { items: { status: string }[] }).items[0]!.status),
    );
    expect(outcomes.filter((status) => status === 'created')).toHaveLength(1);
    expect(outcomes.filter((status) => status === 'existing')).toHaveLength(29);
    expect((await everyItem(store)).filter((item) => item.id === 'same-item')).toHaveLength(1);
    expect((await store.list('evidence-ids/same-item')).items).toHaveLength(1);
  });

  it('100 concurrent submissions across three instances are all stored with their files and evidence', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, n) => {
        const form = new FormData();
        form.append('controls', 'PPL-06');
        form.append('statement', `statement ${n}`);
        form.append('attachments', new Blob([`file ${n}`], { type: 'text/plain' }), `f${n}.txt`);
        return fetch(`${pick('submissions', n)}/api/submissions`, { method: 'POST', body: form });
      }),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 201));
    const ids = await Promise.all(responses.map(async (response) => ((await response.json()) as { id: string }).id));
    expect(new Set(ids).size).toBe(100);
    const records = (await store.list('submissions/')).items.map((item) => item.name);
    const files = (await store.list('attachments/')).items.map((item) => item.name);
    const evidence = new Set((await everyItem(store)).map((item) => item.id));
    for (const id of ids) {
      expect(records).toContain(`submissions/${id}.json`);
      expect(files).toContain(`attachments/${id}/0`);
      expect(evidence.has(id)).toBe(true);
    }
  });

  it("50 concurrent first reads of today's report across three instances store one report and all get its bytes", async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, (_, n) => fetch(`${pick('report', n)}/api/report/today`)));
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    expect(new Set(bodies).size).toBe(1);
    expect((await store.list('reports/')).items.map((item) => item.name)).toEqual(['reports/day=2026-11-21/report.json']);
    expect(bodies[0]).toBe((await store.read('reports/day=2026-11-21/report.json')).data.toString('utf8'));
  });
});
