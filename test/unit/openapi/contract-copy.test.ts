/**
 * The functions load the contract from their own compiled copy (scripts/lib/contract-copy.ts):
 * the copy offers what the sources do, it is what `functions/lib` resolves, and a deploy uploads
 * it while leaving out the functions folder's own `node_modules` and sources. The upload is
 * listed by firebase-tools' own function, with the `ignore` firebase.json gives it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledManifest, contractCopy, contractPackage } from '../../../scripts/lib/contract-copy.ts';
import { paths } from '../../../scripts/lib/paths.ts';

const sourceManifest = JSON.parse(readFileSync(join(contractPackage, 'package.json'), 'utf8'));

describe('the functions’ copy of the contract', () => {
  it('names every entry point of the package at its compiled module', () => {
    expect(compiledManifest(sourceManifest).exports).toEqual({
      '.': './index.js',
      './problems': './problems.js',
      './request-limits': './request-limits.js',
      './upload-limits': './upload-limits.js',
      './evidence-kinds': './evidence-kinds.js',
    });
  });

  it('is what the compiled functions resolve, and exports what the sources do', async () => {
    const fromFunctions = createRequire(join(paths.functionsLib, 'index.js'));
    for (const entry of Object.keys(sourceManifest.exports)) {
      const specifier = entry === '.' ? '@evident/contract' : `@evident/contract/${entry.slice(2)}`;
      const resolved = fromFunctions.resolve(specifier);
      expect(dirname(resolved)).toBe(contractCopy);
      const [compiled, source] = [await import(pathToFileURL(resolved).href), await import(/* @vite-ignore */ specifier)];
      expect(Object.keys(compiled).sort()).toEqual(Object.keys(source).sort());
    }
  });

  describe('in a deploy', () => {
    const root = mkdtempSync(join(tmpdir(), 'evident-upload-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('is uploaded, while the folder’s own node_modules, sources and local files are not', async () => {
      const functions = join(root, 'functions');
      const files = [
        'package.json',
        'lib/index.js',
        'lib/main.js',
        'lib/chunks/chat-Bx1.js',
        'lib/node_modules/@evident/contract/index.js',
        'lib/node_modules/@evident/contract/package.json',
        'node_modules/firebase-functions/package.json',
        'src/index.ts',
        'tsconfig.json',
        '.secret.local',
        '.env.demo-evident',
      ];
      for (const file of files) {
        mkdirSync(dirname(join(functions, file)), { recursive: true });
        writeFileSync(join(functions, file), '{}');
      }
      const firebaseJson = JSON.parse(readFileSync(paths.firebaseJson, 'utf8'));
      const { readdirRecursive } = createRequire(import.meta.url)(
        join(paths.root, 'node_modules/firebase-tools/lib/fsAsync.js'),
      ) as { readdirRecursive(options: { path: string; ignoreStrings: string[] }): Promise<{ name: string }[]> };
      const uploaded = await readdirRecursive({ path: functions, ignoreStrings: firebaseJson.functions[0].ignore });
      expect(uploaded.map((file) => relative(functions, file.name)).sort()).toEqual([
        'lib/chunks/chat-Bx1.js',
        'lib/index.js',
        'lib/main.js',
        'lib/node_modules/@evident/contract/index.js',
        'lib/node_modules/@evident/contract/package.json',
        'package.json',
      ]);
    });
  });
});
