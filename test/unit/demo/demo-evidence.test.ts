/**
 * The demo history: deterministic, valid against the API's own schemas, and — seeded through
 * the real stores and daily job — a fortnight of reports with a story: every status on the last
 * day, a score that moves, and a control that fails and is then fixed. Its collectors send
 * through collection runs, one abandoned yesterday (its collector not run since) and one with a
 * population drop today;
 * without runs, it is the history as it was before them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildDocument } from '../../../openapi/document.ts';
import { evidenceIdPattern } from '@evident/contract';
import { uploadLimits } from '@evident/contract/upload-limits';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import type { ControlStatus, Report } from '../../../functions/src/assessment/model.ts';
import { demoHistory } from '../../../scripts/lib/demo/demo-evidence.ts';
import { seedDemoHistory, type SeedResult } from '../../../scripts/lib/demo/seed.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { RunStore } from '../../../functions/src/runs/run-store.ts';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { everyItem } from '../../support/every-item.ts';
import { demoSeedDependencies } from '../../support/demo-seed.ts';

const today = '2026-03-14';
const now = new Date('2026-03-14T15:30:00Z');
const catalog = compileCatalogSources(paths.catalog);
const controlIds = new Set(catalog.controls.map((control) => control.id));

/** Validates an item as `POST /api/evidence` would: the envelope and its kind's `data`. */
function evidenceValidator() {
  const document = buildDocument();
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  const defs = JSON.parse(
    JSON.stringify(document.components?.schemas ?? {}).replaceAll('"#/components/schemas/', '"components.json#/$defs/'),
  ) as Record<string, unknown>;
  ajv.addSchema({ $id: 'components.json', $defs: defs });
  const compiled = ajv.compile({ $ref: 'components.json#/$defs/EvidenceInput' });
  return { validate: (item: unknown): boolean => compiled(item), errors: () => ajv.errorsText(compiled.errors) };
}

