/** The `docs` family: the documentation index and pages, gated pages protected in protected mode. */
import { loadDocsLibrary, type DocsLibrary } from '../docs/docs-library.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { ApiProblem } from '../http/problem.js';

export interface DocsFamilyOptions extends FamilyOptions {
  /** The pages to serve; the build's rendered bundle unless a test gives others. */
  library?: () => Promise<DocsLibrary>;
}

export function createDocsFamily({ library = loadDocsLibraryOnce, ...options }: DocsFamilyOptions = {}) {
  return createFamily(
    'docs',
    {
      listDocs: async (_input, { authRequired, caller }) => ({
        status: 200,
        // Gated pages are protected only in protected mode, so in public mode everyone may list them.
        body: { pages: (await library()).index(!authRequired || caller !== undefined) },
      }),

      getDocPage: async ({ path }, context) => {
        const record = (await library()).page(path.slug);
        if (!record) throw new ApiProblem('doc_not_found', `No documentation page has the slug "${path.slug}".`);
        if (record.gated) context.protect();
        const { etag, ...page } = record;
        return {
          status: 200,
          body: page,
          etag,
          // A gated page may be answered differently per caller, so no shared cache may keep it.
          cacheControl: record.gated ? 'private, no-cache' : 'public, max-age=300',
        };
      },
    },
    options,
  );
}

let loaded: Promise<DocsLibrary> | undefined;
function loadDocsLibraryOnce(): Promise<DocsLibrary> {
  loaded ??= loadDocsLibrary().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

export const handler = createDocsFamily();
