/**
 * The folder layout of `functions/src` is the architecture, and these rules keep it so: the
 * edge (the HTTP core in `http/`, the route families in `families/`, the entry file) may use
 * the domain, never the other way round; the assessment engine stays a pure evaluator; and no
 * two modules need each other.
 *
 * Imports are read with the TypeScript parser: static imports and re-exports, type-only ones
 * included, and dynamic `import()`. Type-only imports count, for the cycle rule too: a type
 * cycle still means neither module can be read, changed or moved without the other, and one
 * runtime import added later turns it into a load-order bug.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../scripts/lib/paths.ts';

const sourceRoot = join(paths.functions, 'src');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The module specifiers a file imports, statically or with `import()`. */
function specifiersIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each module (by its path under `functions/src`) and the modules of `functions/src` it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourcesUnder(sourceRoot)) {
    const imports = specifiersIn(file)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(sourceRoot, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))));
    graph.set(relative(sourceRoot, file), [...new Set(imports)]);
  }
  return graph;
}

const graph = importGraph();
const edges = [...graph].flatMap(([from, imports]) => imports.map((to) => ({ from, to })));
const folderOf = (module: string) => (module.includes('/') ? module.slice(0, module.indexOf('/')) : '');

/** The edge: what turns requests and triggers into calls of the domain. */
const isEdge = (module: string) => ['http', 'families'].includes(folderOf(module)) || module === 'index.ts';

/**
 * The few imports of the edge from elsewhere that are meant, each with its reason. Keep this
 * short: a new entry needs as good a reason.
 */
const allowedEdgeImports = new Map<string, string>([
  [
    'jobs/analysis-job.ts -> http/domain-problems.ts',
    'a failed run reports its problem as an entry of the problem catalog, worded by the one mapping the API uses',
  ],
]);

describe('the layers of functions/src', () => {
  it('finds the modules and their imports', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('families/evidence.ts')).toContain('http/create-family.ts');
  });

  it('lets only the edge (http/, families/, index.ts) import the HTTP core or the families', () => {
    const upward = edges
      .filter(({ from, to }) => !isEdge(from) && ['http', 'families'].includes(folderOf(to)))
      .map(({ from, to }) => `${from} -> ${to}`)
      .filter((edge) => !allowedEdgeImports.has(edge));
    expect(upward).toEqual([]);
  });

  it('lists no allowed exception that is no longer needed', () => {
    const present = new Set(edges.map(({ from, to }) => `${from} -> ${to}`));
    expect([...allowedEdgeImports.keys()].filter((edge) => !present.has(edge))).toEqual([]);
  });

  it('keeps the assessment engine pure: no reports, evidence stores, families or HTTP', () => {
    const forbidden = ['reports', 'evidence', 'families', 'http', 'jobs', 'storage', 'analyses'];
    const reaching = edges
      .filter(({ from, to }) => folderOf(from) === 'assessment' && forbidden.includes(folderOf(to)))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(reaching).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const trail: string[] = [];
    const visit = (module: string): void => {
      if (state.get(module) === 'done') return;
      if (state.get(module) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(module)), module].join(' -> '));
        return;
      }
      state.set(module, 'visiting');
      trail.push(module);
      for (const next of graph.get(module) ?? []) visit(next);
      trail.pop();
      state.set(module, 'done');
    };
    for (const module of [...graph.keys()].sort()) visit(module);
    expect(cycles).toEqual([]);
  });
});
