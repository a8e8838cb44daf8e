/**
 * `GET /api/audit/package` through the audit family, over the demo history: the zip holds each
 * report of the period as stored, its OSCAL Assessment Results, the POA&M of the last day, each
 * control's history as the CSV export gives it, the inputs that re-derive the reports, every
 * evidence item received in the period and every one the findings cite, and the files attached
 * to them, with index pages, a manifest and SHA256SUMS that match every file; it reads each
 * report and each batch of evidence once; it leaves out an attachment whose bytes changed and says so; it
 * refuses what it cannot make before sending a byte; and once streaming it stops when the client
 * goes away and cuts the connection when the store fails.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { suggestedSampleSizes } from '@evident/contract';
import { addDays } from '../../../functions/src/assessment/dates.ts';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import type { EvidenceItem, Report } from '../../../functions/src/assessment/model.ts';
import { toOscalAssessmentResults } from '../../../functions/src/assessment/oscal-export.ts';
import { toOscalPoam } from '../../../functions/src/assessment/oscal-poam.ts';
import { samplingTestVector } from '../../../functions/src/assessment/sampling.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { idOfEvidencePath } from '../../../functions/src/audit/package-paths.ts';
import { createAuditFamily } from '../../../functions/src/families/audit.ts';
import { readControlHistory } from '../../../functions/src/families/controls.ts';
import { servicesFrom } from '../../../functions/src/families/services.ts';
import { apiVersion } from '../../../functions/src/generated/api-version.ts';
import { logs } from '../../../functions/src/logs.ts';
import { controlHistoryCsv } from '../../../functions/src/reports/control-history-csv.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { listAll } from '../../../functions/src/storage/object-store.ts';
import { attachmentObjectName } from '../../../functions/src/submissions/submission-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { seedDemoHistory } from '../../../scripts/lib/demo/seed.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { bearer, fakeTokens, fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { serve, type Served } from '../../support/serve.ts';
import { unzip, utf8, type Unzipped } from '../../support/unzip.ts';
import { until } from '../../support/until.ts';
import { demoSeedDependencies } from '../../support/demo-seed.ts';

const catalog = compileCatalogSources(paths.catalog);
const today = '2026-11-21';
const from = '2026-11-10';
const clock = new Date(`${today}T12:00:00Z`);
const memory = new MemoryStore();
const store = new RecordingStore(memory);
const services = servicesFrom({ store: async () => memory, catalog: () => catalog, now: () => clock, timeZone: () => 'UTC' });
let served: Served;

/** What the period holds, read straight from the store. */
const period = {
  dates: [] as string[],
  reports: [] as Report[],
  cited: [] as string[],
  items: new Map<string, EvidenceItem>(),
  /** Today's scheduled report, replaced by `republishedRun`'s. */
  replaced: Buffer.alloc(0) as Buffer,
  /** The evidence items of the package, in its order. */
  packaged: [] as EvidenceItem[],
  /** The batches of evidence received from the first report's making to the last's. */
  batches: [] as string[],
};
const republishedRun = 'an-20261121100000000-0a1b2c3d';

/** The audit family on fresh services: nothing cached from an earlier request. */
const auditFamily = () =>
  createAuditFamily({
    store: async () => store,
    catalog: () => catalog,
    now: () => clock,
    timeZone: () => 'UTC',
    verifyToken: fakeVerifier(),
    loadTable: tableOf('audit'),
  });

const verifierUnavailable = {
  path: 'verify/verify.mjs',
  reason: 'This build of Evident has no bundled verifier (node scripts/build.ts makes it).',
};
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const packagePath = (query: string) => `/api/audit/package${query}`;
const download = (query = `?from=${from}&to=${today}`, init: RequestInit = {}) =>
  fetch(`${served.url}${packagePath(query)}`, init);

