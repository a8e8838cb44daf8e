/**
 * Audit packages built in the background, through the audit family over the demo history: asked
 * for (202, queued), built by the worker's code in process (in parts smaller than production's,
 * so ranges cross them), followed through their events, downloaded whole and in ranges; the same
 * period asked again reuses the package until a report changes; bad requests and early downloads
 * are refused with problems; a lapsed package disappears and its objects are deleted; a build
 * retried after a lost attempt stores its own parts.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import { buildPackage } from '../../../functions/src/audit/build-package.ts';
import { verifyPackage } from '../../../functions/src/audit/verify-package.ts';
import { AuditPackageLog, PackageBuilds, partName } from '../../../functions/src/audit/package-builds.ts';
import { createAuditFamily } from '../../../functions/src/families/audit.ts';
import { servicesFrom, type Services } from '../../../functions/src/families/services.ts';
import { logs } from '../../../functions/src/logs.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { listNames } from '../../../functions/src/storage/object-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { seedDemoHistory } from '../../../scripts/lib/demo/seed.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { demoSeedDependencies } from '../../support/demo-seed.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { serve, type Served } from '../../support/serve.ts';
import { unzip } from '../../support/unzip.ts';

const catalog = compileCatalogSources(paths.catalog);
const today = '2026-11-21';
const from = '2026-11-15';
const to = '2026-11-20';
/** Small parts, so a demo package spans several and ranges cross their edges. */
const testPartBytes = 64 * 1024;
const memory = new MemoryStore();
const clock = new Date(`${today}T12:00:00Z`);
const options = { store: async () => memory, catalog: () => catalog, now: () => clock, timeZone: () => 'UTC' };
const services = servicesFrom(options);
const queued: string[] = [];
let queueFails = false;
let served: Served;

const family = () =>
  createAuditFamily({
    ...options,
    verifyToken: fakeVerifier(),
    loadTable: tableOf('audit'),
    queue: () => ({
      enqueue: async (id) => {
        if (queueFails) throw new Error('queue down');
        queued.push(id);
      },
    }),
  });

/** What the worker does with a queued package, in process. */
async function runQueued(): Promise<void> {
  const s = (await services()) as Services;
  const builds = new PackageBuilds(s.store, () => 14);
  for (const id of queued.splice(0)) await buildPackage(s, (await builds.find(id, clock))!, testPartBytes);
}

const post = (body: unknown) =>
  fetch(`${served.url}/api/audit/packages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${served.url}${path}`, { headers });
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  setMode('public');
  await seedDemoHistory(demoSeedDependencies(memory, compileCatalog(catalog)), {
    today,
    timeZone: 'UTC',
    now: new Date(`${today}T09:00:00Z`),
  });
  served = await serve(family());
}, 120_000);

afterAll(() => served.close());

