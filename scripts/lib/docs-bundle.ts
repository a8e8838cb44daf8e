/**
 * Renders `docs/**\/*.md` into the bundle the docs function serves: frontmatter checked (an
 * unknown key such as a misspelt `gated` fails the build rather than publishing a page),
 * Markdown rendered (`markdown.ts`), headings given ids, HTML sanitised, links between pages
 * checked. Errors name the file.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import matter from 'gray-matter';
import type { DocRecord, DocsBundle } from '../../functions/src/docs/docs-library.ts';
import { slugMaxLength, slugPattern } from '@evident/contract';
import { renderMarkdown } from './markdown.ts';

export { headingId } from './markdown.ts';

interface Frontmatter {
  title: string;
  description: string;
  section: string;
  order: number;
  gated: boolean;
}

const fields: Record<keyof Frontmatter, (value: unknown) => boolean> = {
  title: (value) => typeof value === 'string' && value.trim() !== '',
  description: (value) => typeof value === 'string' && value.trim() !== '',
  section: (value) => typeof value === 'string' && value.trim() !== '',
  order: (value) => typeof value === 'number' && Number.isFinite(value),
  gated: (value) => typeof value === 'boolean',
};

export class DocsError extends Error {}

/** `reference/errors.md` → `reference-errors`. */
export function slugOf(file: string): string {
  return file.replace(/\.md$/, '').split(sep).join('-');
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

export function renderDocs(dir: string): DocsBundle {
  const pages: DocRecord[] = [];
  for (const file of markdownFiles(dir)) {
    const slug = slugOf(file);
    const fail = (message: string): never => {
      throw new DocsError(`docs/${file}: ${message}`);
    };
    if (!new RegExp(slugPattern).test(slug) || slug.length > slugMaxLength) {
      fail(`the slug "${slug}" must be lowercase words joined by hyphens (rename the file)`);
    }
    const { data, content } = matter(readFileSync(join(dir, file), 'utf8'));
    for (const key of Object.keys(data)) if (!(key in fields)) fail(`unknown frontmatter key "${key}"`);
    for (const [key, valid] of Object.entries(fields)) {
      if (!valid(data[key]))
        fail(
          `frontmatter "${key}" is missing or not a ${key === 'order' ? 'number' : key === 'gated' ? 'boolean' : 'non-empty string'}`,
        );
    }
    const frontmatter = data as Frontmatter;
    const { html, headings } = renderMarkdown(content);
    const page = { slug, ...frontmatter, html, markdown: content, headings };
    const etag = `"${createHash('sha256').update(JSON.stringify(page)).digest('base64url').slice(0, 27)}"`;
    pages.push({ ...page, etag });
  }
  checkLinks(pages);
  return { pages };
}

/** Every `/docs/<slug>` link must name a page, and every `#anchor` on it a heading. */
function checkLinks(pages: DocRecord[]): void {
  const bySlug = new Map(pages.map((page) => [page.slug, page]));
  for (const page of pages) {
    for (const [, slug, anchorId] of page.html.matchAll(/href="\/docs\/([^"#?]*)(?:#([^"]*))?"/g)) {
      const target = bySlug.get(slug ?? '');
      if (!target) throw new DocsError(`docs page "${page.slug}" links to /docs/${slug}, which does not exist`);
      if (anchorId && !target.headings.some((heading) => heading.id === anchorId)) {
        throw new DocsError(`docs page "${page.slug}" links to /docs/${slug}#${anchorId}, which has no such heading`);
      }
    }
  }
}
