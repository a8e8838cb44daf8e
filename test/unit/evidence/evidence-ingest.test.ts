/**
 * Ingest on the partitioned layout: limits refused before anything is written, conflicts
 * refused whole, and every way a writer can stop half-way — before its batch, between its
 * batch and its index, or racing another writer — leaving nothing lost and nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { produceDailyReport } from '../../../functions/src/reports/daily-report.ts';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import type { EvidenceInput } from '../../../functions/src/assessment/model.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { maxDataBytes, printableTextPattern } from '@evident/contract';
import { createEvidenceFamily } from '../../../functions/src/families/evidence.ts';
import { logs } from '../../../functions/src/logs.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { everyItem } from '../../support/every-item.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { serve, type Served } from '../../support/serve.ts';
import { vi } from 'vitest';

const catalog = compileCatalogSources(paths.catalog);
const now = new Date('2026-11-21T09:00:00Z');

function tls(id: string, subject = `${id}.example.com`): EvidenceInput {
  return {
    id,
    kind: 'tls.endpoint',
    source: 'scanner',
    subject,
    collectedAt: '2026-11-21T08:00:00Z',
    data: { minTlsVersion: '1.3', hsts: true, certificateDaysLeft: 50, weakCiphers: false },
  };
}

/** The family over a store, as one Cloud Functions instance. */
async function family(store: RecordingStore): Promise<Served> {
  return serve(
    createEvidenceFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => now,
      timeZone: () => 'UTC',
      loadTable: tableOf('evidence'),
      verifyToken: fakeVerifier(),
    }),
  );
}

const post = (served: Served, body: unknown) =>
  fetch(`${served.url}/api/evidence`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const listed = async (served: Served, subject: string) =>
  (
    (await (await fetch(`${served.url}/api/evidence?${new URLSearchParams({ subject })}`)).json()) as { items: { id: string }[] }
  ).items.map((item) => item.id);

let store: RecordingStore;
let served: Served;

beforeAll(async () => {
  setMode('public');
  vi.spyOn(logs, 'evidenceIngested').mockImplementation(() => undefined);
  store = new RecordingStore(new MemoryStore());
  served = await family(store);
});

afterAll(async () => {
  await served.close();
  vi.restoreAllMocks();
});

describe('limits on an item', () => {
  const nested = (depth: number): Record<string, unknown> => {
    let value: Record<string, unknown> = { leaf: true };
    for (let level = 1; level < depth; level++) value = { inner: value };
    return value;
  };

  it('accepts data nested 32 deep and refuses 33 with a 400 problem naming the item, storing nothing', async () => {
    const ok = await post(served, { ...tls('deep-ok'), data: { ...tls('x').data, extra: nested(31) } });
    expect(ok.status).toBe(201);
    store.reset();
    const response = await post(served, {
      items: [tls('deep-a'), { ...tls('deep-b'), data: { ...tls('x').data, extra: nested(32) } }],
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      expectedProblem(
        'invalid_request',
        'The body /items/1/data nests deeper than 32 levels.',
        '/api/evidence',
        response.headers.get('x-request-id')!,
        {
          errors: [{ in: 'body', pointer: '/items/1/data', message: 'nests deeper than 32 levels' }],
        },
      ),
    );
    expect(store.of('create')).toEqual([]);
  });

  it('answers data nested 5,000 deep with a 400 problem, not a 500', async () => {
    const body = `{"id":"very-deep","kind":"tls.endpoint","source":"s","subject":"s","collectedAt":"2026-11-21T08:00:00Z","data":{"minTlsVersion":"1.3","hsts":true,"certificateDaysLeft":1,"weakCiphers":false,"x":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const response = await fetch(`${served.url}/api/evidence`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('invalid_request');
  });

  it('refuses data over 64 KiB with a 413 evidence_too_large problem, storing nothing of the batch', async () => {
    const big = { ...tls('big-b'), data: { ...tls('x').data, blob: 'x'.repeat(maxDataBytes) } };
    store.reset();
    const response = await post(served, { items: [tls('big-a'), big] });
    expect(response.status).toBe(413);
    const size = Buffer.byteLength(JSON.stringify(big.data));
    expect(await response.json()).toEqual(
      expectedProblem(
        'evidence_too_large',
        `An evidence item's data may be at most 65536 bytes as JSON: /items/1/data is ${size} bytes. Split it into several items or store the bulk as an attachment.`,
        '/api/evidence',
        response.headers.get('x-request-id')!,
      ),
    );
    expect(store.of('create')).toEqual([]);
  });
});

