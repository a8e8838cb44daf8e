/**
 * No function grows past what a reader can hold at once: a screen, 80 lines. One that would
 * grow past it is split by concern (as the demo collectors, chat's `classify` and the bench
 * runner were). A function's length is its whole span, the functions written inside it
 * included: a factory that holds every handler is as long to read as its handlers together.
 *
 * Covers the contract package, the deployed functions, the description's sources, the scripts and the web app, its
 * components' `<script>` blocks included (at their lines in the component); generated code and
 * the released descriptions are left out.
 */
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../scripts/lib/paths.ts';
import { scriptOf, sourcesUnder } from './sources.ts';

const maxLines = 80;
const roots = ['packages/contract/src', 'functions/src', 'openapi', 'scripts', 'hosting/src'].map((root) =>
  join(paths.root, root),
);
const leftOut = [join(paths.functions, 'src', 'generated'), paths.releasedDescriptions];

/** Every function-like node of a file with its name (or where it is) and its length in lines. */
function functionsIn(file: string, text?: string): { name: string; lines: number }[] {
  const source = scriptOf(file, text);
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
  it(`keeps every function in functions/src, openapi, scripts and the web app within ${maxLines} lines`, () => {
    const tooLong = roots
      .flatMap((root) => sourcesUnder(root, leftOut))
      .flatMap((file) =>
        functionsIn(file)
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

  it("measures a component's script functions at their lines in the component, the markup's expressions left out", () => {
    const component = [
      '<script module lang="ts">',
      '  export const shared = () => 1;',
      '</script>',
      '',
      '<script lang="ts">',
      '  function show(value: number) {',
      '    return value;',
      '  }',
      '</script>',
      '',
      '<button onclick={() => show(shared())}>Show</button>',
    ].join('\n');
    expect(functionsIn('Probe.svelte', component)).toEqual([
      { name: 'shared (line 2)', lines: 1 },
      { name: 'show (line 6)', lines: 3 },
    ]);
  });
});
