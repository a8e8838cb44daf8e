/**
 * Regenerates the committed files derived from the OpenAPI description: the API types, the
 * family map, the API version, the reference pages in `docs/reference/` and the Hosting
 * rewrites in firebase.json (the rest of that file is written by hand).
 *
 *   node scripts/generate.ts          write them
 *   node scripts/generate.ts --check  write nothing; list the files that are stale and fail
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildDocument } from '../openapi/document.ts';
import { renderApiTypes, renderApiVersion, renderFamilyTypes } from './lib/api-types.ts';
import { withHostingRewrites } from './lib/hosting-rewrites.ts';
import { paths, root } from './lib/paths.ts';
import { renderReferencePages } from './lib/reference-docs.ts';

/** Every generated file with its expected content, by absolute path. */
export async function expectedFiles(): Promise<Map<string, string>> {
  const document = buildDocument();
  const files = new Map<string, string>([
    [paths.apiTypes, await renderApiTypes(document)],
    [paths.familiesTypes, renderFamilyTypes(document)],
    [paths.apiVersion, renderApiVersion(document)],
    [paths.firebaseJson, await withHostingRewrites(paths.firebaseJson, readFileSync(paths.firebaseJson, 'utf8'), document)],
  ]);
  for (const [file, content] of renderReferencePages(document)) files.set(join(paths.docs, file), content);
  return files;
}

/** Generated files that differ from what the description gives, and reference pages it no longer gives. */
export async function staleFiles(): Promise<string[]> {
  const expected = await expectedFiles();
  const stale = [...expected]
    .filter(([file, content]) => !existsSync(file) || readFileSync(file, 'utf8') !== content)
    .map(([file]) => file);
  const orphans = existsSync(paths.referenceDocs)
    ? readdirSync(paths.referenceDocs)
        .map((name) => join(paths.referenceDocs, name))
        .filter((file) => !expected.has(file))
    : [];
  return [...stale, ...orphans].map((file) => relative(root, file));
}

export async function writeGeneratedFiles(): Promise<void> {
  const expected = await expectedFiles();
  rmSync(paths.referenceDocs, { recursive: true, force: true });
  for (const [file, content] of expected) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

if (import.meta.main) {
  if (process.argv.includes('--check')) {
    const stale = await staleFiles();
    if (stale.length > 0) {
      console.error(
        `Generated files are out of date with the OpenAPI description:\n  ${stale.join('\n  ')}\nRun: npm run generate`,
      );
      process.exit(1);
    }
    console.log('Generated files are up to date.');
  } else {
    await writeGeneratedFiles();
    console.log('Generated files written.');
  }
}
