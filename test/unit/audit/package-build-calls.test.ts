/**
 * The object calls of a background package build over the demo's history (14 days, with
 * collection runs), recorded by name: the sources of collection runs are listed once for the
 * period, not once a day, and the build's events are written without reading the log again
 * before each (one read finds where it stands).
 */
import { describe, expect, it } from 'vitest';
import { buildPackage } from '../../../functions/src/audit/build-package.ts';
import { PackageBuilds } from '../../../functions/src/audit/package-builds.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { listNames } from '../../../functions/src/storage/object-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { sourcesPrefix } from '../../../functions/src/runs/run-layout.ts';
import type { ObjectStore } from '../../../functions/src/storage/object-store.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { demoPackage, demoToday } from '../../support/demo-package.ts';

/** The store, recording each call's kind and object name (or listed prefix). */
function recording(inner: ObjectStore): { store: ObjectStore; calls: string[] } {
  const calls: string[] = [];
  const store: ObjectStore = {
    read: (name) => (calls.push(`read ${name}`), inner.read(name)),
    stat: (name) => (calls.push(`stat ${name}`), inner.stat(name)),
    create: (name, data, options) => (calls.push(`create ${name}`), inner.create(name, data, options)),
    replace: (name, data, generation, options) => (calls.push(`replace ${name}`), inner.replace(name, data, generation, options)),
    delete: (name, options) => (calls.push(`delete ${name}`), inner.delete(name, options)),
    list: (prefix, options) => (calls.push(`list ${prefix}`), inner.list(prefix, options)),
  };
  return { store, calls };
}

describe('a package built in the background', () => {
  it('lists runs’ sources once for the period and reads no event before writing the next', async () => {
    const { store, dates } = await demoPackage(Buffer.from('// verifier'));
    const catalog = compileCatalogSources(paths.catalog);
    const now = new Date(`${demoToday}T12:00:00Z`);
    const record = await new PackageBuilds(store, () => 14).open(
      { from: dates[0]!, to: dates.at(-1)!, fingerprint: '000000000000' },
      { uid: 'test' },
      now,
    );
    const { store: counted, calls } = recording(store);
    const sources = {
      store: counted,
      catalog,
      reports: new ReportStore(counted),
      evidence: new EvidenceStore(counted),
      verifierScript: async () => Buffer.from('// verifier'),
      now: () => now,
      timeZone: () => 'UTC',
    };
    await buildPackage(sources, record);

    const events = await listNames(store, `audit/events/${record.id}/`);
    const parts = await listNames(store, `audit/parts/${record.id}/1/`);
    expect(calls.filter((call) => call === `list ${sourcesPrefix}`)).toHaveLength(1);
    // The first event's name, read once before the build starts (nothing there yet).
    expect(calls.filter((call) => call.startsWith(`read audit/events/${record.id}/`))).toEqual([
      `read audit/events/${record.id}/000001.json`,
    ]);
    // Each event and part written once, nothing rewritten or deleted.
    expect(calls.filter((call) => !/^(read|list) /.test(call)).sort()).toEqual(
      [...events, ...parts].map((name) => `create ${name}`).sort(),
    );
    expect(events).toHaveLength(4);
    expect(parts).toHaveLength(1);
  }, 120_000);
});
