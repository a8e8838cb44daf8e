/**
 * The documentation pages, as the build renders them from `docs/**\/*.md` into
 * `lib/generated/docs.json`: Markdown already turned into sanitised HTML, so serving a page
 * is a map lookup. Slugs index a map, never the file system, so no slug can read outside it.
 */
import { readFile } from 'node:fs/promises';
import type { components } from '../generated/api-types.js';

export type DocSummary = components['schemas']['DocSummary'];
export type DocPage = components['schemas']['DocPage'];

export interface DocRecord extends DocPage {
  /** Strong validator of the page's content. */
  etag: string;
}

export interface DocsBundle {
  pages: DocRecord[];
}

/** A page as it is served: its JSON bytes, made once, and their validator. */
export interface ServedPage {
  gated: boolean;
  bytes: Buffer;
  etag: string;
}

export class DocsLibrary {
  readonly #pages: Map<string, DocRecord>;
  readonly #summaries: DocSummary[];
  readonly #served = new Map<string, ServedPage>();

  constructor(bundle: DocsBundle) {
    const sorted = [...bundle.pages].sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
    this.#pages = new Map(sorted.map((page) => [page.slug, page]));
    this.#summaries = sorted.map(({ slug, title, description, section, order, gated }) => ({
      slug,
      title,
      description,
      section,
      order,
      gated,
    }));
  }

  /** The pages a reader may list; gated ones only when `includeGated`. */
  index(includeGated: boolean): DocSummary[] {
    return includeGated ? this.#summaries : this.#summaries.filter((page) => !page.gated);
  }

  /** A page's response body, serialised on its first request rather than on every one. */
  served(slug: string): ServedPage | undefined {
    let served = this.#served.get(slug);
    if (!served) {
      const record = this.#pages.get(slug);
      if (!record) return undefined;
      const { etag, ...page } = record;
      served = { gated: record.gated, bytes: Buffer.from(JSON.stringify(page)), etag };
      this.#served.set(slug, served);
    }
    return served;
  }
}

export async function loadDocsLibrary(): Promise<DocsLibrary> {
  const text = await readFile(new URL('../generated/docs.json', import.meta.url), 'utf8');
  return new DocsLibrary(JSON.parse(text) as DocsBundle);
}
