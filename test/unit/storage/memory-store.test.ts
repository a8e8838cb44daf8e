/**
 * The in-memory store: the conformance suite, then what benchmarks with millions of objects
 * rely on — names inserted in any order list in order from any offset, and the counts of
 * objects and bytes stay right.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { listNames } from '../../../functions/src/storage/object-store.ts';
import { objectStoreConformance } from './conformance.ts';

/** A seeded pseudo-random number generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(values: T[], seed: number): T[] {
  const next = random(seed);
  const result = [...values];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

const indexName = (i: number) => `index/${String(i).padStart(6, '0')}`;

describe('MemoryStore', () => {
  const store = new MemoryStore();
  objectStoreConformance(async () => store);
});

describe('MemoryStore with many objects', () => {
  it('lists a page from the middle of 200,000 names inserted in random order', async () => {
    const store = new MemoryStore();
    const names = Array.from({ length: 200_000 }, (_, i) => indexName(i));
    for (const name of shuffled(names, 1)) await store.create(name, '', { metadata: { evidenceId: name.slice(6) } });

    const page = await store.list('index/', { startOffset: indexName(100_000), pageSize: 3 });
    expect(page.items.map((item) => [item.name, item.size, item.metadata])).toEqual([
      ['index/100000', 0, { evidenceId: '100000' }],
      ['index/100001', 0, { evidenceId: '100001' }],
      ['index/100002', 0, { evidenceId: '100002' }],
    ]);
    const next = await store.list('index/', { startOffset: indexName(100_000), pageSize: 3, pageToken: page.nextPageToken! });
    expect(next.items.map((item) => item.name)).toEqual(['index/100003', 'index/100004', 'index/100005']);
    const last = await store.list('index/', { startOffset: indexName(199_998), pageSize: 3 });
    expect(last).toMatchObject({ items: [{ name: 'index/199998' }, { name: 'index/199999' }] });
    expect(last.nextPageToken).toBeUndefined();
    expect(store.size()).toBe(200_000);
    expect(store.bytes()).toBe(0);
  });

  it('keeps every name in order when inserts keep arriving at the front', async () => {
    const store = new MemoryStore();
    for (let i = 4999; i >= 0; i--) await store.create(indexName(i), 'x');
    expect(await listNames(store, 'index/')).toEqual(Array.from({ length: 5000 }, (_, i) => indexName(i)));
  });

  it('agrees with a sorted list of names through random creates and deletes', async () => {
    const store = new MemoryStore();
    const next = random(7);
    const expected = new Set<string>();
    for (let step = 0; step < 20_000; step++) {
      const name = indexName(Math.floor(next() * 5000));
      if (expected.has(name)) {
        await store.delete(name);
        expected.delete(name);
      } else {
        await store.create(name, 'ab');
        expected.add(name);
      }
    }
    expect(await listNames(store, 'index/')).toEqual([...expected].sort());
    expect(store.size()).toBe(expected.size);
    expect(store.bytes()).toBe(2 * expected.size);
  });

  it('empties when every object is deleted, and fills again', async () => {
    const store = new MemoryStore();
    const names = Array.from({ length: 3000 }, (_, i) => indexName(i));
    for (const name of names) await store.create(name, 'x');
    for (const name of shuffled(names, 3)) await store.delete(name);
    expect([await store.list(''), store.size(), store.bytes()]).toEqual([{ items: [] }, 0, 0]);
    for (const name of shuffled(names, 4)) await store.create(name, 'x');
    expect(await listNames(store, '')).toEqual(names);
  });

  it('counts data bytes through create, replace and delete', async () => {
    const store = new MemoryStore();
    const created = await store.create('a', 'four');
    await store.create('b', Buffer.alloc(10));
    await store.replace('a', 'sixsix', created.generation);
    expect([store.size(), store.bytes()]).toEqual([2, 16]);
    await store.delete('b');
    expect([store.size(), store.bytes()]).toEqual([1, 6]);
  });

  it('keeps its bytes apart from the buffers written and read', async () => {
    const store = new MemoryStore();
    const written = Buffer.from('abc');
    await store.create('a', written);
    written[0] = 0x7a;
    const { data } = await store.read('a');
    data[1] = 0x7a;
    expect((await store.read('a')).data.toString()).toBe('abc');
  });
});
