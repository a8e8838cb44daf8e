/**
 * The latency wrapper benchmarks measure with: what calls cost in virtual time, in flight
 * together or one after another, what it counts, and that it changes nothing else about the
 * store it wraps (the conformance suite, around a memory store).
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { ObjectNotFound, PreconditionFailed } from '../../../functions/src/storage/object-store.ts';
import { LatencyStore } from '../../../scripts/lib/latency-store.ts';
import { objectStoreConformance } from './conformance.ts';

describe('LatencyStore around a MemoryStore', () => {
  objectStoreConformance(async () => new LatencyStore(new MemoryStore()));
});

describe('LatencyStore', () => {
  it('takes 3 × 25 ms of virtual time for 250 parallel reads through 100 slots', async () => {
    const inner = new MemoryStore();
    await inner.create('doc', 'x');
    const store = new LatencyStore(inner);
    const reads = await Promise.all(Array.from({ length: 250 }, () => store.read('doc')));
    expect(reads.map(({ data }) => data.toString())).toEqual(Array(250).fill('x'));
    expect(store.elapsedMs).toBe(75);
  });

  it('charges 32 × 25 ms for 1,000 reads made 32 at a time', async () => {
    const inner = new MemoryStore();
    await inner.create('doc', 'x');
    const store = new LatencyStore(inner);
    for (let start = 0; start < 1000; start += 32)
      await Promise.all(Array.from({ length: Math.min(32, 1000 - start) }, () => store.read('doc')));
    expect(store.elapsedMs).toBe(32 * 25);
  });

  it('adds up the latency of calls awaited one after another', async () => {
    const store = new LatencyStore(new MemoryStore(), { latencyMs: 40 });
    const created = await store.create('doc', 'v1');
    await store.replace('doc', 'v2', created.generation);
    await store.read('doc');
    await store.delete('doc');
    expect(store.elapsedMs).toBe(160);
  });

  it('starts waiting calls in the order they were made', async () => {
    const store = new LatencyStore(new MemoryStore(), { maxInFlight: 1 });
    const settled: string[] = [];
    await Promise.allSettled(
      ['first', 'second', 'third'].map((data) =>
        store.create('doc', data).then(
          () => settled.push(`${data} created`),
          () => settled.push(`${data} refused`),
        ),
      ),
    );
    expect(settled).toEqual(['first created', 'second refused', 'third refused']);
    expect(store.elapsedMs).toBe(75);
  });

  it('reaches the inner store only when the call completes', async () => {
    const inner = new MemoryStore();
    const store = new LatencyStore(inner);
    const creating = store.create('doc', 'x');
    await expect(inner.stat('doc')).rejects.toBeInstanceOf(ObjectNotFound);
    await creating;
    expect((await inner.read('doc')).data.toString()).toBe('x');
  });

  it('answers ObjectNotFound and PreconditionFailed after the latency', async () => {
    const store = new LatencyStore(new MemoryStore());
    await expect(store.read('missing')).rejects.toBeInstanceOf(ObjectNotFound);
    expect(store.elapsedMs).toBe(25);
    await store.create('doc', 'x');
    await expect(store.create('doc', 'y')).rejects.toBeInstanceOf(PreconditionFailed);
    expect(store.elapsedMs).toBe(75);
  });

  it('counts calls by kind, failed ones included', async () => {
    const store = new LatencyStore(new MemoryStore());
    const created = await store.create('a', 'x');
    await store.replace('a', 'y', created.generation);
    await Promise.all([store.read('a'), store.read('a'), store.stat('a'), store.list('')]);
    await expect(store.read('missing')).rejects.toBeInstanceOf(ObjectNotFound);
    await store.delete('a');
    expect(store.counts).toEqual({ read: 3, stat: 1, create: 1, replace: 1, delete: 1, list: 1 });
  });

  it('charges a read whose metadata headers cannot carry as two requests, one after the other, as the driver makes them', async () => {
    const inner = new MemoryStore();
    await inner.create('plain', 'x', { metadata: { batch: 'b1' } });
    await inner.create('accented', 'x', { metadata: { subject: 'évidence' } });
    const store = new LatencyStore(inner);
    await store.read('plain');
    expect([store.counts.read, store.requests.read, store.elapsedMs]).toEqual([1, 1, 25]);
    await store.read('accented');
    expect([store.counts.read, store.requests.read, store.elapsedMs]).toEqual([2, 3, 75]);
    await Promise.all([store.read('accented'), store.read('plain'), store.stat('accented'), store.list('')]);
    expect([store.counts, store.requests, store.elapsedMs]).toEqual([
      { read: 4, stat: 1, create: 0, replace: 0, delete: 0, list: 1 },
      { read: 6, stat: 1, create: 0, replace: 0, delete: 0, list: 1 },
      125,
    ]);
  });

  it('starts counting calls and time over on reset', async () => {
    const store = new LatencyStore(new MemoryStore());
    await store.create('a', 'x');
    store.reset();
    const none = { read: 0, stat: 0, create: 0, replace: 0, delete: 0, list: 0 };
    expect([store.counts, store.requests, store.elapsedMs]).toEqual([none, none, 0]);
    await store.stat('a');
    expect([store.counts.stat, store.elapsedMs]).toEqual([1, 25]);
  });
});
