/** Rendering `docs/`: frontmatter rules, slugs, sanitised HTML, heading ids and link checks. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderDocs } from '../../../scripts/lib/docs-bundle.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const frontmatter = (fields: Record<string, unknown> = {}) => {
  const all = { title: 'A page', description: 'What it is.', section: 'Guides', order: 1, gated: false, ...fields };
  return `---\n${Object.entries(all)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n')}\n---\n`;
};

function docsWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'evident-docs-'));
  dirs.push(dir);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

describe('renderDocs', () => {
  it('renders each page with its frontmatter, slug from its path, headings and source', () => {
    const { pages } = renderDocs(
      docsWith({ 'guides/first-steps.md': `${frontmatter({ gated: true })}# Hello\n\n## Step one\n\nText.\n` }),
    );
    expect(pages).toHaveLength(1);
    const { etag, ...page } = pages[0]!;
    expect(page).toEqual({
      slug: 'guides-first-steps',
      title: 'A page',
      description: 'What it is.',
      section: 'Guides',
      order: 1,
      gated: true,
      html: '<h1 id="hello">Hello</h1>\n<h2 id="step-one">Step one</h2>\n<p>Text.</p>\n',
      markdown: '# Hello\n\n## Step one\n\nText.\n',
      headings: [
        { depth: 1, id: 'hello', text: 'Hello' },
        { depth: 2, id: 'step-one', text: 'Step one' },
      ],
    });
    expect(etag).toMatch(/^"[\w-]{27}"$/);
  });

  it('gives repeated headings distinct ids and keeps underscores', () => {
    const { pages } = renderDocs(docsWith({ 'a.md': `${frontmatter()}## token_expired\n\n## Notes\n\n## Notes\n` }));
    expect(pages[0]!.headings.map((heading) => heading.id)).toEqual(['token_expired', 'notes', 'notes-1']);
  });

  it('escapes raw HTML and drops script links, so no page can inject markup', () => {
    const { pages } = renderDocs(
      docsWith({
        'a.md': `${frontmatter()}<script>alert(1)</script>\n\n[click](javascript:alert(1)) <img src=x onerror=alert(1)>\n`,
      }),
    );
    const { html } = pages[0]!;
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('changes the ETag when the content changes', () => {
    const before = renderDocs(docsWith({ 'a.md': `${frontmatter()}One.\n` })).pages[0]!.etag;
    const after = renderDocs(docsWith({ 'a.md': `${frontmatter()}Two.\n` })).pages[0]!.etag;
    expect(after).not.toBe(before);
  });

  it.each([
    [{ title: undefined }, 'docs/a.md: frontmatter "title" is missing or not a non-empty string'],
    [{ order: 'first' }, 'docs/a.md: frontmatter "order" is missing or not a number'],
    [{ gated: 'yes' }, 'docs/a.md: frontmatter "gated" is missing or not a boolean'],
    [{ gate: true }, 'docs/a.md: unknown frontmatter key "gate"'],
  ])('fails the build on bad frontmatter %j, naming the file', (fields, message) => {
    expect(() => renderDocs(docsWith({ 'a.md': `${frontmatter(fields)}Text.\n` }))).toThrow(message);
  });

  it('fails the build on a file name that cannot be a slug', () => {
    expect(() => renderDocs(docsWith({ 'Getting Started.md': `${frontmatter()}Text.\n` }))).toThrow(
      'docs/Getting Started.md: the slug "Getting Started" must be lowercase words joined by hyphens (rename the file)',
    );
  });

  it('fails the build on a link to a page or heading that does not exist', () => {
    expect(() => renderDocs(docsWith({ 'a.md': `${frontmatter()}[gone](/docs/missing)\n` }))).toThrow(
      'docs page "a" links to /docs/missing, which does not exist',
    );
    expect(() => renderDocs(docsWith({ 'a.md': `${frontmatter()}## Here\n\n[there](/docs/a#there)\n` }))).toThrow(
      'docs page "a" links to /docs/a#there, which has no such heading',
    );
  });
});

describe('the project docs', () => {
  it('render, link correctly, and include at least one gated page', () => {
    const { pages } = renderDocs(join(import.meta.dirname, '../../../docs'));
    const slugs = pages.map((page) => page.slug);
    for (const required of [
      'getting-started',
      'concepts',
      'authentication',
      'configuration',
      'collectors',
      'methodology',
      'reference-errors',
    ]) {
      expect(slugs).toContain(required);
    }
    expect(pages.filter((page) => page.gated).map((page) => page.slug)).toEqual(['methodology']);
  });
});
