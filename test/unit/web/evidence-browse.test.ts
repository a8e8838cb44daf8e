/** The evidence browser's pure pieces: the address bar's state, the API query it asks, the cursor stack and the ranges. */
import { describe, expect, it } from 'vitest';
import { searchOf } from '../../../hosting/src/lib/api-client.ts';
import { specDocument } from '../../support/families.ts';
import { nextPage, pageState, previousPage } from '../../../hosting/src/lib/cursor-pages.ts';
import {
  addressOf,
  browseFrom,
  dataEntries,
  evidenceKinds,
  evidenceQueryOf,
  noFilters,
  rangeOf,
  type EvidenceBrowse,
} from '../../../hosting/src/lib/evidence-browse.ts';

/** The query `GET /api/evidence` is asked with, as the API client writes it. */
const apiQueryOf = (browse: EvidenceBrowse) => new URLSearchParams(searchOf(evidenceQueryOf(browse)));

describe('browseFrom and addressOf', () => {
  it('reads filters, page size and the cursor stack from the address, and writes them back the same', () => {
    const address =
      'kind=tls.endpoint&subject=web+01&source=tls-scanner&control=NET-02&from=2026-11-01&to=2026-11-20&limit=10&cursor=c1&cursor=c2';
    const browse = browseFrom(new URLSearchParams(address));
    expect(browse).toEqual({
      filters: {
        kind: 'tls.endpoint',
        subject: 'web 01',
        source: 'tls-scanner',
        control: 'NET-02',
        from: '2026-11-01',
        to: '2026-11-20',
      },
      limit: 10,
      cursors: ['c1', 'c2'],
    });
    expect(addressOf(browse).toString()).toBe(address);
  });

  it('an empty address is the first page of everything, 50 to a page, and writes nothing', () => {
    const browse = browseFrom(new URLSearchParams(''));
    expect(browse).toEqual({ filters: noFilters, limit: 50, cursors: [] });
    expect(addressOf(browse).toString()).toBe('');
  });

  it.each(['0', '201', '2.5', 'ten'])('a page size of %s outside the API range becomes the default', (limit) => {
    expect(browseFrom(new URLSearchParams({ limit })).limit).toBe(50);
  });
});

describe('apiQueryOf', () => {
  it('asks for the last cursor, the page size, and the days as instants with an inclusive end day', () => {
    const browse: EvidenceBrowse = {
      filters: {
        kind: 'attestation',
        subject: ' policy ',
        source: 'submission',
        control: ' PPL-06 ',
        from: '2026-11-01',
        to: '2026-11-30',
      },
      limit: 25,
      cursors: ['c1', 'c2'],
    };
    expect(Object.fromEntries(apiQueryOf(browse))).toEqual({
      kind: 'attestation',
      subject: ' policy ',
      source: 'submission',
      control: 'PPL-06',
      from: '2026-11-01T00:00:00Z',
      to: '2026-12-01T00:00:00Z',
      limit: '25',
      cursor: 'c2',
    });
  });

  it('on the first page without filters asks only for the page size', () => {
    expect(apiQueryOf({ filters: noFilters, limit: 50, cursors: [] }).toString()).toBe('limit=50');
  });

  it('passes text that is not a day on as it is, for the server to answer', () => {
    expect(apiQueryOf({ filters: { ...noFilters, from: 'yesterday' }, limit: 50, cursors: [] }).get('from')).toBe('yesterday');
  });
});

describe('the cursor stack', () => {
  it('next pushes the API cursor, previous pops it, and the first page has no previous', () => {
    const second = nextPage([], 'a');
    const third = nextPage(second, 'b');
    expect(third).toEqual(['a', 'b']);
    expect(previousPage(third)).toEqual(['a']);
    expect(previousPage(previousPage(third))).toEqual([]);
    expect(previousPage([])).toEqual([]);
  });

  it.each([
    [[], 50, 50, { first: 1, last: 50 }],
    [['a'], 50, 7, { first: 51, last: 57 }],
    [['a', 'b'], 2, 2, { first: 5, last: 6 }],
    [['a'], 10, 0, undefined],
  ])('with cursors %o, %i to a page and %i shown, the range is %o', (cursors, limit, count, range) => {
    expect(rangeOf(cursors, limit, count)).toEqual(range);
  });
});

describe('pageState', () => {
  it.each([
    [{ hasMore: true, nextCursor: 'c' }, 'more'],
    [{ hasMore: false, nextCursor: 'c' }, 'search'],
    [{ hasMore: false }, 'end'],
  ] as const)('reads %o as %s', (page, state) => {
    expect(pageState(page)).toBe(state);
  });
});

describe('evidenceKinds', () => {
  it('offers every kind the API knows, in the order the catalog groups them', () => {
    const described = specDocument().components!.schemas!['EvidenceKind'] as { enum: string[] };
    expect(evidenceKinds).toEqual(described.enum);
  });
});

describe('dataEntries', () => {
  it('shows scalars and lists of scalars inline, and anything structured as indented JSON', () => {
    expect(
      dataEntries({
        minTlsVersion: '1.2',
        hsts: true,
        days: 40,
        none: null,
        tags: ['a', 'b'],
        empty: [],
        owner: { team: 'sec' },
      }),
    ).toEqual([
      { name: 'minTlsVersion', text: '1.2', block: false },
      { name: 'hsts', text: 'true', block: false },
      { name: 'days', text: '40', block: false },
      { name: 'none', text: 'null', block: false },
      { name: 'tags', text: 'a, b', block: false },
      { name: 'empty', text: '(none)', block: false },
      { name: 'owner', text: '{\n  "team": "sec"\n}', block: true },
    ]);
  });

  it("links a scanner finding's textsIn to the item that carries its finding's texts", () => {
    expect(dataEntries({ check: 'c', textsIn: 'ocsf-0123' }, 'scanner.finding')).toEqual([
      { name: 'check', text: 'c', block: false },
      { name: 'textsIn', text: 'ocsf-0123', block: false, href: '/evidence/ocsf-0123' },
    ]);
    expect(dataEntries({ textsIn: 'ocsf-0123' }, 'idp.user')).toEqual([{ name: 'textsIn', text: 'ocsf-0123', block: false }]);
  });

  it('keeps markup as text', () => {
    expect(dataEntries({ note: '<img src=x onerror=alert(1)>' })).toEqual([
      { name: 'note', text: '<img src=x onerror=alert(1)>', block: false },
    ]);
  });
});
