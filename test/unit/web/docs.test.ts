/**
 * The docs pages' pure pieces in the web app: the index by section, a page's neighbours and
 * table of contents, when the docs are asked for again as the session changes, and which links
 * carry a fragment the docs view follows itself.
 */
import { describe, expect, it } from 'vitest';
import type { DocSummary } from '../../../hosting/src/lib/api-types.ts';
import { contentsOf, docsAccessKey, neighboursOf, sectionsOf, type ReaderSession } from '../../../hosting/src/lib/docs.ts';

const doc = (slug: string, section: string, order: number, gated = false): DocSummary => ({
  slug,
  title: slug,
  description: `About ${slug}`,
  section,
  order,
  gated,
});
const pages = [
  doc('getting-started', 'Guides', 10),
  doc('chat', 'Guides', 46),
  doc('methodology', 'Assessment', 60, true),
  doc('deployment', 'Operations', 70),
  doc('reference-overview', 'API reference', 900),
];

describe('sectionsOf', () => {
  it('groups the pages by section, in the order of each section first page', () => {
    expect(sectionsOf(pages).map((section) => [section.name, section.pages.map((page) => page.slug)])).toEqual([
      ['Guides', ['getting-started', 'chat']],
      ['Assessment', ['methodology']],
      ['Operations', ['deployment']],
      ['API reference', ['reference-overview']],
    ]);
  });

  it('keeps a section whole when a later page returns to it', () => {
    const mixed = [doc('a', 'Guides', 1), doc('b', 'Operations', 2), doc('c', 'Guides', 3)];
    expect(sectionsOf(mixed).map((section) => [section.name, section.pages.map((page) => page.slug)])).toEqual([
      ['Guides', ['a', 'c']],
      ['Operations', ['b']],
    ]);
  });
});

describe('neighboursOf', () => {
  it.each([
    ['getting-started', { next: 'chat' }],
    ['methodology', { previous: 'chat', next: 'deployment' }],
    ['reference-overview', { previous: 'deployment' }],
    ['not-listed', {}],
  ])('%s', (slug, expected) => {
    const { previous, next } = neighboursOf(pages, slug);
    expect({ ...(previous && { previous: previous.slug }), ...(next && { next: next.slug }) }).toEqual(expected);
  });
});

describe('contentsOf', () => {
  it('lists sections and subsections, not the title or deeper headings', () => {
    const headings = [
      { depth: 1, id: 'chat', text: 'chat' },
      { depth: 2, id: 'operations', text: 'Operations' },
      { depth: 3, id: 'post-api-chat', text: 'POST /api/chat' },
      { depth: 4, id: 'responses', text: 'Responses' },
      { depth: 2, id: 'schemas', text: 'Schemas' },
    ];
    expect(contentsOf(headings).map((heading) => heading.id)).toEqual(['operations', 'post-api-chat', 'schemas']);
  });
});

describe('docsAccessKey', () => {
  const user = { uid: 'u1', email: 'ada@example.com', name: 'Ada' };
  it.each<[boolean, ReaderSession & Record<string, unknown>, string | undefined]>([
    [false, { status: 'not-needed' }, 'public'],
    [true, { status: 'not-needed' }, undefined],
    [true, { status: 'starting' }, undefined],
    [true, { status: 'signed-out', ended: false }, 'signed-out'],
    [true, { status: 'unavailable', missing: ['IDP_API_KEY'] }, 'signed-out'],
    [true, { status: 'signed-in', user }, 'signed-in:u1'],
  ])('auth required %s, session %o: %s', (authRequired, session, key) => {
    expect(docsAccessKey(authRequired, session)).toBe(key);
  });
});