beforeAll(async () => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  setMode('public');
  const evidence = new EvidenceStore(memory);
  const reports = new ReportStore(memory);
  await seedDemoHistory(demoSeedDependencies(memory, compileCatalog(catalog)), {
    today,
    timeZone: 'UTC',
    now: new Date(`${today}T09:00:00Z`),
  });
  // Today's report published again by an analysis: the scheduled one is kept as version 1.
  const scheduled = (await reports.find(today, { fresh: true }))!;
  period.replaced = scheduled.bytes;
  const republished = { ...scheduled.report, runId: republishedRun, generatedAt: `${today}T10:00:00.000Z` };
  await reports.publish(republished, scheduled, () => clock, { by: 'analysis', startedBy: { uid: 'u-alice' } });
  period.dates = await reports.datesBetween(from, today);
  for (const date of period.dates) period.reports.push((await reports.find(date))!.report);
  const cited = new Set(period.reports.flatMap((report) => report.controls.flatMap((result) => result.evidence)));
  period.cited = [...cited].sort();
  for (const id of period.cited) period.items.set(id, await evidence.get(id));
  served = await serve(auditFamily());
  const first = await unzip(Buffer.from(await (await download()).arrayBuffer()));
  period.packaged = first.paths
    .filter((path) => idOfEvidencePath(path) !== undefined)
    .map((path) => JSON.parse(utf8(first.files.get(path))) as EvidenceItem);
  const made = period.reports.map((report) => Date.parse(report.generatedAt));
  period.batches = (await listAll(memory, 'evidence/'))
    .map(({ name }) => name)
    .filter((name) => {
      const stamp = /\/(\d{8}T\d{9}Z)-/.exec(name)![1]!;
      const at = Date.parse(
        `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}.${stamp.slice(15, 18)}Z`,
      );
      return at > Math.min(...made) && at <= Math.max(...made);
    });
  // Seeding two weeks of demo history takes seconds, more on a loaded machine.
}, 120_000);

afterAll(() => served.close());

const withAttachments = () =>
  period.packaged.flatMap((item) => {
    return item.attachments.map((attachment, index) => ({
      path: `attachments/${item.submissionId}/${index}-${attachment.name}`,
      object: attachmentObjectName(item.submissionId!, index),
      attachment,
    }));
  });

