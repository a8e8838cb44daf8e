/**
 * The source files the architecture tests read, each as TypeScript: a `.ts` file as it is, a
 * `.svelte` file as its `<script>` blocks where they stand, the markup blanked to spaces so
 * every line keeps its number (Svelte's own parser finds the blocks).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type AST } from 'svelte/compiler';
import ts from 'typescript';

/** The `.ts` and `.svelte` files under `dir`, declaration files and the folders in `skip` left out. */
export function sourcesUnder(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.includes(path) ? [] : sourcesUnder(path, skip);
    return (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) || entry.name.endsWith('.svelte') ? [path] : [];
  });
}

/** The TypeScript of a file's text: all of a `.ts` file, the script blocks of a `.svelte` one. */
export function scriptOf(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, file.endsWith('.svelte') ? svelteScripts(text) : text, ts.ScriptTarget.Latest, true);
}

/** A component's text with everything but its script blocks' contents turned to spaces, line breaks kept. */
function svelteScripts(text: string): string {
  const { module, instance } = parse(text, { modern: true });
  // Svelte's parser gives every node its offsets in the file; the ESTree type of a script's content does not say so.
  type Located = AST.Script['content'] & { start: number; end: number };
  const blocks = [module, instance].flatMap((script) => (script ? [script.content as Located] : []));
  let kept = '';
  let at = 0;
  for (const { start, end } of blocks.sort((a, b) => a.start - b.start)) {
    kept += text.slice(at, start).replace(/[^\n]/g, ' ') + text.slice(start, end);
    at = end;
  }
  return kept + text.slice(at).replace(/[^\n]/g, ' ');
}
