/** The `docs` family: the product documentation, with gated pages for signed-in readers. */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, jsonResponse, ref, responseRef } from '../components.ts';
import { slugMaxLength, slugPattern } from '@evident/contract';

export const tag = {
  name: 'docs',
  description:
    'Product documentation. Pages marked `gated` need a valid token in protected mode; every other page, ' +
    'and every page in public mode, is public.',
};

const docFields = {
  slug: { type: 'string', pattern: slugPattern, maxLength: slugMaxLength },
  title: { type: 'string' },
  description: { type: 'string' },
  section: { type: 'string', description: 'The section the page belongs to, e.g. "Guides".' },
  order: { type: 'number', description: 'Sort key of the page; sections take the order of their first page.' },
  gated: { type: 'boolean', description: 'True when the page needs a valid token in protected mode.' },
} as const;

export const schemas = {
  DocSummary: {
    type: 'object',
    required: ['slug', 'title', 'description', 'section', 'order', 'gated'],
    additionalProperties: false,
    properties: docFields,
  },
  DocIndex: {
    type: 'object',
    required: ['pages'],
    additionalProperties: false,
    properties: {
      pages: {
        type: 'array',
        description: 'The pages the caller may read, sorted by `order`.',
        items: ref('DocSummary'),
      },
    },
  },
  DocHeading: {
    type: 'object',
    required: ['depth', 'id', 'text'],
    additionalProperties: false,
    properties: {
      depth: { type: 'integer', minimum: 1, maximum: 6 },
      id: { type: 'string', description: 'The `id` of the heading element in `html`.' },
      text: { type: 'string' },
    },
  },
  DocPage: {
    type: 'object',
    required: [...Object.keys(docFields), 'html', 'markdown', 'headings'],
    additionalProperties: false,
    properties: {
      ...docFields,
      html: { type: 'string', description: 'The page rendered to sanitised HTML, safe to insert into a document.' },
      markdown: { type: 'string', description: 'The Markdown source, without its frontmatter.' },
      headings: { type: 'array', items: ref('DocHeading') },
    },
  },
} as const;

export const paths: PathsObject = {
  '/api/docs/index': {
    get: {
      operationId: 'listDocs',
      summary: 'List documentation pages',
      description:
        'Every page the caller may read. In protected mode gated pages are listed only to a caller with a ' +
        'valid token; an invalid token is not an error here, it just lists the public pages.',
      tags: ['docs'],
      security: access.optional,
      responses: {
        '200': jsonResponse('The documentation index.', ref('DocIndex')),
        '400': responseRef('BadRequest'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/docs/page/{slug}': {
    get: {
      operationId: 'getDocPage',
      summary: 'Read a documentation page',
      description:
        'One page, as sanitised HTML and as its Markdown source. A gated page in protected mode needs a valid ' +
        'token (401 otherwise); every other page is public.',
      tags: ['docs'],
      security: access.optional,
      parameters: [
        {
          name: 'slug',
          in: 'path',
          required: true,
          description: 'The page slug from the index.',
          schema: docFields.slug,
          examples: { gettingStarted: { value: 'getting-started' } },
        },
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'An `ETag` from an earlier response; a match answers 304 without a body.',
          schema: { type: 'string', maxLength: 200 },
        },
      ],
      responses: {
        '200': jsonResponse('The page.', ref('DocPage'), {
          ETag: { description: 'Strong validator of the page content.', schema: { type: 'string' } },
        }),
        '304': { description: 'The page has not changed since the `ETag` in `If-None-Match`.' },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('DocNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
