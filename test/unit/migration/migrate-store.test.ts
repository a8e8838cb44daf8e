/**
 * The migration from the layout before partitions, on a store written by that version's own
 * code (test/fixtures/legacy-store): everything it held is served as before, it reads and
 * evaluates on the new layout, and running it twice — or again after it was cut off at any
 * point — ends with the same store.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AnalysisStore } from '../../../functions/src/analyses/analysis-store.ts';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { compileCatalog, evaluate } from '../../../functions/src/assessment/evaluate.ts';
import type { EvidenceItem, Report } from '../../../functions/src/assessment/model.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { listEvidence } from '../../../functions/src/evidence/evidence-listing.ts';
import { logs } from '../../../functions/src/logs.ts';
import { hasLegacyLayout, migrateStore, type MigrationResult } from '../../../functions/src/migration/migrate-store.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { listNames, type ObjectStore } from '../../../functions/src/storage/object-store.ts';
import { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { everyItem } from '../../support/every-item.ts';
import { legacyObjects, loadLegacyStore, type LegacyObject } from '../../support/legacy-store.ts';
import { RecordingStore } from '../../support/recording-store.ts';

const compiled = compileCatalog(compileCatalogSources(paths.catalog));
const now = new Date('2026-11-24T07:00:00Z');
const legacy = legacyObjects();
const legacyItems = legacy
  .filter((object) => object.name.startsWith('evidence/items/'))
  .map((object) => JSON.parse(object.data.toString('utf8')) as EvidenceItem);
const legacyReports = legacy.filter((object) => /^reports\/\d{4}-\d{2}-\d{2}\.json$/.test(object.name));

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
const migrate = (store: ObjectStore) => migrateStore({ store, now, timeZone: 'UTC' });

/** What a store serves, independent of the random names of its batches and checkpoints. */
async function contents(store: ObjectStore) {
  const stable = (await listNames(store, '')).filter(
    (name) => !name.startsWith('evidence/received=') && !name.startsWith('state/') && !name.startsWith('evidence-index/indexed/'),
  );
  const bytes = await Promise.all(stable.map(async (name) => [name, (await store.read(name)).data.toString('base64')]));
  return { objects: Object.fromEntries(bytes), items: (await everyItem(store)).sort(byId) };
}

beforeAll(() => {
  for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const) {
    vi.spyOn(logs, name).mockImplementation(() => undefined);
  }
});