describe('an audit package built in the background', () => {
  let id: string;
  let whole: Buffer;
  let file: { name: string; size: number; sha256: string };

  beforeAll(async () => {
    const asked = await post({ from, to });
    expect(asked.status).toBe(202);
    const body = (await asked.json()) as { id: string; state: string; links: { self: string } };
    id = body.id;
    expect(asked.headers.get('location')).toBe(`/api/audit/packages/${id}`);
    expect(body.state).toBe('queued');
    expect(queued).toEqual([id]);
    await runQueued();
  });

  it('is named for its period and reports, and ready once built, with the zip\u2019s name, size and SHA-256', async () => {
    expect(id).toMatch(/^pkg-20261115-20261120-[0-9a-f]{12}-[0-9a-f]{6}$/);
    const answer = await get(`/api/audit/packages/${id}`);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as {
      state: string;
      progress: Record<string, number>;
      file: typeof file;
      expiresAt: string;
    };
    expect(body.state).toBe('ready');
    expect(body.expiresAt).toBe('2026-12-05T12:00:00.000Z');
    file = body.file;
    expect(file.name).toBe(`evident-audit-${from}-to-${to}.zip`);
    expect(body.progress).toMatchObject({ reports: 6, reportsTotal: 6 });
    const parts = (await listNames(memory, `audit/parts/${id}/1/`)).length;
    expect(parts).toBe(Math.ceil(file.size / testPartBytes));
    expect(parts).toBeGreaterThan(2);
  });

  it('tells its build as events: started, a progress per stored part, completed', async () => {
    const answer = await get(`/api/audit/packages/${id}/events`, { Accept: 'application/json' });
    const { events, ended } = (await answer.json()) as { events: { id: number; type: string }[]; ended: boolean };
    expect(ended).toBe(true);
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => index + 1));
    expect(events[0]!.type).toBe('run.started');
    expect(events.at(-1)!.type).toBe('run.completed');
    const progress = events.filter((event) => event.type === 'run.progress');
    expect(progress.length).toBeGreaterThanOrEqual(Math.floor(file.size / testPartBytes));
    expect(events).toHaveLength(progress.length + 2);
  });

  it('downloads whole, with its length, its SHA-256 as ETag, and the same files as the package made while sent', async () => {
    const answer = await get(`/api/audit/packages/${id}/download`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-length')).toBe(String(file.size));
    expect(answer.headers.get('etag')).toBe(`"${file.sha256}"`);
    expect(answer.headers.get('accept-ranges')).toBe('bytes');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${file.name}"`);
    whole = await bytesOf(answer);
    expect(whole.length).toBe(file.size);
    expect(sha256(whole)).toBe(file.sha256);
    const streamed = await unzip(await bytesOf(await get(`/api/audit/package?from=${from}&to=${to}`)));
    expect((await unzip(whole)).paths).toEqual(streamed.paths);
  });

  it('downloads in ranges that cross its parts, which put together are the whole', async () => {
    const middle = testPartBytes + 1000;
    const first = await get(`/api/audit/packages/${id}/download`, { Range: `bytes=0-${middle - 1}` });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-${middle - 1}/${file.size}`);
    expect(first.headers.get('content-length')).toBe(String(middle));
    const rest = await get(`/api/audit/packages/${id}/download`, { Range: `bytes=${middle}-` });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes ${middle}-${file.size - 1}/${file.size}`);
    expect(Buffer.concat([await bytesOf(first), await bytesOf(rest)]).equals(whole)).toBe(true);
    const tail = await get(`/api/audit/packages/${id}/download`, { Range: 'bytes=-100' });
    expect((await bytesOf(tail)).equals(whole.subarray(file.size - 100))).toBe(true);
  });

  it('answers 416 for a range outside the file, and the whole file when If-Range names another version', async () => {
    const outside = await get(`/api/audit/packages/${id}/download`, { Range: `bytes=${file.size}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${file.size}`);
    expect(((await outside.json()) as { type: string }).type).toMatch(/range_not_satisfiable$/);
    const changed = await get(`/api/audit/packages/${id}/download`, { Range: 'bytes=0-9', 'If-Range': '"another"' });
    expect(changed.status).toBe(200);
    expect((await bytesOf(changed)).length).toBe(file.size);
  });

  it('is handed back when the same period is asked again and no report changed', async () => {
    const again = await post({ from, to });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(id);
    expect(queued).toEqual([]);
    const listed = (await (await get('/api/audit/packages')).json()) as { items: { id: string }[] };
    expect(listed.items.map((item) => item.id)).toContain(id);
  });

  it('is built anew once a report of the period is published again', async () => {
    const first = (await (await post({ from: '2026-11-20', to: today })).json()) as { id: string };
    expect(((await (await post({ from: '2026-11-20', to: today })).json()) as { id: string }).id).toBe(first.id);
    const reports = new ReportStore(memory);
    const stored = (await reports.find(today, { fresh: true }))!;
    const republished = { ...stored.report, runId: 'an-20261121100000000-0a1b2c3d' };
    expect(await reports.publish(republished, stored, () => clock, { by: 'analysis', startedBy: { uid: 'u-alice' } })).toBe(
      'published',
    );
    const asked = await post({ from: '2026-11-20', to: today });
    expect(asked.status).toBe(202);
    const other = ((await asked.json()) as { id: string }).id;
    expect(other).not.toBe(first.id);
    // The same period, other reports: another fingerprint.
    expect(other.slice(0, 22)).toBe(first.id.slice(0, 22));
    expect(other.slice(22, 34)).not.toBe(first.id.slice(22, 34));
    expect(queued).toEqual([first.id, other]);
    queued.splice(0);
  });
});

