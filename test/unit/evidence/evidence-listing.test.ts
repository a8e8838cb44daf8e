/**
 * `GET /api/evidence` over the listing indexes: every combination of filters walks, page by
 * page, to exactly what filtering every stored item would give, in newest-first order; a page
 * costs a read per item shown plus a listing per index; cursors stay stable while evidence
 * arrives; and a scan that reaches its bound says so instead of answering a wrong "no more".
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceInput, EvidenceItem } from '../../../functions/src/assessment/model.ts';
import { maxListCalls } from '../../../functions/src/evidence/evidence-listing.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { createEvidenceFamily } from '../../../functions/src/families/evidence.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { everyItem } from '../../support/every-item.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { serve, type Served } from '../../support/serve.ts';

const catalog = compileCatalogSources(paths.catalog);
const store = new RecordingStore(new MemoryStore());
const kindsUsed = ['idp.user', 'tls.endpoint', 'vuln.scan', 'attestation'] as const;
const subjects = ['ada', 'grace', 'www.example.com', 'a subject/with "odd" characters ✓', 'x'.repeat(300)];
const sources = ['idp', 'scanner', 'submission'];
const controls = ['IAM-01', 'ENC-03', 'VUL-01', 'PPL-06'];
let served: Served;
let nextId = 0;

function input(n: number, collectedAt: string, overrides: Partial<EvidenceInput> = {}): EvidenceInput {
  const kind = kindsUsed[n % kindsUsed.length]!;
  return {
    id: `li-${String(n).padStart(4, '0')}`,
    kind,
    source: sources[n % sources.length]!,
    subject: subjects[(n >> 2) % subjects.length]!,
    collectedAt,
    ...(kind === 'attestation'
      ? {
          controls: [controls[n % controls.length]!, controls[(n >> 3) % controls.length]!].filter(
            (c, i, all) => all.indexOf(c) === i,
          ),
        }
      : {}),
    data: { ...(evidenceKinds[kind].example as Record<string, unknown>) },
    ...overrides,
  };
}

/** Every stored item matching a query, in the listing's order: the reference the pages must add up to. */
function reference(items: readonly EvidenceItem[], query: Record<string, string>): string[] {
  const control = query['control'] ? catalog.controls.find((each) => each.id === query['control'])! : undefined;
  const kinds = new Set(control?.evidence.map((need) => need.kind));
  return items
    .filter((item) => !query['kind'] || item.kind === query['kind'])
    .filter((item) => query['subject'] === undefined || item.subject === query['subject'])
    .filter((item) => query['source'] === undefined || item.source === query['source'])
    .filter((item) => {
      if (!control) return true;
      if (item.kind === 'attestation') return item.controls?.includes(control.id) ?? false;
      return kinds.has(item.kind);
    })
    .filter((item) => !query['from'] || Date.parse(item.collectedAt) >= Date.parse(query['from']))
    .filter((item) => !query['to'] || Date.parse(item.collectedAt) < Date.parse(query['to']))
    .sort((a, b) => Date.parse(b.collectedAt) - Date.parse(a.collectedAt) || (a.id < b.id ? -1 : 1))
    .map((item) => item.id);
}

interface Page {
  items: EvidenceItem[];
  hasMore: boolean;
  nextCursor?: string;
}

async function get(query: Record<string, string>): Promise<{ status: number; body: Page }> {
  const response = await fetch(`${served.url}/api/evidence?${new URLSearchParams(query)}`);
  return { status: response.status, body: (await response.json()) as Page };
}

/** Every page of a listing, with what each cost. */
async function walk(query: Record<string, string>) {
  const pages: { page: Page; reads: number; lists: number }[] = [];
  let cursor: string | undefined;
  do {
    store.reset();
    const { status, body } = await get({ ...query, ...(cursor ? { cursor } : {}) });
    expect(status).toBe(200);
    pages.push({ page: body, reads: store.of('read').length, lists: store.of('list').length });
    cursor = body.nextCursor;
  } while (cursor);
  return pages;
}

/** A new instance of the family: nothing cached, as a cold Cloud Functions instance. */
const instance = () =>
  serve(
    createEvidenceFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => new Date('2026-11-21T09:00:00Z'),
      timeZone: () => 'UTC',
      loadTable: tableOf('evidence'),
      verifyToken: fakeVerifier(),
    }),
  );

beforeAll(async () => {
  setMode('public');
  served = await instance();
  const evidence = new EvidenceStore(store);
  // 240 items over 60 days; every fifth shares its instant with the one before, to exercise ties.
  const inputs = Array.from({ length: 240 }, (_, n) => {
    const minute = n % 5 === 4 ? n - 1 : n;
    return input(n, new Date(Date.parse('2026-09-01T00:00:00Z') + minute * 6 * 3600_000).toISOString());
  });
  for (let start = 0; start < inputs.length; start += 40) {
    await evidence.ingest(inputs.slice(start, start + 40), {
      receivedAt: new Date(Date.parse('2026-11-01T00:00:00Z') + start * 60_000),
    });
  }
  nextId = 240;
});

afterAll(() => served.close());

/** An instant some items were collected at, so range bounds fall exactly on items. */
const instant = fc.nat({ max: 240 }).map((n) => new Date(Date.parse('2026-09-01T00:00:00Z') + n * 6 * 3600_000).toISOString());

const filters = {
  kind: fc.constantFrom(...kindsUsed),
  subject: fc.constantFrom(...subjects, 'nobody'),
  source: fc.constantFrom(...sources, 'unknown-collector'),
  control: fc.constantFrom(...controls, 'LOG-01'),
  from: instant,
  to: instant,
};

