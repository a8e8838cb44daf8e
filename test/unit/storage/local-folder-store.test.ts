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
import { listNames, ObjectNotFound } from '../../../functions/src/storage/object-store.ts';
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

  it('lets exactly one of four processes create each of 300 objects they race for', async () => {
    const dir = join(root, 'processes-creates');
    const made = (await Promise.all(Array.from({ length: 4 }, () => runWorker(dir, 'create', 'items', '300', '4')))).map(Number);
    expect(made.reduce((sum, count) => sum + count, 0)).toBe(300);
    // Each object holds its creator's process id: every process made exactly the objects it counted.
    const store = new LocalFolderStore(dir);
    expect(await listNames(store, 'items/')).toHaveLength(300);
    const creators = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => (await store.read(`items/${i}`)).data.toString()),
    );
    const byCreator = Object.values(Object.groupBy(creators, (pid) => pid)).map((objects) => objects!.length);
    const ascending = (a: number, b: number) => a - b;
    expect(byCreator.sort(ascending)).toEqual(made.filter((count) => count > 0).sort(ascending));
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });

  it('never lets a create overwrite an object that another process is replacing or deleting', async () => {
    // Each worker checks that the object it created stays its own until it deletes it, and
    // fails (rejecting runWorker) the moment it does not.
    const dir = join(root, 'processes-churn');
    const made = (await Promise.all(Array.from({ length: 4 }, () => runWorker(dir, 'churn', 'shared/owned', '150', '4')))).map(
      Number,
    );
    expect(made.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
    await expect(new LocalFolderStore(dir).stat('shared/owned')).rejects.toBeInstanceOf(ObjectNotFound);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    expect(readdirSync(join(dir, 'locks')).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });
});
