/**
 * The docs pages' pure logic: the index grouped into sections, a page's neighbours, its table
 * of contents, when the docs may be asked for (and asked again) as the session changes, and
 * the fragment links the router does not follow.
 */
import type { DocHeading, DocSummary } from './api-types.ts';

/** The part of the session (lib/session.svelte.ts) that decides what the docs show. */
export type ReaderSession =
  { status: 'signed-in'; user: { uid: string } } | { status: 'not-needed' | 'unavailable' | 'starting' | 'signed-out' };

export interface DocSection {
  name: string;
  pages: DocSummary[];
}

/** The index's pages by section; the server sorts pages, and a section takes the place of its first page. */
export function sectionsOf(pages: readonly DocSummary[]): DocSection[] {
  const sections = new Map<string, DocSummary[]>();
  for (const page of pages) {
    const list = sections.get(page.section);
    if (list) list.push(page);
    else sections.set(page.section, [page]);
  }
  return [...sections].map(([name, list]) => ({ name, pages: list }));
}

/** The pages before and after `slug` in the index, for reading on. */
export function neighboursOf(pages: readonly DocSummary[], slug: string): { previous?: DocSummary; next?: DocSummary } {
  const at = pages.findIndex((page) => page.slug === slug);
  if (at < 0) return {};
  const previous = pages[at - 1];
  const next = pages[at + 1];
  return { ...(previous && { previous }), ...(next && { next }) };
}

/** The headings worth a table of contents: sections and subsections, not the page title. */
export const contentsOf = (headings: readonly DocHeading[]): DocHeading[] =>
  headings.filter((heading) => heading.depth === 2 || heading.depth === 3);

/**
 * What the docs a reader may see depend on: undefined while sign-in is still settling (a gated
 * page asked for then would answer 401 for someone about to be signed in again), and otherwise
 * a key that changes when the person signing in or out changes what the server shows.
 */
export function docsAccessKey(authRequired: boolean, session: ReaderSession): string | undefined {
  if (!authRequired) return 'public';
  switch (session.status) {
    case 'signed-in':
      return `signed-in:${session.user.uid}`;
    case 'signed-out':
    case 'unavailable':
      return 'signed-out';
    default:
      return undefined;
  }
}
