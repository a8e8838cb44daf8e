/**
 * The worked example on the API versions page stays true: types generated from the current
 * description (as `npx openapi-typescript` does, with its defaults), and the page's client code
 * compiled against them in strict mode.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDocument } from '../../../openapi/document.ts';
import { paths } from '../../../scripts/lib/paths.ts';

const page = readFileSync(join(paths.docs, 'api-versions.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'evident-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the TypeScript client example of docs/api-versions.md', () => {
  it('generates its types with the command the page gives', () => {
    expect(page).toContain('npx openapi-typescript http://127.0.0.1:5000/api/openapi.json -o evident-api.d.ts');
  });

  it('compiles in strict mode against types generated from the current description', async () => {
    const example = /```ts\n([\s\S]*?)```/.exec(page)?.[1];
    expect(example).toContain("from './evident-api'");
    const types = astToString(await openapiTS(buildDocument() as Parameters<typeof openapiTS>[0]));
    writeFileSync(join(dir, 'evident-api.d.ts'), types);
    writeFileSync(join(dir, 'client.ts'), example!);
    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