describe('the audit package of a period', () => {
  let answer: Response;
  let zip: Unzipped;
  beforeAll(async () => {
    answer = await download();
    zip = await unzip(Buffer.from(await answer.arrayBuffer()));
  });

  it('is a zip sent as it is made, named for the period', () => {
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="evident-audit-${from}-to-${today}.zip"`);
    expect(answer.headers.get('transfer-encoding')).toBe('chunked');
    expect(answer.headers.get('content-length')).toBeNull();
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('holds the README, the catalog, each report and its OSCAL results, the histories, the POA&M, the inputs, the evidence, the attachments, the index pages and the manifests, in that order', () => {
    const last = period.dates.at(-1)!;
    expect(period.dates).toHaveLength(12);
    expect(withAttachments().length).toBeGreaterThan(0);
    const head = [
      'README.txt',
      'sampling/method.json',
      'catalog/catalog.json',
      `inputs/previous/${addDays(from, -1)}.json`,
      ...period.dates.flatMap((date) => [
        `reports/${date}.json`,
        `sampling/populations/${date}.csv`,
        ...(date === today ? [`versions/${today}/1.json`] : []),
        `oscal/assessment-results/${date}.json`,
      ]),
      'history/controls.csv',
      ...catalog.controls.map((control) => `history/${control.id}.csv`).sort(),
      'requests.csv',
      `oscal/poam-${last}.json`,
    ];
    // The build's verifier is not made in unit tests: the manifest says so (below).
    const tail = [...withAttachments().map(({ path }) => path), 'index.html', 'evidence.html', 'manifest.json', 'SHA256SUMS'];
    expect(zip.paths.slice(0, head.length)).toEqual(head);
    expect(zip.paths.slice(-tail.length)).toEqual(tail);
    const middle = zip.paths.slice(head.length, -tail.length);
    const inputs = middle.filter((path) => path.startsWith('inputs/'));
    // Per day the exceptions in force and the populations; then every evidence item; then the reviews of its submissions.
    expect(inputs.filter((path) => !path.startsWith('inputs/populations/runs/'))).toEqual([
      ...period.dates.flatMap((date) => [`inputs/exceptions/${date}.json`, `inputs/populations/${date}.json`]),
      'inputs/submission-reviews.json',
    ]);
    expect(inputs.filter((path) => path.startsWith('inputs/populations/runs/')).length).toBeGreaterThan(0);
    expect(middle.slice(inputs.length - 1, -1).every((path) => idOfEvidencePath(path) !== undefined)).toBe(true);
    expect(middle.slice(0, inputs.length - 1)).toEqual(inputs.slice(0, -1));
    expect(middle.at(-1)).toBe('inputs/submission-reviews.json');
  });

  it('gives each report as stored, the version a publish replaced too, and the OSCAL documents the report endpoints serve', async () => {
    expect(period.reports.at(-1)!.runId).toBe(republishedRun);
    expect(zip.files.get(`versions/${today}/1.json`)).toEqual(period.replaced);
    const nistByControl = Object.fromEntries(catalog.controls.map((control) => [control.id, control.frameworks.nist80053]));
    for (const report of period.reports) {
      const stored = (await memory.read(`reports/day=${report.date}/report.json`)).data;
      expect(zip.files.get(`reports/${report.date}.json`)).toEqual(stored);
      expect(JSON.parse(utf8(zip.files.get(`oscal/assessment-results/${report.date}.json`)))).toEqual(
        toOscalAssessmentResults(report, { version: report.catalogVersion, nistByControl }),
      );
      expect(zip.modified.get(`reports/${report.date}.json`)?.getTime()).toBe(
        // Zip times have two-second steps.
        Math.floor(Date.parse(report.generatedAt) / 2000) * 2000,
      );
    }
    const last = period.reports.at(-1)!;
    expect(JSON.parse(utf8(zip.files.get(`oscal/poam-${last.date}.json`)))).toEqual(
      toOscalPoam(last, { version: last.catalogVersion, nistByControl }),
    );
  });

  it("gives the sampling method with its test vector, and each control's population on each day", () => {
    const method = JSON.parse(utf8(zip.files.get('sampling/method.json'))) as Record<string, unknown>;
    expect(method).toMatchObject({ method: 'sha256-rank/1', suggestedSampleSizes, testVector: samplingTestVector });
    expect(Object.keys(method.frequencies as object)).toEqual(catalog.controls.map((control) => control.id));
    for (const report of period.reports) {
      // A control reading subjects gives its report's populations; one reading none, its findings' subjects.
      const rows = report.controls.flatMap((result) => {
        if (result.populations?.length) {
          return result.populations.map(
            (used) =>
              `"${result.id}","${used.kind}","${used.count}","${used.sha256}","${used.runs.map((run) => `${run.source} ${run.runId}`).join('; ')}"`,
          );
        }
        const subjects = [...new Set(result.findings.flatMap((finding) => (finding.subject ? [finding.subject] : [])))];
        const lines = subjects.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).map((subject) => `${subject}\n`);
        const sha256 = createHash('sha256').update(lines.join('')).digest('hex');
        return [`"${result.id}","","${subjects.length}","${sha256}",""`];
      });
      expect(utf8(zip.files.get(`sampling/populations/${report.date}.csv`))).toBe(
        ['"control","kind","population","sha256","runs"', ...rows, ''].join('\r\n'),
      );
    }
    // Controls reading subjects carry their population in the report, and the package with it.
    expect(period.reports.at(-1)!.controls.filter((result) => result.populations?.length).length).toBeGreaterThan(20);
    // The demo's findings name subjects, so the populations are not all empty.
    const todays = utf8(zip.files.get(`sampling/populations/${today}.csv`))
      .split('\r\n')
      .slice(1, -1);
    expect(todays.some((row) => !row.includes('","0","'))).toBe(true);
  });

  it("gives each control's history as the CSV export of the same period, and a row per control in history/controls.csv", async () => {
    const s = await services();
    for (const control of catalog.controls) {
      const history = await readControlHistory(s, control.id, from, today, today);
      expect(utf8(zip.files.get(`history/${control.id}.csv`))).toBe(controlHistoryCsv(history));
    }
    const rows = utf8(zip.files.get('history/controls.csv')).trimEnd().split('\r\n');
    expect(rows[0]).toBe(
      '"control","title","owner","severity","status_at_end","days_assessed","days_passing","passing_share",' +
        '"longest_not_passing_days","longest_not_passing_from","longest_not_passing_to","fixes","mean_days_to_fix"',
    );
    expect(rows).toHaveLength(catalog.controls.length + 1);
    // Each control's row: its facts, then the figures of its history over the period.
    // Every field quoted; the catalog's titles and owners start with no formula trigger.
    const field = (value: string | number) => `"${String(value).replaceAll('"', '""')}"`;
    const ids = catalog.controls.map((control) => control.id).sort();
    for (const [index, id] of ids.entries()) {
      const control = catalog.controls.find((candidate) => candidate.id === id)!;
      const { summary } = await readControlHistory(s, id, from, today, today);
      const streak = summary.longestNonPassingStreak;
      const end = period.reports.at(-1)!.controls.find((result) => result.id === id)!;
      expect(rows[index + 1]).toBe(
        [
          id,
          control.title,
          control.owner,
          control.severity,
          end.status,
          summary.daysWithReport,
          summary.daysPassing,
          summary.passingShare?.toFixed(4) ?? '',
          streak?.days ?? '',
          streak?.from ?? '',
          streak?.to ?? '',
          summary.fixes,
          summary.meanTimeToFixDays === null ? '' : Math.round(summary.meanTimeToFixDays * 10) / 10,
        ]
          .map(field)
          .join(','),
      );
    }
  });

  it('gives every evidence item the results rest on, named by kind, subject and day, and the attachments of the submissions among them, byte for byte', async () => {
    const paths = new Map(
      zip.paths.flatMap((path) => {
        const id = idOfEvidencePath(path);
        return id === undefined ? [] : [[id, path] as const];
      }),
    );
    for (const id of period.cited) {
      const item = period.items.get(id)!;
      expect(paths.get(id)).toMatch(
        new RegExp(`^evidence/${item.kind.replaceAll('.', '\\.')}/[^/]+/${item.collectedAt.slice(0, 10)}-`),
      );
      expect(JSON.parse(utf8(zip.files.get(paths.get(id)!)))).toEqual(item);
    }
    for (const { path, object, attachment } of withAttachments()) {
      const data = zip.files.get(path)!;
      expect(data).toEqual((await memory.read(object)).data);
      expect(sha256(data)).toBe(attachment.sha256);
    }
  });

  it('ends with a manifest and SHA256SUMS that match every file', () => {
    const manifest = JSON.parse(utf8(zip.files.get('manifest.json'))) as {
      files: { path: string; size: number; sha256: string }[];
    } & Record<string, unknown>;
    const listed = zip.paths.filter((path) => path !== 'manifest.json' && path !== 'SHA256SUMS');
    const versionOne = JSON.parse(period.replaced.toString('utf8')) as Report;
    expect(manifest).toEqual({
      format: 'evident-audit-package/1',
      period: { from, to: today, timeZone: 'UTC' },
      generatedAt: clock.toISOString(),
      requestedBy: { uid: 'anonymous' },
      apiVersion,
      reports: period.reports.map(({ date, runId, generatedAt, catalogVersion, asOf }) => ({
        date,
        runId,
        generatedAt,
        catalogVersion,
        asOf,
      })),
      versions: [{ date: today, version: 1, runId: versionOne.runId, generatedAt: versionOne.generatedAt }],
      catalog: { version: catalog.version, path: 'catalog/catalog.json' },
      evidence: {
        start: period.reports[0]!.generatedAt,
        upTo: period.reports.at(-1)!.generatedAt,
        atStart: expect.any(Number),
        received: period.batches.length > 0 ? expect.any(Number) : 0,
      },
      // The audit family does not sign: the job that builds packages holds the key.
      signature: null,
      counts: {
        reports: 12,
        versions: 1,
        evidence: period.packaged.length,
        attachments: withAttachments().length,
        files: zip.paths.length,
      },
      unavailable: [verifierUnavailable],
      files: listed.map((path) => ({ path, size: zip.files.get(path)!.length, sha256: sha256(zip.files.get(path)!) })),
    });
    expect(utf8(zip.files.get('SHA256SUMS'))).toBe(
      [...listed, 'manifest.json'].map((path) => `${sha256(zip.files.get(path)!)}  ${path}\n`).join(''),
    );
    expect(utf8(zip.files.get('README.txt'))).toContain(`Evident audit package: ${from} to ${today} (days in UTC)`);
  });
});

