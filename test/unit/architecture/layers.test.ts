/**
 * The folder layout is the architecture, and these rules keep it so. In `functions/src` the
 * edge (the HTTP core in `http/`, the route families in `families/`, the entry file) may use the
 * domain, never the other way round, and the assessment engine stays a pure evaluator. In the
 * web app, `lib/` is logic that knows no component and components know no view; in `scripts/`,
 * the modules the entry scripts share (`lib/`, `bench/`) know no entry script. The deployed
 * functions import neither the scripts nor the web app. The contract package
 * (`@evident/contract`) imports nothing but its own modules, and everything else takes it by its
 * name. And no two modules anywhere need each other.
 *
 * Imports are read with the TypeScript parser (a component's from its `<script>` blocks):
 * static imports and re-exports, type-only ones included, and dynamic `import()`. Type-only
 * imports count, for the cycle rule too: a type cycle still means neither module can be read,
 * changed or moved without the other, and one runtime import added later turns it into a
 * load-order bug.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../scripts/lib/paths.ts';
import { scriptOf, sourcesUnder } from './sources.ts';

/** The folders read, by their paths in the repository. */
const roots = ['packages/contract/src', 'functions/src', 'openapi', 'scripts', 'hosting/src'];

const contract = JSON.parse(readFileSync(join(paths.root, 'packages/contract/package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string>;
};
/**
 * Specifiers that name files of the repository: the web app's alias for the generated API types
 * (hosting/tsconfig.json `paths`) and each entry point of the contract package.
 */
const aliases = new Map([
  ['$api-types', 'functions/src/generated/api-types.ts'],
  ...Object.entries(contract.exports).map(([entry, file]): [string, string] => [
    `${contract.name}${entry.slice(1)}`,
    join('packages/contract', file),
  ]),
]);

/** The module specifiers a file imports, statically or with `import()`. */
function specifiersIn(file: string): string[] {
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
  visit(scriptOf(file));
  return found;
}

/** The repository path a specifier names, or undefined for a package. `.js` names the `.ts` beside it. */
function resolveSpecifier(file: string, specifier: string): string | undefined {
  const aliased = aliases.get(specifier);
  if (aliased) return aliased;
  if (!specifier.startsWith('.')) return undefined;
  const path = resolve(dirname(file), specifier);
  const source = path.endsWith('.js') && !existsSync(path) ? `${path.slice(0, -'.js'.length)}.ts` : path;
  return relative(paths.root, source);
}

/** Each module of the roots (by its path in the repository) and the files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap((root) => sourcesUnder(join(paths.root, root)))) {
    const imports = specifiersIn(file).flatMap((specifier) => resolveSpecifier(file, specifier) ?? []);
    graph.set(relative(paths.root, file), [...new Set(imports)]);
  }
  return graph;
}

const graph = importGraph();
const edges = [...graph].flatMap(([from, imports]) => imports.map((to) => ({ from, to })));
const named = ({ from, to }: { from: string; to: string }) => `${from} -> ${to}`;

/** The imports from modules under one folder into another, as `from -> to`. */
const importsBetween = (from: (module: string) => boolean, to: (module: string) => boolean) =>
  edges.filter((edge) => from(edge.from) && to(edge.to)).map(named);
const under = (folder: string) => (module: string) => module.startsWith(`${folder}/`);

/** A module's folder right under `functions/src` ('' for the entry file and its neighbours). */
const folderOf = (module: string) => {
  const inner = module.slice('functions/src/'.length);
  return inner.includes('/') ? inner.slice(0, inner.indexOf('/')) : '';
};
const inFunctionsFolder =
  (...folders: string[]) =>
  (module: string) =>
    under('functions/src')(module) && folders.includes(folderOf(module));

/** The edge: what turns requests and triggers into calls of the domain. */
const isEdge = (module: string) => inFunctionsFolder('http', 'families')(module) || module === 'functions/src/index.ts';

/**
 * The few imports of the edge from elsewhere that are meant, each with its reason. Keep this
 * short: a new entry needs as good a reason.
 */
const allowedEdgeImports = new Map<string, string>([
  [
    'functions/src/jobs/analysis-job.ts -> functions/src/http/domain-problems.ts',
    'a failed run reports its problem as an entry of the problem catalog, worded by the one mapping the API uses',
  ],
  [
    'functions/src/jobs/connector-job.ts -> functions/src/http/route-table.ts',
    'a connector\u2019s batches are judged by the body validator the build compiled for POST /api/evidence',
  ],
]);

/** The scripts run from the command line (`node scripts/build.ts`); a few use another's exports. */
const isEntryScript = (module: string) => dirname(module) === 'scripts';

describe('the layers of functions/src', () => {
  it('finds the modules and their imports', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('functions/src/families/evidence.ts')).toContain('functions/src/http/create-family.ts');
  });

  it('lets only the edge (http/, families/, index.ts) import the HTTP core or the families', () => {
    const upward = importsBetween(
      (module) => under('functions/src')(module) && !isEdge(module),
      inFunctionsFolder('http', 'families'),
    ).filter((edge) => !allowedEdgeImports.has(edge));
    expect(upward).toEqual([]);
  });

  it('lists no allowed exception that is no longer needed', () => {
    const present = new Set(edges.map(named));
    expect([...allowedEdgeImports.keys()].filter((edge) => !present.has(edge))).toEqual([]);
  });

  it('keeps the assessment engine pure: no reports, evidence stores, families or HTTP', () => {
    const forbidden = ['reports', 'evidence', 'families', 'http', 'jobs', 'storage', 'analyses'];
    expect(importsBetween(inFunctionsFolder('assessment'), inFunctionsFolder(...forbidden))).toEqual([]);
  });

  it('imports nothing from the scripts or the web app', () => {
    expect(importsBetween(under('functions/src'), (module) => under('scripts')(module) || under('hosting')(module))).toEqual([]);
  });
});

