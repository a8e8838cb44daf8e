/**
 * The audit package through Hosting on the emulators, over the demo's whole history: each report
 * as `GET /api/report/{date}` serves it, OSCAL documents NIST's schemas accept, the evidence the
 * results rest on as `GET /api/evidence/{id}` serves it, the attachments as their downloads, and a
 * manifest and SHA256SUMS that match every file. The same package built in the background by
 * the task queue's worker, downloaded in two ranges, and verified offline by the script it carries
 * under a plain Node. In a real browser, the dashboard's card
 * builds it, follows its build and saves it, and says what is wrong with a period before asking.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageLimits } from '@evident/contract';
import type { EvidenceItem, Report } from '../../functions/src/assessment/model.ts';
import type { components } from '../../functions/src/generated/api-types.ts';
import { evidenceItemPath } from '../../functions/src/audit/package-paths.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { mode, openPage, screenshot, settles, useBrowser, visit } from '../support/browser.ts';
import { api } from '../support/api.ts';
import { until } from '../support/until.ts';
import { unzip, utf8, type Unzipped } from '../support/unzip.ts';

type ReportVersionPage = components['schemas']['ReportVersionPage'];

const browser = useBrowser();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let list: { today: string; reports: { date: string }[] };
let first: string;
let answer: Response;
let zip: Unzipped;

async function schema(file: string): Promise<ValidateFunction> {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(await readFile(join(paths.root, 'test/fixtures/oscal', file), 'utf8')) as object);
}

beforeAll(async () => {
  list = await api.get<typeof list>('/api/report');
  first = list.reports[0]!.date;
  answer = await api.response(`/api/audit/package?from=${first}&to=${list.today}`);
  zip = await unzip(Buffer.from(await answer.arrayBuffer()));
});

describe(`the audit package, ${mode} mode`, () => {
  it('is a zip named for the period, sent chunked', () => {
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="evident-audit-${first}-to-${list.today}.zip"`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-length')).toBeNull();
  });

  it('holds every report as the API serves it, with OSCAL results and a POA&M that the NIST schemas accept', async () => {
    const [results, poam] = await Promise.all([
      schema('oscal_assessment-results_schema-1.0.6.json'),
      schema('oscal_poam_schema-1.0.6.json'),
    ]);
    for (const { date } of list.reports) {
      const served = Buffer.from(await (await api.response(`/api/report/${date}`)).arrayBuffer());
      expect(zip.files.get(`reports/${date}.json`)).toEqual(served);
      const document = JSON.parse(utf8(zip.files.get(`oscal/assessment-results/${date}.json`))) as unknown;
      expect(results(document), `${date}: ${JSON.stringify(results.errors)}`).toBe(true);
    }
    const plan = JSON.parse(utf8(zip.files.get(`oscal/poam-${list.today}.json`))) as unknown;
    expect(poam(plan), JSON.stringify(poam.errors)).toBe(true);
  });

  it('holds every version of each day and the evidence their results rest on, with their attachments, as the API serves them', async () => {
    const cited = new Set<string>();
    for (const { date } of list.reports) {
      // Every version of the day (another test may have published today's again), the current one last.
      const { items } = await api.get<ReportVersionPage>(
        `/api/report/${date}/versions?limit=${pageLimits.reportVersions.maximum}`,
      );
      for (const version of items) {
        const report = await api.get<Report>(version.links.self);
        if (!version.current) expect(JSON.parse(utf8(zip.files.get(`versions/${date}/${version.version}.json`)))).toEqual(report);
        for (const result of report.controls) for (const id of result.evidence) cited.add(id);
      }
    }
    // Every item the results rest on is among the evidence the package carries (the state at the
    // start and every item received after), named by kind, subject, day and id.
    const evidence = new Set(zip.paths.filter((path) => path.startsWith('evidence/')));
    let attachments = 0;
    for (const id of [...cited].sort()) {
      const item = await api.get<EvidenceItem>(`/api/evidence/${encodeURIComponent(id)}`);
      const path = evidenceItemPath(item);
      expect(evidence.has(path), path).toBe(true);
      expect(JSON.parse(utf8(zip.files.get(path)))).toEqual(item);
      for (const [index, attachment] of item.attachments.entries()) {
        const served = Buffer.from(await (await api.response(attachment.href)).arrayBuffer());
        expect(zip.files.get(`attachments/${item.submissionId}/${index}-${attachment.name}`)).toEqual(served);
        attachments += 1;
      }
    }
    expect(attachments).toBeGreaterThan(0);
  });

  it('ends with a manifest and SHA256SUMS that match every file', async () => {
    const manifest = JSON.parse(utf8(zip.files.get('manifest.json'))) as {
      period: unknown;
      requestedBy: { uid: string };
      unavailable: { path: string; reason: string }[];
      files: { path: string; size: number; sha256: string }[];
    };
    const listed = zip.paths.filter((path) => path !== 'manifest.json' && path !== 'SHA256SUMS');
    expect(manifest.period).toEqual({ from: first, to: list.today, timeZone: 'UTC' });
    expect(manifest.requestedBy.uid === 'anonymous').toBe(mode === 'public');
    // The package carries every submission's files of the period. Other suites on these emulators
    // tamper with or delete attachments on purpose: each such file is left out, listed with why,
    // and the API refuses to serve it too. Nothing else may be missing.
    for (const { path, reason } of manifest.unavailable) {
      const [, id, file] = /^attachments\/([^/]+)\/(\d+)-/.exec(path) ?? [];
      expect([path, reason], path).toEqual([
        path,
        expect.stringMatching(/^(Its content no longer has the SHA-256 recorded at submission|The store has no such attachment)/),
      ]);
      const served = await api.fetch(`/api/submissions/${id}/attachments/${file}`);
      expect(served.status, path).not.toBe(200);
    }
    expect(manifest.files).toEqual(
      listed.map((path) => ({ path, size: zip.files.get(path)!.length, sha256: sha256(zip.files.get(path)!) })),
    );
    expect(utf8(zip.files.get('SHA256SUMS'))).toBe(
      [...listed, 'manifest.json'].map((path) => `${sha256(zip.files.get(path)!)}  ${path}\n`).join(''),
    );
  });

  it('is built in the background by the worker, and downloads in two ranges that make the same files', async () => {
    // 202, or 200 when this mode's run built it before (the same period and reports hand it back).
    const asking = await api.call<{ id: string }>('/api/audit/packages', {
      method: 'POST',
      body: { from: first, to: list.today },
    });
    expect([200, 202]).toContain(asking.status);
    const asked = asking.body;
    const built = await until(
      'the package to be built',
      () => api.get<{ state: string; file?: { size: number; sha256: string } }>(`/api/audit/packages/${asked.id}`),
      (state) => state.state === 'ready' || state.state === 'failed',
    );
    expect(built.state).toBe('ready');
    const { size, sha256: digest } = built.file!;
    const half = Math.floor(size / 2);
    const head = await api.response(`/api/audit/packages/${asked.id}/download`, {
      headers: { Range: `bytes=0-${half - 1}` },
      status: 206,
    });
    const rest = await api.response(`/api/audit/packages/${asked.id}/download`, {
      headers: { Range: `bytes=${half}-` },
      status: 206,
    });
    expect(rest.headers.get('content-range')).toBe(`bytes ${half}-${size - 1}/${size}`);
    const whole = Buffer.concat([Buffer.from(await head.arrayBuffer()), Buffer.from(await rest.arrayBuffer())]);
    expect(sha256(whole)).toBe(digest);
    // The same files, and the manifest's signature: the background build signs with the deployment's key.
    const unpacked = await unzip(whole);
    const builtPaths = unpacked.paths;
    expect(builtPaths.filter((path) => path !== 'manifest.sig')).toEqual(zip.paths);
    expect(builtPaths).toContain('manifest.sig');

    // Verified offline, as an auditor would: unpacked, its own script run by a plain Node (the
    // system's, 20, with nothing installed and nothing but PATH), against the published key.
    const folder = mkdtempSync(join(tmpdir(), 'evident-package-'));
    try {
      for (const [path, data] of unpacked.files) {
        mkdirSync(dirname(join(folder, path)), { recursive: true });
        writeFileSync(join(folder, path), data);
      }
      const { keys } = await api.get<{ keys: { publicKey: string }[] }>('/api/audit/signing-key');
      writeFileSync(join(folder, '..', `${basename(folder)}.pem`), keys[0]!.publicKey);
      const plainNode = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;
      const run = spawnSync(plainNode, ['verify/verify.mjs', '.', '--key', join(folder, '..', `${basename(folder)}.pem`)], {
        cwd: folder,
        env: { PATH: '/usr/bin:/bin' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(run.stderr).toBe('');
      expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^VERIFIED: /);
      expect(run.status).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(join(folder, '..', `${basename(folder)}.pem`), { force: true });
    }
  });

  it("builds and saves the package from the dashboard's card, and says what is wrong with a period before asking", async () => {
    const { page, problems, close } = await openPage(browser());
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/audit/package')) asked.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await visit(page, '/', 'auditor@example.com');
    const card = page.getByTestId('audit-package');
    await card.waitFor(settles);
    // The 90 days up to yesterday (today's report is not final), from the first report when the history is shorter.
    const yesterday = new Date(Date.parse(`${list.today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(await card.getByLabel('From').inputValue()).toBe(first);
    expect(await card.getByLabel('To').inputValue()).toBe(yesterday);

    await card.getByLabel('From').fill(list.today);
    await card.getByLabel('To').fill(first);
    await card.getByRole('button', { name: 'Build package' }).click();
    await expect.poll(() => card.getByRole('alert').textContent(), settles).toBe('The first day must not be after the last.');
    expect(asked).toEqual([]);
    await screenshot(page, 'audit-package-refused');

    await card.getByLabel('From').fill(first);
    await card.getByLabel('To').fill(list.today);
    await card.getByRole('button', { name: 'Build package' }).click();
    const build = card.getByTestId('audit-package-build');
    await expect.poll(() => build.getAttribute('data-state'), settles).toBe('ready');
    expect(await card.getByTestId('audit-package-state').textContent()).toMatch(/^Ready: [\d.]+ (MB|kB), SHA-256 [0-9a-f]{12}…$/);
    await screenshot(page, 'audit-package-ready');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: /^Download evident-audit-/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`evident-audit-${first}-to-${list.today}.zip`);
    const saved = await unzip(await readFile((await download.path())!));
    expect(saved.paths.filter((path) => path !== 'manifest.sig')).toEqual(zip.paths);
    expect(saved.files.get(`reports/${list.today}.json`)).toEqual(zip.files.get(`reports/${list.today}.json`));
    // One request to ask (the package built by the test before is handed back), then its download; no zip made while sent.
    expect(asked[0]).toBe('POST /api/audit/packages');
    expect(asked.filter((request) => request.endsWith('/download')).length).toBeGreaterThanOrEqual(1);
    expect(asked.some((request) => request === 'GET /api/audit/package')).toBe(false);
    expect(await card.getByRole('alert').count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });
});