describe('what making a package reads', () => {
  it('reads each report of the period and the one before once, each batch of evidence once, and each attachment once', async () => {
    store.reset();
    const fresh = await serve(auditFamily());
    let packaged: Unzipped;
    try {
      const answer = await fetch(`${fresh.url}${packagePath(`?from=${from}&to=${today}`)}`);
      packaged = await unzip(Buffer.from(await answer.arrayBuffer()));
    } finally {
      await fresh.close();
    }
    const reads = store.of('read');
    const reportReads = reads.filter((name) => name.startsWith('reports/') || name.startsWith('report-versions/'));
    expect(reportReads.sort()).toEqual(
      [
        ...[addDays(from, -1), ...period.dates].map((date) => `reports/day=${date}/report.json`),
        `report-versions/day=${today}/000001.json`,
      ].sort(),
    );
    // Every cited item comes with the batches: none is read on its own.
    expect(reads.filter((name) => name.startsWith('evidence-ids/'))).toEqual([]);
    const batchReads = reads.filter((name) => name.startsWith('evidence/'));
    expect(new Set(batchReads).size).toBe(batchReads.length);
    expect(batchReads.filter((name) => period.batches.includes(name)).sort()).toEqual([...period.batches].sort());
    expect(reads.filter((name) => name.startsWith('attachments/')).sort()).toEqual(
      withAttachments()
        .map(({ object }) => object)
        .sort(),
    );
    // The review of each submission the packaged evidence came from, once; no other review.
    const submissions = packaged.paths
      .filter((path) => idOfEvidencePath(path) !== undefined)
      .map((path) => JSON.parse(utf8(packaged.files.get(path))) as EvidenceItem)
      .flatMap((item) =>
        item.kind === 'attestation' && typeof item.data.submissionId === 'string' ? [item.data.submissionId] : [],
      );
    expect(submissions.length).toBeGreaterThan(0);
    expect(reads.filter((name) => name.startsWith('submission-reviews/')).sort()).toEqual(
      [...new Set(submissions)].map((id) => `submission-reviews/${id}.json`).sort(),
    );
    // Besides: the state at the start (a checkpoint), the exception indexes, the settings and the runs' populations.
    const others = reads.filter((name) => !/^(reports|report-versions|evidence|attachments|submission-reviews)\//.test(name));
    expect(others.every((name) => /^(state|exception-index|settings|runs|populations-index|exceptions)\//.test(name))).toBe(true);
    const listed = store.of('list');
    expect(listed.filter((prefix) => prefix === 'report-versions/')).toEqual(['report-versions/']);
    expect(listed.filter((prefix) => prefix.startsWith('submission-reviews'))).toEqual([]);
    // The batches in one listing (fewer than a page), the state at the start's and the period's together.
    expect(listed.filter((prefix) => prefix.startsWith('evidence/'))).toEqual(['evidence/']);
  });
});

describe('refusals, before the first byte', () => {
  it.each([
    ['?from=2026-02-30&to=2026-11-20', 'from', 'is not a calendar date (YYYY-MM-DD)'],
    ['?from=2026-11-10&to=2026-11-22', 'to', 'is after today (2026-11-21, UTC)'],
    ['?from=2026-11-20&to=2026-11-10', 'from', 'is after "to"'],
    ['?from=2025-11-19&to=2026-11-20', 'from', 'makes a period longer than 366 days'],
  ])('refuses %s with a 400 naming the parameter', async (query, name, message) => {
    const answer = await download(query);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'invalid_request',
        `The query parameter "${name}" ${message}.`,
        packagePath(''),
        answer.headers.get('x-request-id')!,
        {
          errors: [{ in: 'query', name, message }],
        },
      ),
    );
  });

  it('refuses a request without "to" with a 400, as the description requires both ends', async () => {
    const answer = await download(`?from=${from}`);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { errors: unknown[] }).errors).toEqual([
      { in: 'query', name: 'to', message: 'is required' },
    ]);
  });

  it('answers 404 report_not_found for a period with no report', async () => {
    const answer = await download('?from=2026-01-01&to=2026-01-31');
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'report_not_found',
        'No report exists from 2026-01-01 to 2026-01-31; GET /api/report lists the days that have one.',
        packagePath(''),
        answer.headers.get('x-request-id')!,
      ),
    );
  });

  it('needs a token in protected mode, and names its holder in the manifest', async () => {
    setMode('protected');
    try {
      const refused = await download();
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { code: string }).code).toBe('unauthenticated');
      const answer = await download(`?from=${today}&to=${today}`, { headers: bearer(fakeTokens.valid) });
      expect(answer.status).toBe(200);
      const zip = await unzip(Buffer.from(await answer.arrayBuffer()));
      expect(JSON.parse(utf8(zip.files.get('manifest.json'))).requestedBy).toEqual({ uid: 'user-1', email: 'ada@example.com' });
      expect(utf8(zip.files.get('README.txt'))).toContain('for ada@example.com');
    } finally {
      setMode('public');
    }
  });
});

