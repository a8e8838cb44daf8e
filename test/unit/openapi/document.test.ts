/**
 * The OpenAPI description keeps its conventions, and everything derived from it — the
 * Hosting rewrites, the exported functions, the generated files — agrees with it.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { functionsRegion } from '../../../functions/src/config.ts';
import { operationsOf } from '../../../openapi/document.ts';
import { problemCatalog } from '@evident/contract/problems';
import { staleFiles } from '../../../scripts/generate.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { describeOperations, familiesOf, fallbackFamily } from '../../../scripts/lib/route-tables.ts';
import { specDocument } from '../../support/families.ts';

interface Rewrite {
  regex?: string;
  source?: string;
  destination?: string;
  function?: { functionId: string; region: string };
}

const firebase = JSON.parse(readFileSync(paths.firebaseJson, 'utf8')) as { hosting: { rewrites: Rewrite[] } };

/** A family's function as the entry file makes it: `familyFunction(family, () => import(module))`. */
interface FamilyFunction {
  family: string;
  module: string;
}

/** The entry file's exported family functions by export name, read from its syntax tree, so its formatting does not matter. */
function familyExports(): Map<string, FamilyFunction> {
  const file = `${paths.functions}/src/index.ts`;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const exported = new Map<string, FamilyFunction>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const made = declaration.initializer && familyFunctionOf(declaration.initializer);
      if (ts.isIdentifier(declaration.name) && made) exported.set(declaration.name.text, made);
    }
  }
  return exported;
}

function familyFunctionOf(node: ts.Expression): FamilyFunction | undefined {
  if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'familyFunction')
    return undefined;
  const [family, load] = node.arguments;
  if (!family || !ts.isStringLiteral(family) || !load || !ts.isArrowFunction(load)) return undefined;
  const body = load.body;
  if (!ts.isCallExpression(body) || body.expression.kind !== ts.SyntaxKind.ImportKeyword) return undefined;
  const module = body.arguments[0];
  return module && ts.isStringLiteral(module) ? { family: family.text, module: module.text } : undefined;
}

describe('the OpenAPI description', () => {
  const document = specDocument();

  it('is OpenAPI 3.1 with a bearerAuth scheme (http, bearer, JWT)', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components?.securitySchemes?.['bearerAuth']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });

  it('gives every operation an id, summary, family tag, explicit security, and 400 and 500 problem responses', () => {
    for (const { path, family, operation } of operationsOf(document)) {
      expect(operation.operationId, path).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.summary, path).toBeTruthy();
      expect(operation.tags?.[0], path).toBe(family);
      expect(operation.security, path).toBeDefined();
      expect(operation.responses?.['400'], path).toEqual({ $ref: '#/components/responses/BadRequest' });
      expect(operation.responses?.['500'], path).toEqual({ $ref: '#/components/responses/InternalError' });
    }
  });

  it('documents Evident-Api-Version on every answer, and no deprecation headers while nothing is deprecated', () => {
    const version = { $ref: '#/components/headers/ApiVersion' };
    const answers = [
      ...Object.values(document.components?.responses ?? {}),
      ...operationsOf(document).flatMap(({ operation }) => Object.values(operation.responses ?? {})),
    ].filter((response) => !('$ref' in response)) as { headers?: Record<string, unknown> }[];
    expect(answers.length).toBeGreaterThan(40);
    for (const answer of answers) expect(answer.headers?.['Evident-Api-Version']).toEqual(version);
    expect(operationsOf(document).filter(({ operation }) => operation.deprecated)).toEqual([]);
    expect(Object.keys(document.components?.headers ?? {})).not.toContain('Deprecation');
  });

  it('documents exactly the problem codes of the catalog', () => {
    const problem = document.components?.schemas?.['Problem'] as { properties: { code: { enum: string[] } } };
    expect(problem.properties.code.enum).toEqual(Object.keys(problemCatalog));
  });

  it('marks public exactly the operations the contract makes public', () => {
    const access = Object.fromEntries(describeOperations(document).map((operation) => [operation.operationId, operation.access]));
    const publicOrOptional = Object.fromEntries(Object.entries(access).filter(([, value]) => value !== 'protected'));
    expect(publicOrOptional).toEqual({
      getAuthConfig: 'public',
      getAuditSigningKey: 'public',
      listDocs: 'optional',
      getDocPage: 'optional',
    });
    // Everything else — every read of ingested data and every write — is protected in protected mode.
    expect(Object.keys(access).length - Object.keys(publicOrOptional).length).toBe(85);
  });
});

describe('the families', () => {
  const families = familiesOf(specDocument()).filter((family) => family !== fallbackFamily);

  it('each have a Hosting rewrite to their own function, before the fallback and the web app', () => {
    const rewrites = firebase.hosting.rewrites;
    expect(rewrites.map((rewrite) => rewrite.function?.functionId ?? rewrite.destination)).toEqual([
      ...families,
      fallbackFamily,
      '/index.html',
    ]);
    families.forEach((family, index) => {
      expect(rewrites[index]).toEqual({
        regex: `^/api/${family}(?:/.*)?$`,
        function: { functionId: family, region: functionsRegion },
      });
    });
    expect(rewrites[families.length]).toEqual({
      regex: '^/api(?:/.*)?$',
      function: { functionId: fallbackFamily, region: functionsRegion },
    });
  });

  it('each are exported as a function from the entry file, loading their own module', () => {
    const exported = familyExports();
    for (const family of [...families, fallbackFamily]) {
      expect(exported.get(family), family).toEqual({ family, module: `./families/${family}.js` });
    }
  });
});

describe('generated files', () => {
  it('are up to date with the description (run `npm run generate` when this fails)', async () => {
    expect(await staleFiles()).toEqual([]);
  });
});

describe('the deployed Hosting configuration', () => {
  it('names no loopback origin (the emulators get theirs from a config written for them)', () => {
    expect(JSON.stringify(firebase.hosting)).not.toMatch(/127\.0\.0\.1|localhost|:9099/);
  });
});