describe('the layers of the web app', () => {
  it('finds its modules and components, and their imports', () => {
    expect(graph.get('hosting/src/main.ts')).toContain('hosting/src/App.svelte');
    expect(importsBetween(under('hosting/src/views'), under('hosting/src/components')).length).toBeGreaterThan(0);
    // The alias of the generated API types is followed too.
    expect(importsBetween(under('hosting/src'), (module) => module === 'functions/src/generated/api-types.ts')).not.toEqual([]);
  });

  it('keeps lib/ free of components and views', () => {
    const ui = (module: string) => under('hosting/src/components')(module) || under('hosting/src/views')(module);
    expect(importsBetween(under('hosting/src/lib'), ui)).toEqual([]);
  });

  it('lets no component import a view', () => {
    expect(importsBetween(under('hosting/src/components'), under('hosting/src/views'))).toEqual([]);
  });
});

describe('the contract package', () => {
  it('is what every part imports its values from, by name', () => {
    for (const root of ['functions/src', 'openapi', 'scripts', 'hosting/src'])
      expect(importsBetween(under(root), under('packages/contract'))).not.toEqual([]);
  });

  it('imports nothing but its own modules', () => {
    expect(importsBetween(under('packages/contract'), (module) => !under('packages/contract')(module))).toEqual([]);
  });

  it('is imported by its name, never by a path into the package', () => {
    const byPath = [...graph.keys()].filter((module) =>
      specifiersIn(join(paths.root, module)).some(
        (specifier) => specifier.startsWith('.') && specifier.includes('packages/contract'),
      ),
    );
    expect(byPath).toEqual([]);
  });
});

describe('the layers of the scripts', () => {
  it('finds the entry scripts and the modules they use', () => {
    expect(graph.get('scripts/build.ts')).toContain('scripts/lib/paths.ts');
  });

  it('lets no shared module (lib/, bench/) import an entry script', () => {
    expect(importsBetween((module) => under('scripts')(module) && !isEntryScript(module), isEntryScript)).toEqual([]);
  });
});

describe('every module read', () => {
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
