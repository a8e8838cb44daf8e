/**
 * The sources of collection runs (functions/src/runs/run-store.ts `sources`): a marker per
 * source written when its first run opens, a page of them in segment order each with its newest
 * run, and what a page costs — one listing of markers, then one listing and one run read per source,
 * never a listing of every run.
 */
import { describe, expect, it } from 'vitest';
import { RunStore } from '../../../functions/src/runs/run-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { RecordingStore } from '../../support/recording-store.ts';

const ada = { uid: 'u-ada', email: 'ada@example.com' };
const opened = new Date('2026-11-24T10:00:00Z');
const later = (hours: number) => new Date(opened.getTime() + hours * 3_600_000);

function setUp() {
  const store = new RecordingStore(new MemoryStore());
  const runs = new RunStore(
    store,
    () => 6,
    () => 10,
  );
  const open = (source: string, hours: number) => runs.open({ source, kinds: ['idp.user'], openedBy: ada }, later(hours));
  return { store, runs, open };
}

describe('the sources of collection runs', () => {
  it('writes one marker per source, named by its segment and holding its name', async () => {
    const { store, open } = setUp();
    await open('okta', 0);
    await open('okta', 1);
    await open('HR export', 2);
    expect(await store.list('runs-sources/')).toMatchObject({
      items: [
        { name: 'runs-sources/v-HR%20export.json', metadata: { source: 'HR%20export' } },
        { name: 'runs-sources/v-okta.json', metadata: { source: 'okta' } },
      ],
    });
    expect(JSON.parse((await store.read('runs-sources/v-HR%20export.json')).data.toString('utf8'))).toEqual({
      source: 'HR export',
    });
  });

  it('pages the sources in segment order, each with its newest run as it stands now', async () => {
    const { runs, open } = setUp();
    await open('okta', 0);
    const newestOkta = await open('okta', 1);
    const google = await open('google', 2);
    const hr = await open('HR export', 3);
    const first = await runs.sources({ limit: 2 }, later(8));
    expect(first).toEqual({
      items: [
        { source: 'HR export', newestRun: { ...hr, status: 'running' } },
        { source: 'google', newestRun: { ...google, status: 'incomplete', incompleteReason: 'abandoned' } },
      ],
      hasMore: true,
      next: 'v-google',
    });
    const second = await runs.sources({ limit: 2, after: first.next! }, later(8));
    expect(second).toEqual({
      items: [{ source: 'okta', newestRun: { ...newestOkta, status: 'incomplete', incompleteReason: 'abandoned' } }],
      hasMore: false,
    });
  });

  it('is empty before any run opens', async () => {
    const { runs } = setUp();
    expect(await runs.sources({ limit: 20 }, opened)).toEqual({ items: [], hasMore: false });
  });

  it('costs one listing of markers, and one listing and one run read per source shown', async () => {
    const { store, runs, open } = setUp();
    for (let hour = 0; hour < 5; hour++) await open('okta', hour);
    const google = await open('google', 5);
    store.reset();
    await runs.sources({ limit: 1 }, later(5));
    expect(store.of('list')).toEqual(['runs-sources/', 'runs-index/source/v-google/']);
    expect(store.of('read').sort()).toEqual([`runs/${google.id}/end.json`, `runs/${google.id}/run.json`]);
    expect(store.of('create')).toEqual([]);
  });
});
