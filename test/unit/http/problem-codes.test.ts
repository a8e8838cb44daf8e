/**
 * Every problem code the server can emit — in a problem body, or in the `problem` of a failed
 * analysis run — is an entry of the one catalog, so the API description and the errors page
 * document it. The sources are read as text: a code written anywhere in `functions/src` that
 * the catalog lacks fails here, whichever way it was written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { problemCatalog } from '@evident/contract/problems';
import { paths } from '../../../scripts/lib/paths.ts';

const sourceRoot = join(paths.functions, 'src');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `new ApiProblem('x'`, `runProblem('x'`, a run's `fail('x'`, and `code: 'x'` in a literal. */
const emitted = /(?:\b(?:ApiProblem|runProblem|fail)\(\s*|\bcode: )'([a-z][a-z_]*)'/g;

function codesIn(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(emitted)].map((match) => match[1]!);
}

describe('the problem catalog', () => {
  const found = new Map<string, string[]>();
  for (const file of sourcesUnder(sourceRoot)) {
    for (const code of codesIn(file)) found.set(code, [...(found.get(code) ?? []), file.slice(sourceRoot.length + 1)]);
  }

  it('holds every code the server emits', () => {
    const missing = [...found]
      .filter(([code]) => !(code in problemCatalog))
      .map(([code, files]) => `${code} (${files.join(', ')})`);
    expect(missing).toEqual([]);
    // The scan sees the codes of each kind of emitter, so an empty result means something.
    for (const code of ['invalid_request', 'report_not_found', 'worker_lost', 'internal', 'report_immutable', 'token_expired']) {
      expect(found.has(code), code).toBe(true);
    }
  });
});