/** Up to three filters at once (more rarely match anything), and a page size. */
const queries = fc
  .tuple(
    fc.subarray(Object.keys(filters) as (keyof typeof filters)[], { maxLength: 3 }),
    fc.record(filters),
    fc.constantFrom('1', '3', '7', '50'),
  )
  .map(
    ([chosen, values, limit]) =>
      ({ ...Object.fromEntries(chosen.map((name) => [name, values[name]])), limit }) as Record<string, string>,
  );

describe('GET /api/evidence', () => {
  it('walks, for any combination of filters, to exactly the matching items, newest first, each once', async () => {
    const all = await everyItem(store);
    await fc.assert(
      fc.asyncProperty(queries, async (query) => {
        const pages = await walk(query);
        const limit = Number(query['limit']);
        const listed = pages.flatMap(({ page }) => page.items.map((item) => item.id));
        expect(listed).toEqual(reference(all, query));
        pages.forEach(({ page }, n) => {
          const last = n === pages.length - 1;
          expect(page.hasMore).toBe(!last);
          expect(page.items.length).toBe(last ? listed.length - limit * (pages.length - 1) : limit);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('reads one object per item shown, and lists each index it uses once, on every page of a cold instance', async () => {
    const warm = served;
    const costed: Record<string, string>[] = [
      { limit: '20' },
      { limit: '20', subject: 'ada' },
      { limit: '20', kind: 'tls.endpoint' },
      { limit: '20', source: 'scanner' },
      { limit: '20', source: 'idp', kind: 'idp.user' },
      { limit: '5', control: 'IAM-01', from: '2026-09-05T00:00:00Z' },
    ];
    for (const query of costed) {
      served = await instance();
      for (const { page, reads, lists } of await walk(query)) {
        expect(reads).toBe(page.items.length);
        expect(lists).toBeLessThanOrEqual(query['control'] ? 3 : 1);
      }
      await served.close();
    }
    served = warm;
  });

  it('answers a filter that matches nothing with one listing and no reads', async () => {
    store.reset();
    const { status, body } = await get({ subject: 'nobody-at-all', limit: '20' });
    expect({ status, body }).toEqual({ status: 200, body: { items: [], hasMore: false } });
    expect(store.of('read')).toEqual([]);
    expect(store.of('list')).toHaveLength(1);
  });

  it('answers a kind outside a control\u2019s evidence with nothing, without reading the store', async () => {
    store.reset();
    expect(await get({ control: 'IAM-01', kind: 'vuln.scan', limit: '20' })).toEqual({
      status: 200,
      body: { items: [], hasMore: false },
    });
    expect(store.calls).toEqual([]);
  });

  it('keeps its cursors stable while evidence arrives: everything there at the start is listed once', async () => {
    const before = reference(await everyItem(store), { kind: 'idp.user' });
    const evidence = new EvidenceStore(store);
    const seen: string[] = [];
    let cursor: string | undefined;
    let arrivals = 0;
    do {
      const { body } = await get({ kind: 'idp.user', limit: '4', ...(cursor ? { cursor } : {}) });
      seen.push(...body.items.map((item) => item.id));
      cursor = body.nextCursor;
      // Between pages, items collected both before and after the page's place arrive.
      const collected = [
        '2026-08-01T00:00:00Z',
        '2026-12-01T00:00:00Z',
        body.items.at(-1)?.collectedAt ?? '2026-09-15T00:00:00Z',
      ];
      await evidence.ingest(
        collected.map((at) => input(0, at, { id: `arrival-${nextId++}`, kind: 'idp.user' })),
        { receivedAt: new Date(`2026-11-21T10:${String(arrivals++ % 60).padStart(2, '0')}:00Z`) },
      );
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(before.filter((id) => !seen.includes(id))).toEqual([]);
    const order = seen.map((id) => id);
    const listedAgain = reference(await everyItem(store), { kind: 'idp.user' }).filter((id) => order.includes(id));
    expect(order).toEqual(listedAgain);
  });

  it('answers a range that ends before the four-digit years with nothing, not with everything', async () => {
    expect(await get({ to: '0000-01-01T00:00:00Z', limit: '5' })).toEqual({ status: 200, body: { items: [], hasMore: false } });
    const early = await get({ from: '0000-01-01T00:00:00Z', limit: '1' });
    expect(early.body.items).toHaveLength(1);
  });

  it('ends a scan at its bound with a cursor and hasMore false, rather than answering "no more" unseen', async () => {
    // One subject with more entries than one request examines, none of them from the source asked for.
    const evidence = new EvidenceStore(store);
    const subject = 'busy-subject';
    const entries = maxListCalls * 1000 + 500;
    for (let start = 0; start < entries; start += 500) {
      await evidence.ingest(
        Array.from({ length: 500 }, (_, n) =>
          input(0, new Date(Date.parse('2026-10-01T00:00:00Z') + (start + n) * 1000).toISOString(), {
            id: `busy-${start + n}`,
            kind: 'idp.user',
            subject,
            source: 'idp',
          }),
        ),
        { receivedAt: new Date(Date.parse('2026-11-21T11:00:00Z') + start) },
      );
    }
    await evidence.ingest(
      [input(0, '2026-09-01T00:00:00Z', { id: 'busy-needle', kind: 'idp.user', subject, source: 'scanner' })],
      {
        receivedAt: new Date('2026-11-21T12:00:00Z'),
      },
    );
    const first = await get({ subject, source: 'scanner', limit: '10' });
    expect(first.body.items).toEqual([]);
    expect(first.body.hasMore).toBe(false);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await get({ subject, source: 'scanner', limit: '10', cursor: first.body.nextCursor! });
    expect(second.body.items.map((item) => item.id)).toEqual(['busy-needle']);
    expect(second.body).toMatchObject({ hasMore: false });
    expect(second.body.nextCursor).toBeUndefined();
  }, 60_000);
});
