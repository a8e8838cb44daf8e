/**
 * Markdown to safe HTML for everything the build renders (docs pages, control text): markdown-it
 * without raw HTML, then sanitize-html with a short allow-list.
 */
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
import sanitizeHtml from 'sanitize-html';

export interface Heading {
  depth: number;
  id: string;
  text: string;
}

/** A heading's id: lowercase words joined by hyphens, underscores kept (`invalid_request`). */
export function headingId(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-');
}

export function renderMarkdown(source: string): { html: string; headings: Heading[] } {
  const headings: Heading[] = [];
  const markdown = new MarkdownIt({ html: false, linkify: true }).use(anchor, {
    slugify: headingId,
    callback: (token, { slug: id, title }) => headings.push({ depth: Number(token.tag.slice(1)), id, text: title }),
  });
  const html = sanitizeHtml(markdown.render(source), {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'h1', 'h2', 'img'],
    allowedAttributes: {
      '*': ['id'],
      a: ['href', 'title'],
      code: ['class'],
      img: ['src', 'alt', 'title'],
      th: ['style'],
      td: ['style'],
    },
    allowedClasses: { code: [/^language-[\w-]+$/] },
    allowedStyles: { '*': { 'text-align': [/^(?:left|right|center)$/] } },
    allowedSchemes: ['http', 'https', 'mailto'],
  });
  return { html, headings };
}
