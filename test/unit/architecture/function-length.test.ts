/**
 * No function grows past what a reader can hold at once. The aim is about 80 lines; the rule
 * fails at 100, so a function near the aim can take a fix without a split, and one that keeps
 * growing is split by concern (as the demo collectors, chat's `classify` and the bench runner
 * were). A function's length is its whole span, the functions written inside it included: a
 * factory that holds every handler is as long to read as its handlers together.
 *
 * Covers the deployed functions, the scripts and the web app's logic; generated code is left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../scripts/lib/paths.ts';

const maxLines = 100;
const roots = [join(paths.functions, 'src'), join(paths.root, 'scripts'), join(paths.hosting, 'src', 'lib')];
const generated = join(paths.functions, 'src', 'generated');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === generated ? [] : sourcesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every function-like node of a file with its name (or where it is) and its length in lines. */
function functionsIn(file: string, text: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
      const holder =
        ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : undefined;
      found.push({ name: `${named ?? holder ?? 'a function'} (line ${start + 1})`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it(`keeps every function in functions/src, scripts and the web app's lib under ${maxLines} lines`, () => {
    const tooLong = roots.flatMap(sourcesUnder).flatMap((file) =>
      functionsIn(file, readFileSync(file, 'utf8'))
        .filter((fn) => fn.lines > maxLines)
        .map((fn) => `${relative(paths.root, file)}: ${fn.name} is ${fn.lines} lines`),
    );
    expect(tooLong).toEqual([]);
  });

  it('measures a function by its whole span, nested functions included', () => {
    const inner = Array.from({ length: 3 }, (_, index) => `  const f${index} = () => {\n    return ${index};\n  };`).join('\n');
    const lengths = functionsIn('probe.ts', `export function outer() {\n${inner}\n}\n`).map((fn) => fn.lines);
    expect(lengths).toEqual([11, 3, 3, 3]);
  });
});