describe('once the package is streaming', () => {
  /** Each download on its own fresh server, so every evidence item is read from the store. */
  const freshDownload = async (init: RequestInit = {}) => {
    const fresh = await serve(auditFamily());
    const answer = await fetch(`${fresh.url}${packagePath(`?from=${from}&to=${today}`)}`, init);
    return { answer, close: () => fresh.close() };
  };

  it('stops reading the store when the client goes away', async () => {
    const abandoned = vi.spyOn(logs, 'downloadAbandoned').mockImplementation(() => undefined);
    const stopped = vi.spyOn(logs, 'auditPackageStopped').mockImplementation(() => undefined);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    store.reset();
    // Evidence reads wait until the client has gone.
    store.before = (call) => (call.name.startsWith('evidence/') ? held : undefined);
    try {
      const controller = new AbortController();
      const { answer, close } = await freshDownload({ signal: controller.signal });
      onTestFinished(close);
      const reader = answer.body!.getReader();
      await reader.read();
      controller.abort();
      await until(
        'the abandoned download logged',
        async () => abandoned.mock.calls.length,
        (calls) => calls === 1,
      );
      release();
      // Once the package has stopped, its files' generator is closed and no read can start.
      await until(
        'the package stopped',
        async () => stopped.mock.calls.length,
        (calls) => calls === 1,
      );
      // At most the batches under way when it went (the state's 16 at a time), not all of them.
      expect(store.of('read').filter((name) => name.startsWith('evidence/')).length).toBeLessThanOrEqual(16);
      expect(period.batches.length).toBeGreaterThan(2 * 16);
      expect(abandoned.mock.calls[0]![0]).toMatchObject({ method: 'GET', path: packagePath(''), operationId: 'getAuditPackage' });
    } finally {
      release();
      store.before = () => undefined;
      abandoned.mockRestore();
      stopped.mockRestore();
    }
  });

  it('cuts the connection when the store fails midway, so no client takes the archive for whole', async () => {
    const failed = vi.spyOn(logs, 'downloadFailed').mockImplementation(() => undefined);
    store.before = (call) => {
      if (call.name === period.batches[3]) throw new Error('the store is down');
    };
    try {
      const { answer, close } = await freshDownload();
      onTestFinished(close);
      expect(answer.status).toBe(200);
      await expect(answer.arrayBuffer()).rejects.toThrow('terminated');
      await until(
        'the failed download logged',
        async () => failed.mock.calls.length,
        (calls) => calls === 1,
      );
      expect(String(failed.mock.calls[0]![1])).toContain('the store is down');
    } finally {
      store.before = () => undefined;
      failed.mockRestore();
    }
  });

  it('leaves out an attachment whose bytes changed since submission, and lists it as unavailable', async () => {
    const tampered = vi.spyOn(logs, 'attachmentTampered').mockImplementation(() => undefined);
    const [first] = withAttachments();
    const original = await memory.read(first!.object);
    await memory.replace(first!.object, Buffer.from('not what was submitted'), original.info.generation);
    try {
      const zip = await unzip(Buffer.from(await (await download()).arrayBuffer()));
      expect(zip.files.has(first!.path)).toBe(false);
      const manifest = JSON.parse(utf8(zip.files.get('manifest.json'))) as {
        unavailable: unknown[];
        counts: { attachments: number };
      };
      expect(manifest.unavailable).toEqual([
        {
          path: first!.path,
          reason: `Its content no longer has the SHA-256 recorded at submission (${first!.attachment.sha256}).`,
        },
        verifierUnavailable,
      ]);
      expect(manifest.counts.attachments).toBe(withAttachments().length - 1);
      expect(tampered).toHaveBeenCalledTimes(1);
    } finally {
      tampered.mockRestore();
    }
  });
});
