/**
 * Releases the API: `npm run release -- <major|minor|patch>`.
 *
 * Raises the version of the last release (`openapi/released/<version>.json`) by the part given,
 * refusing a smaller part than the changes since require, and refusing stable removals the last
 * release had not deprecated. Writes the version into the packages (and the lock file), the new
 * released description in place of the old one, a CHANGELOG.md entry from the differences, and
 * the generated files. Nothing is committed: read the entry, edit it if you like, then commit.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDocument, operationsOf } from '../openapi/document.ts';
import { bumped, checkVersion, type Bump, type Document } from './lib/api-changes.ts';
import { changelogEntry, withEntry } from './lib/changelog.ts';
import { paths } from './lib/paths.ts';
import { problemsOf, releasedDescription } from './lib/released-description.ts';
import { writeGeneratedFiles } from './generate.ts';
import { apiVersionHeader } from '@evident/contract';
import { run } from './lib/run.ts';

const packageFiles = [
  join(paths.root, 'package.json'),
  join(paths.functions, 'package.json'),
  join(paths.hosting, 'package.json'),
  join(paths.root, 'packages', 'contract', 'package.json'),
];

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** Writes `version` into the four packages and the lock file's entries for them. */
function writeVersion(version: string): void {
  for (const file of packageFiles) writeFileSync(file, JSON.stringify({ ...readJson(file), version }, null, 2) + '\n');
  const lockFile = join(paths.root, 'package-lock.json');
  const lock = readJson(lockFile) as { version?: string; packages: Record<string, { version?: string }> };
  lock.version = version;
  for (const key of ['', 'functions', 'hosting', 'packages/contract'])
    if (lock.packages[key]) lock.packages[key].version = version;
  writeFileSync(lockFile, JSON.stringify(lock, null, 2) + '\n');
  // The description itself is a static file on Hosting: its answer names the version as well.
  const firebase = readJson(paths.firebaseJson) as {
    hosting: { headers: { source?: string; headers: { key: string; value: string }[] }[] };
  };
  const description = firebase.hosting.headers.find((entry) => entry.source === openapiSource);
  if (!description) throw new Error(`firebase.json has no headers for ${openapiSource}`);
  description.headers = [
    ...description.headers.filter((header) => header.key !== apiVersionHeader),
    { key: apiVersionHeader, value: version },
  ];
  writeFileSync(paths.firebaseJson, JSON.stringify(firebase, null, 2) + '\n');
}

/** The Hosting source of the static description and its explorer. */
export const openapiSource = '/api/@(openapi.json|swagger)';

export function release(bump: Bump, today = new Date().toISOString().slice(0, 10)): string {
  const released = releasedDescription();
  const current = buildDocument() as unknown as Document;
  const version = bumped(released?.version ?? current.info.version, bump);
  // The same check as `npm test`'s, of the version this release would give.
  const check = released && checkVersion(released.document, { ...current, info: { ...current.info, version } });
  if (check && check.problems.length > 0) throw new Error(problemsOf(check).join('\n'));
  writeVersion(version);
  const document = buildDocument();
  if (released) rmSync(released.file);
  writeFileSync(join(paths.releasedDescriptions, `${version}.json`), JSON.stringify(document, null, 2) + '\n');
  const firstOperations = released
    ? undefined
    : operationsOf(document)
        .filter(({ operation }) => operation['x-beta'] !== true)
        .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
  const entry = changelogEntry(version, today, check?.changes ?? [], firstOperations);
  const existing = existsSync(paths.changelog) ? readFileSync(paths.changelog, 'utf8') : undefined;
  writeFileSync(paths.changelog, withEntry(existing, entry));
  return version;
}

if (import.meta.main) {
  const bump = process.argv[2];
  if (bump !== 'major' && bump !== 'minor' && bump !== 'patch') {
    console.error('Usage: npm run release -- <major|minor|patch>');
    process.exit(2);
  }
  try {
    const version = release(bump);
    await writeGeneratedFiles();
    await run('prettier', ['--write', '--log-level', 'warn', paths.changelog, paths.firebaseJson, ...packageFiles]);
    console.log(`Released ${version}: the packages, openapi/released/${version}.json, CHANGELOG.md and the generated files.`);
    console.log('Read the CHANGELOG.md entry, edit it if you like, then commit.');
  } catch (error) {
    console.error(`Not released: ${(error as Error).message}`);
    process.exit(1);
  }
}