describe('names', () => {
  it.each([
    ['subject', 'a lone surrogate', 'host-\ud800.example.com'],
    ['subject', 'a line break', 'host\n.example.com'],
    ['source', 'a control character', 'scanner\u0007'],
  ])('refuses a %s holding %s with a 400 naming it, not a 500, storing nothing', async (field, _, value) => {
    store.reset();
    const response = await post(served, { ...tls('unprintable'), [field]: value });
    expect(response.status).toBe(400);
    const message = `must match pattern "${printableTextPattern}"`;
    expect(await response.json()).toEqual(
      expectedProblem(
        'invalid_request',
        `The body /${field} ${message}.`,
        '/api/evidence',
        response.headers.get('x-request-id')!,
        {
          errors: [{ in: 'body', pointer: `/${field}`, message }],
        },
      ),
    );
    expect(store.of('create')).toEqual([]);
  });
});

describe('times', () => {
  it('refuses a leap second, which RFC 3339 allows but JavaScript cannot read, with a 400 naming it', async () => {
    store.reset();
    const response = await post(served, { ...tls('leap'), collectedAt: '2026-12-31T23:59:60Z' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      expectedProblem(
        'invalid_request',
        'The body /collectedAt must match format "date-time".',
        '/api/evidence',
        response.headers.get('x-request-id')!,
        {
          errors: [{ in: 'body', pointer: '/collectedAt', message: 'must match format "date-time"' }],
        },
      ),
    );
    expect(store.of('create')).toEqual([]);
    const listing = await fetch(`${served.url}/api/evidence?to=2026-12-31T23:59:60Z`);
    expect(listing.status).toBe(400);
    expect(((await listing.json()) as { errors: unknown[] }).errors).toEqual([
      { in: 'query', name: 'to', message: 'must match format "date-time"' },
    ]);
  });
});

describe('conflicts', () => {
  it('refuses a batch with one item conflicting with a stored one, and stores none of the others', async () => {
    expect((await post(served, tls('taken'))).status).toBe(201);
    store.reset();
    const response = await post(served, {
      items: [tls('fresh-1'), { ...tls('taken'), subject: 'changed.example.com' }, tls('fresh-2')],
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe('evidence_conflict');
    expect(store.of('create')).toEqual([]);
  });

  it('withdraws its claims when another request wins an id with other content mid-way, so nothing of it is stored', async () => {
    // Both requests read the claims first (none), then race to write them.
    const raceStore = new RecordingStore(new MemoryStore());
    const waiting: (() => void)[] = [];
    raceStore.before = ({ op, name }) => {
      if (op !== 'read' || name !== 'evidence-ids/contested.json' || waiting.length >= 2) return;
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length === 2) waiting.forEach((release) => release());
      });
    };
    const [one, two] = [await family(raceStore), await family(raceStore)];
    const responses = await Promise.all([
      post(one, { items: [tls('contested', 'first.example.com'), tls('side-1')] }),
      post(two, { items: [tls('contested', 'second.example.com'), tls('side-2')] }),
    ]);
    raceStore.before = () => undefined;
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    const stored = (await everyItem(raceStore)).map((item) => item.id).sort();
    const winner = responses[0]!.status === 201 ? 'side-1' : 'side-2';
    expect(stored).toEqual(['contested', winner].sort());
    const loser = winner === 'side-1' ? 'side-2' : 'side-1';
    expect((await raceStore.list(`evidence-ids/${loser}`)).items).toEqual([]);
    await Promise.all([one.close(), two.close()]);
  });
});

