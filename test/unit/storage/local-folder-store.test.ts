/**
 * The local-folder store: the conformance suite, then the property the emulators need most —
 * writers in separate processes (as the functions emulator runs functions) lose nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../../../functions/src/storage/local-folder-store.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { objectStoreConformance } from './conformance.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('LocalFolderStore', () => {
  objectStoreConformance(async () => new LocalFolderStore(root));

  it('leaves no temporary files or locks behind', async () => {
    const store = new LocalFolderStore(join(root, 'tidy'));
    const created = await store.create('a/b', '1');
    await store.replace('a/b', '2', created.generation);
    await store.delete('a/b');
    expect(readdirSync(join(root, 'tidy', 'tmp'))).toEqual([]);
    expect(readdirSync(join(root, 'tidy', 'locks')).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });
});

describe('LocalFolderStore across processes', () => {
  const worker = join(import.meta.dirname, '../../support/store-worker.ts');
  const compiled = join(paths.functionsLib, 'storage', 'local-folder-store.js');

  function runWorker(...args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [worker, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(output.trim()) : reject(new Error(`worker exited ${code}`))));
    });
  }

  it('needs the compiled functions (npm run build)', () => {
    expect(existsSync(compiled), `${compiled} is missing: run npm run build`).toBe(true);
  });

  it('loses no increment when four processes race on one object', async () => {
    const dir = join(root, 'processes-increment');
    await Promise.all(Array.from({ length: 4 }, () => runWorker(dir, 'increment', 'shared/counter', '25')));
    expect((await new LocalFolderStore(dir).read('shared/counter')).data.toString()).toBe('100');
  });

  it('lets exactly one of four processes create the same object', async () => {
    const dir = join(root, 'processes-create');
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => runWorker(dir, 'create', 'reports/2026-11-21.json', '1')));
    expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'exists')).toHaveLength(3);
  });
});