describe('asking for an audit package', () => {
  it.each([
    [{ from: '2026-11-20', to: '2026-11-22' }, '/to', 'is after today (2026-11-21, UTC)'],
    [{ from: '2026-11-20', to: '2026-11-19' }, '/from', 'is after "to"'],
    [{ from: '2025-11-19', to: '2026-11-20' }, '/from', 'makes a period longer than 366 days'],
    [{ from: '2026-02-30', to: '2026-11-20' }, '/from', 'is not a calendar date (YYYY-MM-DD)'],
  ])('refuses %j, naming %s', async (body, pointer, message) => {
    const answer = await post(body);
    expect(answer.status).toBe(400);
    const problem = (await answer.json()) as { errors: { in: string; pointer: string; message: string }[] };
    expect(problem.errors).toEqual([{ in: 'body', pointer, message }]);
  });

  it('refuses a body with a field the description does not have', async () => {
    const answer = await post({ from, to, format: 'tar' });
    expect(answer.status).toBe(400);
    const problem = (await answer.json()) as { detail: string; errors: unknown[] };
    expect([problem.detail, problem.errors]).toEqual([
      'The body /format is not a known property.',
      [{ in: 'body', pointer: '/format', message: 'is not a known property' }],
    ]);
  });

  it('answers 404 for a period with no report', async () => {
    const answer = await post({ from: '2025-01-01', to: '2025-01-31' });
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { type: string }).type).toMatch(/report_not_found$/);
  });

  it('answers 503 when the queue refuses the build, and the package says it failed', async () => {
    const logged = vi.spyOn(logs, 'auditPackageQueueFailed').mockImplementation(() => undefined);
    queueFails = true;
    const answer = await post({ from: '2026-11-10', to: '2026-11-11' });
    queueFails = false;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    const listed = (await (await get('/api/audit/packages')).json()) as {
      items: { from: string; state: string; problem?: string }[];
    };
    expect(listed.items.find((item) => item.from === '2026-11-10')).toMatchObject({
      state: 'failed',
      problem: 'The task queue did not take the build.',
    });
    expect(logged).toHaveBeenCalledTimes(1);
    // A failed package is not handed back: asking again queues a new one.
    expect((await post({ from: '2026-11-10', to: '2026-11-11' })).status).toBe(202);
    queued.splice(0);
  });

  it('refuses to download a package not yet built (409), and an unknown one (404)', async () => {
    const asked = (await (await post({ from: '2026-11-12', to: '2026-11-13' })).json()) as { id: string };
    const early = await get(`/api/audit/packages/${asked.id}/download`);
    expect(early.status).toBe(409);
    expect(((await early.json()) as { type: string }).type).toMatch(/audit_package_not_ready$/);
    queued.splice(0);
    const unknown = await get('/api/audit/packages/pkg-20261112-20261113-000000000000-000000');
    expect(unknown.status).toBe(404);
    expect((await get('/api/audit/packages/not-a-package')).status).toBe(400);
  });
});

describe('a package built in the background and signed', () => {
  it('verifies: its signature, every file\u2019s SHA-256 and every day re-derived from what it carries', async () => {
    const s = (await services()) as Services;
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const builds = new PackageBuilds(s.store, () => 14);
    const record = await builds.open({ from, to, fingerprint: 'fedcbafedcba' }, { uid: 'u-t' }, clock);
    await buildPackage({ ...s, signingKey: () => privateKey }, record, testPartBytes);
    const zip = await unzip(await bytesOf(await get(`/api/audit/packages/${record.id}/download`)));
    expect(zip.paths).toContain('manifest.sig');
    const verification = verifyPackage(zip.files, { publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    expect(verification.ok).toBe(true);
  });
});

describe('a package that lapses, and a build retried', () => {
  it('is gone once lapsed, and a sweep deletes its record, events and parts', async () => {
    const s = (await services()) as Services;
    const builds = new PackageBuilds(s.store, () => 1);
    const record = await builds.open(
      { from: '2026-11-16', to: '2026-11-17', fingerprint: 'abcdefabcdef' },
      { uid: 'u-t' },
      clock,
    );
    await buildPackage(s, record, testPartBytes);
    const objects = async () => (await listNames(memory, 'audit/')).filter((name) => name.includes(record.id)).length;
    expect(await objects()).toBeGreaterThan(3);
    const later = new Date(clock.getTime() + 86_400_000);
    expect(await builds.find(record.id, later)).toBeUndefined();
    expect((await builds.list(later)).map((listed) => listed.id)).not.toContain(record.id);
    expect(await builds.sweep(later)).toBeGreaterThanOrEqual(1);
    expect(await objects()).toBe(0);
  });

  it('stores a retried attempt\u2019s parts apart from the lost one\u2019s, and downloads the retry\u2019s', async () => {
    const s = (await services()) as Services;
    const builds = new PackageBuilds(s.store, () => 14);
    const record = await builds.open(
      { from: '2026-11-18', to: '2026-11-19', fingerprint: '123456123456' },
      { uid: 'u-t' },
      clock,
    );
    // The first attempt started and stored a part of garbage, then was lost.
    const log = new AuditPackageLog(s.store, record.id);
    await log.append('run.started', { reportsTotal: 2 }, clock);
    await s.store.create(partName(record.id, 1, 1), Buffer.from('not a zip'));
    await buildPackage(s, record, testPartBytes);
    const answer = await get(`/api/audit/packages/${record.id}/download`);
    const body = await bytesOf(answer);
    expect((await unzip(body)).paths[0]).toBe('README.txt');
    const built = (await (await get(`/api/audit/packages/${record.id}`)).json()) as { file: { sha256: string } };
    expect(sha256(body)).toBe(built.file.sha256);
  });
});