describe('a writer that stops half-way', () => {
  it('before its batch: the item is not served, a retry waits then says in flight, and once the settle time has passed it is taken over', async () => {
    // Claims are aged by the wall clock (the store's write time against Date.now()); only
    // that clock is the test's, so the peer wait below still runs on real timers.
    vi.useFakeTimers({ toFake: ['Date'], now });
    try {
      const inner = new MemoryStore();
      const dying = new RecordingStore(inner);
      dying.before = ({ op, name }) => {
        if (op === 'create' && name.startsWith('evidence/received=')) throw new Error('instance lost');
      };
      const first = new EvidenceStore(dying, { settleMs: 300, waitForPeerMs: 50 });
      await expect(first.ingest([tls('orphan')], { receivedAt: now })).rejects.toThrow('instance lost');
      dying.before = () => undefined;

      const retrying = new EvidenceStore(dying, { settleMs: 300, waitForPeerMs: 50 });
      await expect(retrying.get('orphan')).rejects.toMatchObject({ name: 'ObjectNotFound' });
      const inFlight = { name: 'EvidenceInFlight', why: 'peer_pending' };
      await expect(retrying.ingest([tls('orphan')], { receivedAt: now })).rejects.toMatchObject(inFlight);
      vi.advanceTimersByTime(299);
      await expect(retrying.ingest([tls('orphan')], { receivedAt: now })).rejects.toMatchObject(inFlight);
      vi.advanceTimersByTime(2);
      expect(await retrying.ingest([tls('orphan')], { receivedAt: now })).toEqual([{ id: 'orphan', status: 'created' }]);
      expect((await everyItem(inner)).filter((item) => item.id === 'orphan')).toHaveLength(1);
      expect((await retrying.get('orphan')).subject).toBe('orphan.example.com');
    } finally {
      vi.useRealTimers();
    }
  });

  it('between its batch and its index: the item is evaluated at once, listed after a retry or the next daily run', async () => {
    const inner = new MemoryStore();
    const dying = new RecordingStore(inner);
    dying.before = ({ op, name }) => {
      if (op === 'create' && name.startsWith('evidence-index/')) throw new Error('instance lost');
    };
    const evidence = new EvidenceStore(dying, { settleMs: 0 });
    await expect(evidence.ingest([tls('unindexed')], { receivedAt: now })).rejects.toThrow('instance lost');
    dying.before = () => undefined;
    const instance = await family(dying);
    expect((await everyItem(inner)).map((item) => item.id)).toEqual(['unindexed']);
    expect(await listed(instance, 'unindexed.example.com')).toEqual([]);

    vi.spyOn(logs, 'evidenceIndexRepaired').mockImplementation(() => undefined);
    await produceDailyReport({
      store: dying,
      catalog: compileCatalog(catalog),
      timeZone: 'UTC',
      now: new Date('2026-11-22T06:00:00Z'),
      trigger: 'test',
      evidence,
    });
    expect(logs.evidenceIndexRepaired).toHaveBeenCalledTimes(1);
    expect(await listed(instance, 'unindexed.example.com')).toEqual(['unindexed']);
    await instance.close();
  });

  it('between its batch and its index, retried: the retry files the item in the index itself', async () => {
    const dying = new RecordingStore(new MemoryStore());
    dying.before = ({ op, name }) => {
      if (op === 'create' && name.startsWith('evidence-index/')) throw new Error('instance lost');
    };
    await expect(new EvidenceStore(dying).ingest([tls('retried')], { receivedAt: now })).rejects.toThrow();
    dying.before = () => undefined;
    const instance = await family(dying);
    const retry = await post(instance, tls('retried'));
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ items: [{ id: 'retried', status: 'existing' }] });
    expect(await listed(instance, 'retried.example.com')).toEqual(['retried']);
    await instance.close();
  });
});
