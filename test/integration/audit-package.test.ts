/**
 * The audit package through Hosting on the emulators, over the demo's whole history: each report
 * as `GET /api/report/{date}` serves it, OSCAL documents NIST's schemas accept, the evidence the
 * results rest on as `GET /api/evidence/{id}` serves it, the attachments as their downloads, and a
 * manifest and SHA256SUMS that match every file. In a real browser, the dashboard's card saves
 * the same zip, and says what is wrong with a period before asking the API.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageLimits } from '@evident/contract';
import type { EvidenceItem, Report } from '../../functions/src/assessment/model.ts';
import type { components } from '../../functions/src/generated/api-types.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { mode, openPage, screenshot, settles, useBrowser, visit } from '../support/browser.ts';
import { api } from '../support/api.ts';
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
    const evidence = zip.paths.filter((path) => path.startsWith('evidence/'));
    expect(evidence).toEqual([...cited].sort().map((id) => `evidence/${id.replaceAll(':', '%3A')}.json`));
    let attachments = 0;
    for (const id of [...cited].sort()) {
      const item = await api.get<EvidenceItem>(`/api/evidence/${encodeURIComponent(id)}`);
      expect(JSON.parse(utf8(zip.files.get(`evidence/${id.replaceAll(':', '%3A')}.json`)))).toEqual(item);
      for (const [index, attachment] of item.attachments.entries()) {
        const served = Buffer.from(await (await api.response(attachment.href)).arrayBuffer());
        expect(zip.files.get(`attachments/${item.submissionId}/${index}-${attachment.name}`)).toEqual(served);
        attachments += 1;
      }
    }
    expect(attachments).toBeGreaterThan(0);
  });

  it('ends with a manifest and SHA256SUMS that match every file', () => {
    const manifest = JSON.parse(utf8(zip.files.get('manifest.json'))) as {
      period: unknown;
      requestedBy: { uid: string };
      unavailable: unknown[];
      files: { path: string; size: number; sha256: string }[];
    };
    const listed = zip.paths.filter((path) => path !== 'manifest.json' && path !== 'SHA256SUMS');
    expect(manifest.period).toEqual({ from: first, to: list.today, timeZone: 'UTC' });
    expect(manifest.requestedBy.uid === 'anonymous').toBe(mode === 'public');
    expect(manifest.unavailable).toEqual([]);
    expect(manifest.files).toEqual(
      listed.map((path) => ({ path, size: zip.files.get(path)!.length, sha256: sha256(zip.files.get(path)!) })),
    );
    expect(utf8(zip.files.get('SHA256SUMS'))).toBe(
      [...listed, 'manifest.json'].map((path) => `${sha256(zip.files.get(path)!)}  ${path}\n`).join(''),
    );
  });

  it("saves the same package from the dashboard's card, and says what is wrong with a period before asking", async () => {
    const { page, problems, close } = await openPage(browser());
    let asked = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/audit/package')) asked += 1;
    });
    await visit(page, '/', 'auditor@example.com');
    const card = page.getByTestId('audit-package');
    await card.waitFor(settles);
    // The last 90 days, from the first report when the history is shorter.
    expect(await card.getByLabel('From').inputValue()).toBe(first);
    expect(await card.getByLabel('To').inputValue()).toBe(list.today);

    await card.getByLabel('From').fill(list.today);
    await card.getByLabel('To').fill(first);
    await card.getByRole('button', { name: 'Download package' }).click();
    await expect.poll(() => card.getByRole('alert').textContent(), settles).toBe('The first day must not be after the last.');
    expect(asked).toBe(0);
    await screenshot(page, 'audit-package-refused');

    await card.getByLabel('From').fill(first);
    await card.getByLabel('To').fill(list.today);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Download package' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`evident-audit-${first}-to-${list.today}.zip`);
    const saved = await unzip(await readFile((await download.path())!));
    expect(saved.paths).toEqual(zip.paths);
    expect(saved.files.get(`reports/${list.today}.json`)).toEqual(zip.files.get(`reports/${list.today}.json`));
    expect(asked).toBe(1);
    expect(await card.getByRole('alert').count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });
});
