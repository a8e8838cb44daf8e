/**
 * Every listing (`GET /api/evidence`, `/api/submissions`, `/api/analyses`) pages the same way:
 * an opaque `nextCursor` walks to every item once, newest first, and a cursor the listing did
 * not give out — text, an id as the old listings took it, another listing's cursor, a place
 * that cannot be one — is refused with the same 400 problem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisStore } from '../../../functions/src/analyses/analysis-store.ts';
import { EvidenceStore } from '../../../functions/src/evidence/evidence-store.ts';
import { createAnalysesFamily } from '../../../functions/src/families/analyses.ts';
import { createEvidenceFamily } from '../../../functions/src/families/evidence.ts';
import { encodeCursor, type Listing } from '../../../functions/src/families/paging.ts';
import { createSubmissionsFamily } from '../../../functions/src/families/submissions.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { SubmissionStore } from '../../../functions/src/submissions/submission-store.ts';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { serve, type Served } from '../../support/serve.ts';

const catalog = compileCatalogSources(paths.catalog);
const store = new MemoryStore();
const now = new Date('2026-11-21T09:00:00Z');
const listings = new Map<Listing, Served>();
/** Each listing's ids, newest first. */
const stored = new Map<Listing, string[]>();

beforeAll(async () => {
  setMode('public');
  const evidence = new EvidenceStore(store);
  const options = {
    store: async () => store,
    catalog: () => catalog,
    now: () => now,
    timeZone: () => 'UTC',
    verifyToken: fakeVerifier(),
  };
  const at = (minute: number) => new Date(now.getTime() - (10 - minute) * 60_000);

  const items = [0, 1, 2].map((n) => ({
    id: `page-${n}`,
    kind: 'idp.user' as const,
    source: 'idp',
    subject: `user-${n}`,
    collectedAt: at(n).toISOString(),
    data: { ...(evidenceKinds['idp.user'].example as Record<string, unknown>) },
  }));
  await evidence.ingest(items, { receivedAt: now });
  stored.set('evidence', ['page-2', 'page-1', 'page-0']);

  const submissions = new SubmissionStore(store, evidence);
  const made = [];
  for (const n of [0, 1, 2]) {
    const submission = await submissions.create(
      {
        controls: ['PPL-06'],
        statement: `Statement ${n}.`,
        subject: 'manual submission',
        effectiveDate: '2026-11-21',
        notApplicable: false,
        submittedBy: { uid: 'user-1' },
        files: [],
      },
      at(n),
    );
    made.push(submission.id);
  }
  stored.set('submissions', made.reverse());

  const analyses = new AnalysisStore(store);
  const runs = [];
  for (const n of [0, 1, 2]) {
    const request = { date: '2026-11-21', controls: null, publish: false, createdBy: { uid: 'user-1' } };
    runs.push((await analyses.create(request, { now: at(n) })).record.id);
  }
  stored.set('analyses', runs.reverse());

  listings.set('evidence', await serve(createEvidenceFamily({ ...options, loadTable: tableOf('evidence') })));
  listings.set('submissions', await serve(createSubmissionsFamily({ ...options, loadTable: tableOf('submissions') })));
  listings.set('analyses', await serve(createAnalysesFamily({ ...options, loadTable: tableOf('analyses') })));
});

afterAll(async () => {
  for (const served of listings.values()) await served.close();
});

interface Page {
  items: { id: string }[];
  hasMore: boolean;
  nextCursor?: string;
}

const listingNames: Listing[] = ['evidence', 'submissions', 'analyses'];

describe.each(listingNames)('GET /api/%s', (listing) => {
  // Submissions are evidence too (attestations); the evidence walk keeps to the items stored above.
  const filter = listing === 'evidence' ? 'kind=idp.user&' : '';
  const url = (query: string) => `${listings.get(listing)!.url}/api/${listing}?${filter}${query}`;

  it('walks one item a page, newest first, each once, and the last page has no cursor', async () => {
    const seen: string[] = [];
    const pages: Page[] = [];
    let cursor: string | undefined;
    do {
      const response = await fetch(url(`limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
      expect(response.status).toBe(200);
      const page = (await response.json()) as Page;
      pages.push(page);
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(stored.get(listing));
    expect(pages.map((page) => page.hasMore)).toEqual([true, true, false]);
    expect(pages.at(-1)!.nextCursor).toBeUndefined();
  });

  const otherListing = listingNames.find((other) => other !== listing)!;
  it.each([
    ['text', 'not-a-cursor'],
    ['an id, as listings once took', 'an-20261121085000000-0a1b2c3d'],
    ['a submission id', 'sub-0000000000000000'],
    [`a cursor of /api/${otherListing}`, encodeCursor(otherListing, '000000000000000-page-1')],
    ['a cursor whose place is not an index key', encodeCursor(listing, '../../reports')],
  ])('refuses %s as the cursor with a 400 problem', async (_what, cursor) => {
    await expectCursorRefused(await fetch(url(`cursor=${encodeURIComponent(cursor)}`)), listing);
  });
});

describe('cursors that name a record their listing could not have given out', () => {
  it.each([
    ['analyses', 'an-20261121085000000-0a1b2c3d'],
    ['submissions', 'sub-000000000aaaaaaaaaaaa'],
  ] as const)('GET /api/%s refuses a place whose time is not the one its id records', async (listing, id) => {
    const response = await fetch(
      `${listings.get(listing)!.url}/api/${listing}?cursor=${encodeCursor(listing, `000000000000000-${id}`)}`,
    );
    await expectCursorRefused(response, listing);
  });
});

/** The 400 problem for a cursor of `/api/<listing>` that the API did not give out. */
async function expectCursorRefused(response: Response, listing: string): Promise<void> {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(await response.json()).toEqual(
    expectedProblem(
      'invalid_request',
      'The query parameter "cursor" is not a cursor this API gave out.',
      `/api/${listing}`,
      response.headers.get('x-request-id')!,
      { errors: [{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }] },
    ),
  );
}
