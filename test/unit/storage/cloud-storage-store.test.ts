/**
 * The Cloud Storage driver through the official SDK against a stand-in of the JSON API
 * (test/support/cloud-storage-stand-in.ts), every run: the conformance suite the other drivers
 * pass; the requests each call makes, as the benchmark store counts them; and which requests are
 * retried after a 429, a 503 or a reset connection (reads, lists, writes and deletes with a
 * generation precondition) and which must not be (a delete without one), counted at the stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudStorageStore } from '../../../functions/src/storage/cloud-storage-store.ts';
import { cloudStorageRequests, isHeaderSafe } from '../../../functions/src/storage/cloud-storage-requests.ts';
import { ObjectNotFound, PreconditionFailed, mutateObject } from '../../../functions/src/storage/object-store.ts';
import { storeOnStandIn } from '../../support/cloud-storage-client.ts';
import { startCloudStorageStandIn, type CloudStorageStandIn, type LoggedRequest } from '../../support/cloud-storage-stand-in.ts';
import { objectStoreConformance } from './conformance.ts';

/** The requests a stand-in saw, as `operation answer` lines. */
const seen = (standIn: CloudStorageStandIn) => standIn.requests.map((request) => `${request.operation} ${request.answer}`);

describe('CloudStorageStore against the Cloud Storage stand-in', () => {
  let standIn: CloudStorageStandIn;
  beforeAll(async () => {
    standIn = await startCloudStorageStandIn();
  });
  afterAll(() => standIn.close());

  objectStoreConformance(async () => storeOnStandIn(standIn));
});

/** A fresh stand-in and a store on it, closed when the test ends (tests that retry run concurrently). */
async function fresh(
  onTestFinished: (close: () => Promise<void>) => void,
): Promise<{ standIn: CloudStorageStandIn; store: CloudStorageStore }> {
  const standIn = await startCloudStorageStandIn();
  onTestFinished(() => standIn.close());
  return { standIn, store: storeOnStandIn(standIn) };
}

describe('CloudStorageStore requests', () => {
  it('reads an object in one request, a media download, with its info from the response headers', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    const created = await store.create('doc', '{"a":1}', { contentType: 'application/json', metadata: { runId: 'r1' } });
    standIn.requests.length = 0;
    const read = await store.read('doc');
    expect(read.data.toString()).toBe('{"a":1}');
    expect(read.info).toEqual({ ...created, metadata: { runid: 'r1' }, updated: `${created.updated.slice(0, 19)}.000Z` });
    expect(standIn.requests).toEqual([
      { operation: 'download', method: 'GET', object: 'doc', query: { alt: 'media' }, answer: 200 },
    ] satisfies LoggedRequest[]);
    expect(cloudStorageRequests('read', read)).toBe(1);
  });

  it('asks for the metadata of the same generation when a header value may not be the stored one', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    const created = await store.create('doc', 'x', { metadata: { subject: 'évidence' } });
    standIn.requests.length = 0;
    const read = await store.read('doc');
    expect(read.info.metadata).toEqual({ subject: 'évidence' });
    expect(standIn.requests).toEqual([
      { operation: 'download', method: 'GET', object: 'doc', query: { alt: 'media' }, answer: 200 },
      { operation: 'get', method: 'GET', object: 'doc', query: { generation: created.generation }, answer: 200 },
    ] satisfies LoggedRequest[]);
    expect(cloudStorageRequests('read', read)).toBe(2);
  });

  it('makes one request per call otherwise, as the benchmark store counts them', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    const created = await store.create('a/1', 'x', { metadata: { batch: 'b1' } });
    const replaced = await store.replace('a/1', 'y', created.generation);
    await store.stat('a/1');
    await store.create('a/2', 'z');
    const page = await store.list('a/', { pageSize: 1 });
    await store.list('a/', { pageSize: 1, pageToken: page.nextPageToken! });
    await store.delete('a/1', { ifGeneration: replaced.generation });
    await store.delete('a/2');
    await expect(store.read('a/1')).rejects.toBeInstanceOf(ObjectNotFound);
    expect(seen(standIn)).toEqual([
      'insert 200',
      'insert 200',
      'get 200',
      'insert 200',
      'list 200',
      'list 200',
      'delete 204',
      'delete 204',
      'download 404',
    ]);
    for (const operation of ['create', 'replace', 'stat', 'list', 'delete'] as const)
      expect(cloudStorageRequests(operation, undefined)).toBe(1);
  });

  it('sends no credentials to the stand-in, so it never looked any up', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    await store.create('doc', 'x');
    await store.read('doc');
    expect(standIn.requests.map((request) => request.authorization)).toEqual([undefined, undefined]);
  });
});

describe('CloudStorageStore downloads', () => {
  it('leave no unhandled rejection behind when they are retried', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    await store.create('doc', 'x');
    const rejections: unknown[] = [];
    const listener = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', listener);
    onTestFinished(() => void process.off('unhandledRejection', listener));
    standIn.failNext(1, { status: 503 }, 'download');
    expect((await store.read('doc')).data.toString()).toBe('x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(rejections).toEqual([]);
    expect(seen(standIn)).toEqual(['insert 200', 'download 503', 'download 200']);
  });
});

