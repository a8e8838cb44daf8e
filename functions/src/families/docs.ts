/** The `docs` family: the documentation index and pages, gated pages protected in protected mode. */
import { loadDocsLibrary, type DocsLibrary } from '../docs/docs-library.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import { andThen, loadOnce, type MaybePromise } from '../http/maybe-async.js';
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
          const record = docs.page(path.slug);
          if (!record) throw new ApiProblem('doc_not_found', `No documentation page has the slug "${path.slug}".`);
          if (record.gated) context.protect();
          const { etag, ...page } = record;
          return {
            status: 200 as const,
            body: page,
            etag,
            // A gated page may be answered differently per caller, so no shared cache may keep it.
            cacheControl: record.gated ? 'private, no-cache' : 'public, max-age=300',
          };
        }),
    },
    options,
  );
}

/** The rendered docs, read once; a failed read is tried again on the next request. */
const loadDocsLibraryOnce = loadOnce(loadDocsLibrary);

export const handler = createDocsFamily();
