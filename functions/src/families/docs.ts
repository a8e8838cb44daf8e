/** The `docs` family: the documentation index and pages, gated pages protected in protected mode. */
import { loadDocsLibrary, type DocsLibrary } from '../docs/docs-library.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { andThen, loadOnce, type MaybePromise } from '../common/maybe-async.js';
import { ApiProblem } from '../http/problem.js';

export interface DocsFamilyOptions extends FamilyOptions {
  /** The pages to serve; the build's rendered bundle unless a test gives others. */
  library?: () => MaybePromise<DocsLibrary>;
}

export function createDocsFamily({ library = loadDocsLibraryOnce, ...options }: DocsFamilyOptions = {}) {
  return createFamily(
    'docs',
    {
      listDocs: (_input, { authRequired, caller }) =>
        andThen(library(), (docs) => ({
          status: 200,
          // Gated pages are protected only in protected mode, so in public mode everyone may list them.
          body: { pages: docs.index(!authRequired || caller !== undefined) },
        })),

      getDocPage: ({ path }, context) =>
        andThen(library(), (docs) => {
          const page = docs.served(path.slug);
          if (!page) throw new ApiProblem('doc_not_found', `No documentation page has the slug "${path.slug}".`);
          if (page.gated) context.protect();
          return {
            status: 200 as const,
            body: page.bytes,
            etag: page.etag,
            // A gated page may be answered differently per caller, so no shared cache may keep it.
            cacheControl: page.gated ? 'private, no-cache' : 'public, max-age=300',
          };
        }),
    },
    options,
  );
}

/** The rendered docs, read once; a failed read is tried again on the next request. */
const loadDocsLibraryOnce = loadOnce(loadDocsLibrary);

export const handler = createDocsFamily();
