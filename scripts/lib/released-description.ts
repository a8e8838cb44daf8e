/**
 * The description of the last release, kept as `openapi/released/<version>.json`: the baseline
 * `npm test` checks the version against and `npm run release` replaces.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDocument } from '../../openapi/document.ts';
import { checkVersion, describeChanges, parseVersion, type Document, type VersionCheck } from './api-changes.ts';
import { paths } from './paths.ts';

export interface ReleasedDescription {
  version: string;
  file: string;
  document: Document;
}

/** The one released description, or undefined before the first release. */
export function releasedDescription(): ReleasedDescription | undefined {
  if (!existsSync(paths.releasedDescriptions)) return undefined;
  const files = readdirSync(paths.releasedDescriptions).filter((name) => name.endsWith('.json'));
  if (files.length > 1) throw new Error(`${paths.releasedDescriptions} holds ${files.join(', ')}; keep only the last release's`);
  if (files.length === 0) return undefined;
  const version = files[0]!.slice(0, -'.json'.length);
  parseVersion(version);
  const file = join(paths.releasedDescriptions, files[0]!);
  const document = JSON.parse(readFileSync(file, 'utf8')) as ReleasedDescription['document'];
  if (document.info.version !== version) throw new Error(`${file} describes version ${document.info.version}`);
  return { version, file, document };
}

/**
 * Why the description's version does not suit its changes since the last release, as lines for
 * a person (the problems, then every change with the bump it requires); empty when it does.
 */
export function apiVersionProblems(): string[] {
  const released = releasedDescription();
  if (!released) return ['No released description in openapi/released/. Run: npm run release -- major'];
  return problemsOf(checkVersion(released.document, buildDocument() as unknown as Document));
}

/** A check's problems, then every change with the bump it requires; empty when there are none. */
export function problemsOf(check: VersionCheck): string[] {
  if (check.problems.length === 0) return [];
  return [
    ...check.problems,
    '',
    `Changes since ${check.baseline}:`,
    ...describeChanges(check.changes).map((line) => `  ${line}`),
  ];
}