describe('isHeaderSafe', () => {
  it('trusts printable ASCII without "%" or "=?", in linear time on long input', () => {
    expect(['', 'abc', 'a b', '2026-11-27T09:00:00Z', '{"score":91.5}'].map(isHeaderSafe)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['50%', 'é', '=?UTF-8?B?w6k=?=', 'a\nb', '\u0000'].map(isHeaderSafe)).toEqual([false, false, false, false, false]);
    expect(isHeaderSafe(`${'a'.repeat(1_000_000)}%`)).toBe(false);
    expect(isHeaderSafe('= '.repeat(500_000))).toBe(true);
  });
});

describe.concurrent('CloudStorageStore retries', () => {
  it.for([
    ['429', { status: 429 } as const, 'download 429'],
    ['503', { status: 503 } as const, 'download 503'],
    ['a reset connection', 'reset' as const, 'download reset'],
  ] as const)('retries a read after %s', async ([, fault, failed], { onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    await store.create('doc', 'x');
    standIn.requests.length = 0;
    standIn.failNext(1, fault, 'download');
    expect((await store.read('doc')).data.toString()).toBe('x');
    expect(seen(standIn)).toEqual([failed, 'download 200']);
  });

  it('retries a list and a stat after a 503', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    await store.create('a/1', 'x');
    standIn.requests.length = 0;
    standIn.failNext(1, { status: 503 }, 'list');
    standIn.failNext(1, { status: 503 }, 'get');
    expect((await store.list('a/')).items.map((item) => item.name)).toEqual(['a/1']);
    expect((await store.stat('a/1')).name).toBe('a/1');
    expect(seen(standIn)).toEqual(['list 503', 'list 200', 'get 503', 'get 200']);
  });

  it('retries a create and a replace, which carry a generation precondition, after a 503 and a reset', async ({
    onTestFinished,
  }) => {
    const { standIn, store } = await fresh(onTestFinished);
    standIn.failNext(1, { status: 503 }, 'insert');
    const created = await store.create('doc', 'v1');
    standIn.failNext(1, 'reset', 'insert');
    await store.replace('doc', 'v2', created.generation);
    expect((await store.read('doc')).data.toString()).toBe('v2');
    expect(seen(standIn)).toEqual(['insert 503', 'insert 200', 'insert reset', 'insert 200', 'download 200']);
  });

  it('retries a delete at a generation after a 429', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    const created = await store.create('doc', 'v1');
    standIn.failNext(1, { status: 429 }, 'delete');
    await store.delete('doc', { ifGeneration: created.generation });
    await expect(store.stat('doc')).rejects.toBeInstanceOf(ObjectNotFound);
    expect(seen(standIn)).toEqual(['insert 200', 'delete 429', 'delete 204', 'get 404']);
  });

  it.for([
    ['a 503', { status: 503 } as const, 'delete 503', { code: 503 }],
    ['a reset connection', 'reset' as const, 'delete reset', { code: 'ECONNRESET' }],
  ] as const)('does not retry a delete without a precondition after %s', async ([, fault, failed, error], { onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    await store.create('doc', 'v1');
    standIn.failNext(1, fault, 'delete');
    await expect(store.delete('doc')).rejects.toMatchObject(error);
    expect(seen(standIn)).toEqual(['insert 200', failed]);
  });

  it('keeps retrying reads while a delete without a precondition is in flight', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    await store.create('a', 'x');
    await store.create('b', 'y');
    standIn.requests.length = 0;
    const release = standIn.holdNext('delete');
    standIn.failNext(1, { status: 503 }, 'download');
    const deleting = store.delete('a');
    const read = await store.read('b');
    release();
    await deleting;
    expect(read.data.toString()).toBe('y');
    expect(seen(standIn).sort()).toEqual(['delete 204', 'download 200', 'download 503']);
  });

  it('gives up after four retries, answering the last error', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    await store.create('doc', 'x');
    standIn.requests.length = 0;
    standIn.failNext(5, { status: 503 }, 'download');
    await expect(store.read('doc')).rejects.toMatchObject({ code: 503 });
    expect(seen(standIn)).toEqual(Array(5).fill('download 503'));
  });

  it('settles racing compare-and-swap writes through retried requests without losing one', async ({ onTestFinished }) => {
    const { standIn, store } = await fresh(onTestFinished);
    standIn.failNext(3, { status: 503 }, 'insert');
    standIn.failNext(3, { status: 503 }, 'download');
    const increment = () => mutateObject(store, 'counter', (current) => String(Number(current?.toString() ?? '0') + 1));
    await Promise.all(Array.from({ length: 5 }, increment));
    expect((await store.read('counter')).data.toString()).toBe('5');
    await expect(store.create('counter', 'again')).rejects.toBeInstanceOf(PreconditionFailed);
  });
});
