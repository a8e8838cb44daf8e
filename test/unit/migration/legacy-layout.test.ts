/**
 * `npm test` runs one mode's integration tests on a store it rewrites into the layout before
 * partitions and then migrates. That is only honest if the rewrite leaves what the older version
 * itself left: here the demo seeded by today's code and rewritten is compared with the store the
 * older version wrote for the same days (test/fixtures/legacy-store).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import type { EvidenceItem, Report } from '../../../functions/src/assessment/model.ts';
import { seedDemoHistory } from '../../../scripts/lib/demo/seed.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { listNames } from '../../../functions/src/storage/object-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { recordsSource } from '../../../scripts/lib/demo/attestations.ts';
import { rewriteInLegacyLayout } from '../../../scripts/lib/legacy-layout.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { legacyObjects } from '../../support/legacy-store.ts';
import { demoSeedDependencies } from '../../support/demo-seed.ts';

/**
 * The older version's controls, as its reports name them: the demo is assessed over these alone,
 * as they were then (without the reconciliations of API 1.16.0).
 */
const legacyControls = new Set(
  legacyObjects()
    .filter(({ name }) => /^reports\/\d{4}-\d{2}-\d{2}\.json$/.test(name))
    .flatMap(({ data }) => (JSON.parse(data.toString()) as Report).controls.map((control) => control.id)),
);
const catalog = compileCatalogSources(paths.catalog);
const compiled = compileCatalog({
  ...catalog,
  controls: catalog.controls
    .filter((control) => legacyControls.has(control.id))
    .map(({ reconciliations: _reconciliations, ...control }) => control),
});

/**
 * A report as statuses and counts, without what is random per run (run ids, submission ids) or
 * newer than the older version (readiness per framework, API 1.4.0; overdue controls, 1.5.0;
 * scanner findings, 1.8.0).
 */
const shape = ({
  summary: { readiness: _readiness, overdue: _overdue, riskAccepted: _accepted, ...summary },
  ...report
}: Report) => ({
  date: report.date,
  summary,
  statuses: report.controls.map((control) => [
    control.id,
    control.status,
    control.findings.filter((finding) => finding.kind !== 'scanner.finding').length,
  ]),
  diff: report.diff,
});

describe('the store rewritten in the layout before partitions', () => {
  const rewritten = new Map<string, Buffer>();

  beforeAll(async () => {
    for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const) {
      vi.spyOn(logs, name).mockImplementation(() => undefined);
    }
    const store = new MemoryStore();
    await seedDemoHistory(
      demoSeedDependencies(store, compiled),
      // The fixture predates collection runs: its items carry no run, and every collector sent every subject.
      { today: '2026-11-23', timeZone: 'UTC', now: new Date('2026-11-23T12:00:00Z'), collectionRuns: false },
    );
    await rewriteInLegacyLayout(store, EvidenceStore);
    for (const name of await listNames(store, '')) rewritten.set(name, (await store.read(name)).data);
  });

  it('holds the same collector evidence, byte for byte, under the same names as the older version wrote', () => {
    const collected = (names: Iterable<string>) =>
      [...names].filter((name) => name.startsWith('evidence/items/') && !name.startsWith('evidence/items/sub-'));
    const legacy = new Map(legacyObjects().map((object) => [object.name, object.data]));
    // The demo's Prowler scan (API 1.8.0) is newer than the fixture; its items are named by their `ocsf-` ids.
    // So are the governance, risk, asset and physical security records, and their controls, and
    // the GitHub organisation's members (API 1.18.0).
    const newer = (item: EvidenceItem) => item.source === recordsSource || item.kind === 'repo.member';
    const ours = collected(rewritten.keys())
      .filter((name) => !name.startsWith('evidence/items/ocsf-'))
      .filter((name) => !newer(JSON.parse(rewritten.get(name)!.toString()) as EvidenceItem))
      .sort();
    // The fixture has one more: an item ingested with an Idempotency-Key after the demo.
    const theirs = collected(legacy.keys())
      .filter((name) => !name.startsWith('evidence/items/k-'))
      .sort();
    expect(ours).toEqual(theirs);
    for (const name of ours) expect(rewritten.get(name)!.toString()).toBe(legacy.get(name)!.toString());
  });

  it('holds the same submissions evidence, but for the ids each run draws at random', () => {
    const submitted = (objects: Iterable<[string, Buffer]>) =>
      [...objects]
        .filter(([name]) => name.startsWith('evidence/items/sub-'))
        .map(([, data]) => JSON.parse(data.toString()) as EvidenceItem)
        .map(({ id: _id, submissionId: _submissionId, data: { submissionId: _s, ...data }, attachments, ...item }) => ({
          ...item,
          data,
          attachments: attachments.map(({ href: _href, ...attachment }) => attachment),
        }));
    const legacy = legacyObjects().map((object): [string, Buffer] => [object.name, object.data]);
    expect(submitted(rewritten)).toEqual(submitted(legacy));
  });

  it('holds the same reports under the same names, with the same results', () => {
    const reports = (objects: Iterable<[string, Buffer]>) =>
      [...objects]
        .filter(([name]) => /^reports\/\d{4}-\d{2}-\d{2}\.json$/.test(name))
        .map(([name, data]) => [name, shape(JSON.parse(data.toString()) as Report)]);
    expect(reports(rewritten)).toEqual(reports(legacyObjects().map((object): [string, Buffer] => [object.name, object.data])));
  });

  it('holds nothing the older version did not write', () => {
    // Each report's control populations (API 1.16.0) are newer than the fixture but no part of the
    // partitioned layout: the rewrite keeps them with the reports that name them, as migrating does.
    const prefixes = new Set(
      [...rewritten.keys()].map((name) => name.split('/')[0]).filter((prefix) => prefix !== 'control-populations'),
    );
    expect([...prefixes].sort()).toEqual(['attachments', 'evidence', 'reports', 'submissions']);
    expect([...rewritten.keys()].filter((name) => name.startsWith('evidence/') && !name.startsWith('evidence/items/'))).toEqual(
      [],
    );
  });
});