describe('migrating a store of the layout before partitions', () => {
  let store: MemoryStore;
  let result: MigrationResult;

  beforeAll(async () => {
    store = new MemoryStore();
    await loadLegacyStore(store);
    expect(await hasLegacyLayout(store)).toBe(true);
    result = await migrate(store);
  });

  it('moves every item, key, report and index, and says so', () => {
    expect(result).toEqual({
      evidence: { moved: legacyItems.length, alreadyMoved: 0, conflicts: [] },
      keys: 1,
      reports: { moved: 14, keptNewer: [] },
      submissionsIndexed: 2,
      runsIndexed: 1,
      checkpoint: { date: '2026-11-24', items: expect.any(Number) },
      exceptions: { exceptions: 0, controls: 0 },
    });
  });

  it('leaves nothing in the old layout', async () => {
    expect(await hasLegacyLayout(store)).toBe(false);
    expect((await store.list('evidence/items/')).items).toEqual([]);
    expect((await store.list('evidence/idempotency/')).items).toEqual([]);
  });

  it('keeps every item byte for byte, each in the partition of the UTC day it was received', async () => {
    const items = (await everyItem(store)).sort(byId);
    expect(items).toEqual([...legacyItems].sort(byId));
    for await (const batch of new EvidenceStore(store).batchesBetween(-Infinity, Infinity)) {
      for (const item of await new EvidenceStore(store).readBatch(batch)) {
        expect(batch.startsWith(`evidence/received=${item.receivedAt.slice(0, 10)}/`)).toBe(true);
      }
    }
    const evidence = new EvidenceStore(store);
    for (const object of legacy.filter((each) => each.name.startsWith('evidence/items/')).slice(0, 50)) {
      const item = JSON.parse(object.data.toString('utf8')) as EvidenceItem;
      expect(JSON.stringify(await evidence.get(item.id))).toBe(object.data.toString('utf8'));
    }
  });

  it('serves each report with the same bytes, and lists the days from metadata alone', async () => {
    const reports = new ReportStore(store);
    for (const object of legacyReports) {
      const date = object.name.slice('reports/'.length, -'.json'.length);
      expect((await reports.find(date))!.bytes.equals(object.data)).toBe(true);
    }
    const recording = new RecordingStore(store);
    const listing = await new ReportStore(recording).list();
    expect(recording.of('read')).toEqual([]);
    expect(listing).toEqual(
      legacyReports.map((object) => {
        const report = JSON.parse(object.data.toString('utf8')) as Report;
        return { date: report.date, generatedAt: report.generatedAt, summary: report.summary };
      }),
    );
  });

  it('lists the moved evidence, submissions and analysis runs', async () => {
    const evidence = new EvidenceStore(store);
    const page = await listEvidence(store, evidence, { kind: 'idp.user', limit: 500 });
    expect(page.items.map((item) => item.id).sort()).toEqual(
      legacyItems
        .filter((item) => item.kind === 'idp.user')
        .map((item) => item.id)
        .sort(),
    );
    const submissions = await new SubmissionStore(store, evidence).page({ limit: 10 });
    expect(submissions.items.map((submission) => submission.id).sort()).toEqual(
      legacy
        .filter((object) => /^submissions\/.+\.json$/.test(object.name))
        .map((object) => object.name.slice(12, -5))
        .sort(),
    );
    const runs = await new AnalysisStore(store).page({ limit: 10, now });
    expect(runs.items.map((run) => [run.state, run.progress])).toEqual([['succeeded', { evaluated: 2, total: 2 }]]);
  });

  it('answers a retried Idempotency-Key from before with the first answer', async () => {
    const keyed = legacyItems.find((item) => item.subject === 'legacy.acme.example')!;
    const { id: _id, receivedAt: _receivedAt, attachments: _attachments, ...input } = keyed;
    const outcomes = await new EvidenceStore(store).ingest([input], {
      receivedAt: now,
      idempotencyKey: 'legacy-key-0001',
    });
    expect(outcomes).toEqual([{ id: keyed.id, status: 'created' }]);
  });

  it('makes the next daily report from the rebuilt checkpoint, equal to evaluating every item', async () => {
    const recording = new RecordingStore(store);
    const { stored } = await produceDailyReport({
      store: recording,
      catalog: compiled,
      timeZone: 'UTC',
      now: new Date('2026-11-24T09:00:00Z'),
      trigger: 'test',
    });
    expect(recording.of('read').filter((name) => name.startsWith('evidence/'))).toEqual([]);
    const previous = JSON.parse(legacyReports.at(-1)!.data.toString('utf8')) as Report;
    const full = evaluate(compiled, {
      date: '2026-11-24',
      timeZone: 'UTC',
      asOf: new Date('2026-11-24T09:00:00Z'),
      generatedAt: new Date('2026-11-24T09:00:00Z'),
      runId: stored.report.runId,
      evidence: legacyItems,
      previous,
    });
    expect(stored.bytes.toString('utf8')).toBe(JSON.stringify(full));
  });
});

describe('running the migration again', () => {
  it('twice ends with the same store, and the second run moves nothing', async () => {
    const once = new MemoryStore();
    await loadLegacyStore(once);
    await migrate(once);
    const twice = new MemoryStore();
    await loadLegacyStore(twice);
    await migrate(twice);
    const second = await migrate(twice);
    expect(second.evidence).toEqual({ moved: 0, alreadyMoved: 0, conflicts: [] });
    expect(second.reports).toEqual({ moved: 0, keptNewer: [] });
    expect(await contents(twice)).toEqual(await contents(once));
  });

  it.each([25, 400, 1_500, 4_000, 9_000])(
    'after being cut off at operation %i, ends with the same store as one uninterrupted run',
    async (cutAt) => {
      const reference = new MemoryStore();
      await loadLegacyStore(reference);
      await migrate(reference);

      const inner = new MemoryStore();
      await loadLegacyStore(inner);
      const dying = new RecordingStore(inner);
      dying.before = () => {
        if (dying.calls.length === cutAt) throw new Error('cut off');
      };
      await expect(migrate(dying)).rejects.toThrow('cut off');
      expect(dying.calls.length).toBeGreaterThanOrEqual(cutAt);
      await migrate(inner);
      expect(await contents(inner)).toEqual(await contents(reference));
    },
  );

  it('leaves an item whose id was stored since with other content where it is, and reports it', async () => {
    const store = new MemoryStore();
    const objects: LegacyObject[] = await loadLegacyStore(store);
    const victim = JSON.parse(
      objects.find((object) => object.name.startsWith('evidence/items/'))!.data.toString('utf8'),
    ) as EvidenceItem;
    const { receivedAt: _receivedAt, attachments: _attachments, ...changed } = { ...victim, subject: 'changed meanwhile' };
    await new EvidenceStore(store).ingest([changed], { receivedAt: now });
    const result = await migrate(store);
    expect(result.evidence.conflicts).toEqual([victim.id]);
    expect(result.evidence.moved).toBe(legacyItems.length - 1);
    expect((await store.list('evidence/items/')).items.map((info) => info.name)).toEqual([`evidence/items/${victim.id}.json`]);
    expect((await new EvidenceStore(store).get(victim.id)).subject).toBe('changed meanwhile');
  });
});