describe('demoHistory', () => {
  const history = demoHistory(today, 14, { now });
  const items = history.flatMap((day) => day.evidence);

  it('is the same for the same day, and spans the days before it', () => {
    expect(demoHistory(today, 14, { now })).toEqual(history);
    expect(demoHistory(today)).toEqual(demoHistory(today));
    expect(history.map((day) => day.date)).toEqual(
      Array.from({ length: 14 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`),
    );
    for (const day of history) {
      for (const item of day.evidence) expect(item.collectedAt.slice(0, 10)).toBe(day.date);
      for (const submission of day.submissions) expect(submission.submittedAt.slice(0, 10)).toBe(day.date);
    }
  });

  it('sends only items the API accepts', () => {
    const { validate, errors } = evidenceValidator();
    const invalid = items.flatMap((item) => (validate(item) ? [] : [`${item.id}: ${errors()}`])).slice(0, 5);
    expect(invalid).toEqual([]);
    expect(new Set(items.map((item) => item.kind)).size).toBe(21);
  });

  it('gives every item a unique id of the allowed shape', () => {
    const ids = items.map((item) => item.id!);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(new RegExp(evidenceIdPattern));
  });

  it('attests and submits only for controls of the catalog, with files the upload would accept', () => {
    const named = [
      ...items.flatMap((item) => item.controls ?? []),
      ...history.flatMap((day) => day.submissions.flatMap((submission) => submission.controls)),
    ];
    expect(named.filter((id) => !controlIds.has(id))).toEqual([]);
    const submissions = history.flatMap((day) => day.submissions);
    expect(new Set(history.filter((day) => day.submissions.length > 0).map((day) => day.date)).size).toBe(2);
    for (const submission of submissions) {
      expect(submission.files.length).toBeGreaterThan(0);
      for (const file of submission.files) {
        expect(uploadLimits.mediaTypes).toContain(file.mediaType);
        expect(file.data.length).toBeGreaterThan(0);
      }
    }
  });

  it('never collects in the future on the current day', () => {
    const { validate } = evidenceValidator();
    for (const at of ['2026-03-14T00:00:30Z', '2026-03-14T01:10:00Z', '2026-03-14T04:00:00Z']) {
      const clock = new Date(at);
      const last = demoHistory(today, 14, { now: clock }).at(-1)!;
      for (const item of last.evidence) expect(Date.parse(item.collectedAt)).toBeLessThan(clock.getTime());
      // Derived ages stay valid when collections are squeezed before the nightly backups.
      for (const item of last.evidence) expect(validate(item)).toBe(true);
    }
  });
});

describe('seeding the demo history', () => {
  let dir: string;
  let store: LocalFolderStore;
  let reports: ReportStore;
  let submissions: SubmissionStore;
  let runs: RunStore;
  let result: SeedResult;
  let history: Report[];

  beforeAll(async () => {
    vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
    vi.spyOn(logs, 'reportAlreadyExists').mockImplementation(() => undefined);
    dir = await mkdtemp(join(tmpdir(), 'evident-demo-'));
    store = new LocalFolderStore(dir);
    const evidence = new EvidenceStore(store);
    reports = new ReportStore(store);
    submissions = new SubmissionStore(store, evidence);
    runs = new RunStore(
      store,
      () => 6,
      () => 10,
    );
    result = await seedDemoHistory(
      { store, evidence, reports, submissions, runs, catalog: compileCatalog(catalog), produceDailyReport },
      { today, timeZone: 'UTC', now },
    );
    history = await Promise.all((await reports.dates()).map(async (date) => (await reports.find(date))!.report));
  }, 60_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores fourteen daily reports, the last one as of now', () => {
    expect(result).toMatchObject({ seeded: true, days: 14, reports: 14, submissions: 2, from: '2026-03-01', to: today });
    expect(history.map((report) => report.date)).toEqual(demoHistory(today).map((day) => day.date));
    expect(history.at(-1)!.asOf).toBe(now.toISOString());
    expect(history[0]!.asOf).toBe('2026-03-02T00:00:00.000Z');
  });

  it('ends with every status, and a score in the demo range', () => {
    const last = history.at(-1)!;
    const statuses = new Set(last.controls.map((control) => control.status));
    const all: ControlStatus[] = ['passing', 'failing', 'stale', 'missing', 'not_applicable'];
    expect([...statuses].sort()).toEqual([...all].sort());
    expect(result.seeded && result.score).toBe(last.summary.score);
    expect(last.summary.score).toBeGreaterThanOrEqual(60);
    expect(last.summary.score).toBeLessThanOrEqual(80);
  });

  it('has the governance, risk, asset and physical security records attested, but for a review not yet done and a risk assessment a year old', () => {
    const families = ['governance', 'risk-management', 'asset-management', 'physical-security'];
    const records = history.at(-1)!.controls.filter((control) => families.includes(control.family));
    expect(records).toHaveLength(14);
    expect(records.filter((control) => control.status !== 'passing').map((control) => [control.id, control.status])).toEqual([
      ['GOV-03', 'missing'],
      ['RSK-02', 'stale'],
    ]);
    expect(history.filter((report) => report.diff.newlyStale.includes('RSK-02')).map((report) => report.date)).toEqual([
      '2026-03-13',
    ]);
  });

  it('has a score that dips and recovers', () => {
    const scores = history.map((report) => report.summary.score);
    expect(new Set(scores).size).toBeGreaterThan(3);
    const lowest = Math.min(...scores);
    const lowestAt = scores.indexOf(lowest);
    expect(lowestAt).toBeGreaterThan(0);
    expect(Math.max(...scores.slice(lowestAt))).toBeGreaterThan(lowest);
  });

  it('shows a control failing and later fixed', () => {
    const failedOn = new Map<string, number>();
    const fixedLater: string[] = [];
    history.forEach((report, index) => {
      for (const id of report.diff.fixed) if ((failedOn.get(id) ?? index) < index) fixedLater.push(id);
      for (const id of report.diff.newlyFailing) failedOn.set(id, index);
    });
    expect(fixedLater).toContain('IAM-01');
    expect(history.some((report) => report.diff.newlyStale.length > 0)).toBe(true);
  });

  it('keeps the submissions and their files', async () => {
    const { items: stored } = await submissions.page({ limit: 200 });
    expect(stored).toHaveLength(2);
    for (const submission of stored) {
      expect(submission.attachments).toHaveLength(1);
      expect((await submissions.attachment(submission.id, 0)).length).toBe(submission.attachments[0]!.size);
    }
  });

  it('leaves a store that already has reports alone', async () => {
    const evidence = new EvidenceStore(store);
    const again = await seedDemoHistory(
      {
        store,
        evidence,
        reports,
        submissions: new SubmissionStore(store, evidence),
        runs,
        catalog: compileCatalog(catalog),
        produceDailyReport,
      },
      { today: '2026-03-20', timeZone: 'UTC', now: new Date('2026-03-20T12:00:00Z') },
    );
    expect(again).toEqual({ seeded: false });
    expect(await reports.dates()).toHaveLength(14);
  });

  describe('through collection runs', () => {
    const collectors = [
      'access-review-collector',
      'backup-collector',
      'ci-collector',
      'gcp-collector',
      'github-collector',
      'grc-collector',
      'hris-collector',
      'kms-collector',
      'lms-collector',
      'mdm-collector',
      'okta-collector',
      'tls-scanner',
      'vuln-scanner',
    ];
    /** Every run of every collector, each source's newest first. */
    const allRuns = async () =>
      (await Promise.all(collectors.map(async (source) => (await runs.page({ source, limit: 100 }, now)).items))).flat();

    it('opens a run for each collector on every day it reports, and none for the Prowler import or the attestations', async () => {
      // The HR collector crashed yesterday and has not run since: thirteen days of runs.
      const sources = await runs.sources({ limit: 100 }, now);
      expect(sources.items.map((source) => source.source)).toEqual(collectors);
      expect(sources.hasMore).toBe(false);
      const days = (source: string, count: number) =>
        Array.from({ length: count }, (_, index) => `2026-03-${String(index + 1).padStart(2, '0')}`)
          .reverse()
          .map((date) => [source, date]);
      // The KMS and access-review collectors post for the last time on day 4.
      const expected = collectors.flatMap((source) =>
        days(source, source.startsWith('kms') || source.startsWith('access') ? 4 : source === 'hris-collector' ? 13 : 14),
      );
      const opened = await allRuns();
      expect(opened.map((run) => [run.source, run.openedAt.slice(0, 10)])).toEqual(expected);
      expect(result.seeded && result.runs).toBe(10 * 14 + 13 + 2 * 4);
      for (const run of opened)
        expect(run.openedBy).toEqual({ uid: run.source, email: `${run.source}@acme-prod.iam.gserviceaccount.com` });
    });

    it('completes every run with the counts sent, but the HR collector\u2019s on the day it crashed, which is abandoned', async () => {
      const opened = await allRuns();
      const unfinished = opened.filter((run) => run.status !== 'complete');
      expect(unfinished.map((run) => [run.source, run.openedAt.slice(0, 10), run.status, run.incompleteReason])).toEqual([
        ['hris-collector', '2026-03-13', 'incomplete', 'abandoned'],
      ]);
      const [abandoned] = unfinished;
      expect(Date.parse(abandoned!.expiresAt) - Date.parse(abandoned!.openedAt)).toBe(6 * 3_600_000);
      expect(abandoned!.endedAt).toBeUndefined();
      for (const run of opened.filter((run) => run.status === 'complete')) {
        expect(run.declared).toEqual(run.received);
        expect(Date.parse(run.endedAt!)).toBeLessThan(Date.parse(run.expiresAt));
      }
      const ofToday = opened.filter((run) => run.openedAt.startsWith(today));
      expect(ofToday).toHaveLength(10);
      for (const run of ofToday) expect(Date.parse(run.endedAt!)).toBeLessThanOrEqual(now.getTime());
    });

    it('stores the five people the HR collector sent before it crashed, under its run, and no other since', async () => {
      const [abandoned] = (await allRuns()).filter((run) => run.status !== 'complete');
      const sent = (await everyItem(store)).filter(
        (item) => item.source === 'hris-collector' && item.collectedAt >= '2026-03-13',
      );
      expect(sent.map((item) => item.subject)).toEqual(
        ['maya.chen', 'liam.oconnor', 'amara.okafor', 'sofia.rossi', 'noah.williams'].map((handle) => `${handle}@acme.example`),
      );
      for (const item of sent) expect(item.runId).toBe(abandoned!.id);
    });

    it('completes today\u2019s GitHub run without the two repositories its token lost: a drop of a third, awaiting acknowledgement', async () => {
      const [todays, yesterdays] = (await runs.page({ source: 'github-collector', limit: 2 }, now)).items;
      expect([todays!.openedAt.slice(0, 10), yesterdays!.openedAt.slice(0, 10)]).toEqual([today, '2026-03-13']);
      expect([todays!.status, todays!.declared, todays!.received]).toEqual([
        'complete',
        { 'repo.branch_protection': 4, 'repo.member': 6 },
        { 'repo.branch_protection': 4, 'repo.member': 6 },
      ]);
      expect(todays!.drops).toEqual([
        { kind: 'repo.branch_protection', previousRunId: yesterdays!.id, previousCount: 6, count: 4, percent: 33.3 },
      ]);
      expect((await runs.population(todays!.id, 'repo.branch_protection')).subjects).toEqual([
        'acme/api',
        'acme/billing-service',
        'acme/infrastructure',
        'acme/web-app',
      ]);
      expect((await allRuns()).filter((run) => run.drops).map((run) => run.id)).toEqual([todays!.id]);
    });

    it('sends every collected item under its collector\u2019s run, and the imports and attestations without one', async () => {
      const sources = new Map((await allRuns()).map((run) => [run.id, run.source]));
      const items = await everyItem(store);
      const runless = items.filter((item) => item.runId === undefined);
      expect([...new Set(runless.map((item) => item.kind))].sort()).toEqual(['attestation', 'scanner.finding']);
      for (const item of items.filter((item) => item.runId !== undefined)) expect(sources.get(item.runId!)).toBe(item.source);
      // All but the seven people the HR collector did not send yesterday, everyone it did not send
      // today, and the two repositories out of reach.
      const days = demoHistory(today, 14, { now });
      const hrToday = days.at(-1)!.evidence.filter((item) => item.source === 'hris-collector').length;
      expect(hrToday).toBeGreaterThan(0);
      expect(result.seeded && result.evidence).toBe(days.flatMap((day) => day.evidence).length - 7 - hrToday - 2);
    });
  });
});

describe('seeding the demo history without collection runs', () => {
  it('opens no run and sends every item of every day, as before runs', async () => {
    vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
    vi.spyOn(logs, 'evidenceSnapshotLoaded').mockImplementation(() => undefined);
    const store = new MemoryStore();
    const result = await seedDemoHistory(
      demoSeedDependencies(store, compileCatalog(catalog)),
      // Four days: the HR collector's crash yesterday and today's drop are among them.
      { today, timeZone: 'UTC', now, days: 4, collectionRuns: false },
    );
    vi.restoreAllMocks();
    expect(result).toMatchObject({ seeded: true, days: 4, runs: 0 });
    expect(result.seeded && result.evidence).toBe(demoHistory(today, 4, { now }).flatMap((day) => day.evidence).length);
    for (const prefix of ['runs/', 'runs-index/', 'runs-sources/', 'populations-index/']) {
      expect((await store.list(prefix)).items).toEqual([]);
    }
    expect((await everyItem(store)).filter((item) => item.runId !== undefined)).toEqual([]);
  }, 60_000);
});
