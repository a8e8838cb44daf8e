/**
 * The local-folder store: the conformance suite; what it owes a disk — objects flushed before
 * they are published, files an earlier version's crash cut short still readable, temporary
 * files of crashed writers removed, a writer whose lock went stale failed rather than the
 * process — and the property the emulators need most: writers in separate processes (as the
 * functions emulator runs functions) lose nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFolderStore, LockLost, type FileSystem } from '../../../functions/src/storage/local-folder-store.ts';
import { infoAsDownloaded, listNames, ObjectNotFound, PreconditionFailed } from '../../../functions/src/storage/object-store.ts';
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

  it('lays out names as earlier versions did, so the stores they wrote stay readable', async () => {
    const dir = join(root, 'layout');
    const fits = 'é'.repeat(42); // 252 characters percent-encoded: the longest kind a file name still holds whole
    mkdirSync(join(dir, 'objects', 'evidence.d', '2026%2E11.d'), { recursive: true });
    const header = { generation: '7', contentType: 'text/plain', metadata: { by: 'v1' }, updated: '2026-11-01T00:00:00.000Z' };
    writeFileSync(join(dir, 'objects', 'evidence.d', '2026%2E11.d', 'item%201%2Ejson.o'), `${JSON.stringify(header)}\nold bytes`);
    const store = new LocalFolderStore(dir);
    expect(await store.read('evidence/2026.11/item 1.json')).toEqual({
      data: Buffer.from('old bytes'),
      info: { name: 'evidence/2026.11/item 1.json', size: 9, ...header },
    });
    await store.create(`${fits}/b.json`, 'new');
    expect(readdirSync(join(dir, 'objects', `${encodeURIComponent(fits)}.d`))).toEqual(['b%2Ejson.o']);
  });

  it('flushes an object to disk before publishing it, and the folders that name it after', async () => {
    const dir = join(root, 'durable');
    const calls: string[] = [];
    const where = (path: unknown) => relative(dir, String(path)).replace(/^tmp\/.*/, 'tmp/*');
    const recording: FileSystem = {
      ...fsPromises,
      open: (async (path: string, flags?: string) => {
        const handle = await fsPromises.open(path, flags);
        const sync = handle.sync.bind(handle);
        handle.sync = async () => {
          calls.push(`sync ${where(path)}`);
          return sync();
        };
        return handle;
      }) as FileSystem['open'],
      link: async (from, to) => {
        calls.push(`link ${where(from)} ${where(to)}`);
        return fsPromises.link(from, to);
      },
      rename: async (from, to) => {
        calls.push(`rename ${where(from)} ${where(to)}`);
        return fsPromises.rename(from, to);
      },
    };
    const store = new LocalFolderStore(dir, { fs: recording });
    const created = await store.create('a/b', '1');
    await store.replace('a/b', '2', created.generation);
    expect(calls).toEqual([
      'sync tmp/*',
      'link tmp/* objects/a.d/b.o',
      'sync objects/a.d',
      'sync objects',
      'sync tmp/*',
      'rename tmp/* objects/a.d/b.o',
      'sync objects/a.d',
    ]);
  });

  it('reads a file that a crash cut short as an empty object, which a replace can repair', async () => {
    const dir = join(root, 'cut-short');
    const store = new LocalFolderStore(dir);
    await store.create('reports/ok', 'fine');
    mkdirSync(join(dir, 'objects', 'reports.d'), { recursive: true });
    const empty = join(dir, 'objects', 'reports.d', 'empty.o');
    const halfHeader = join(dir, 'objects', 'reports.d', 'half.o');
    writeFileSync(empty, '');
    writeFileSync(halfHeader, '{"generation":"17');
    utimesSync(empty, new Date('2026-11-20T06:00:00.123Z'), new Date('2026-11-20T06:00:00.123Z'));
    const cutShort = {
      name: 'reports/empty',
      size: 0,
      generation: String(Date.parse('2026-11-20T06:00:00.123Z') * 1000),
      contentType: 'application/octet-stream',
      metadata: {},
      updated: '2026-11-20T06:00:00.123Z',
    };
    expect(await store.read('reports/empty')).toEqual({ data: Buffer.alloc(0), info: infoAsDownloaded(cutShort) });
    expect(await store.stat('reports/empty')).toEqual(cutShort);
    expect((await store.read('reports/half')).data).toEqual(Buffer.alloc(0));
    expect((await store.list('reports/')).items.map((item) => [item.name, item.size])).toEqual([
      ['reports/empty', 0],
      ['reports/half', 0],
      ['reports/ok', 4],
    ]);
    await expect(store.create('reports/empty', 'again')).rejects.toBeInstanceOf(PreconditionFailed);
    await store.replace('reports/empty', 'repaired', cutShort.generation);
    expect((await store.read('reports/empty')).data.toString()).toBe('repaired');
  });

  it('removes the temporary files of crashed writers on its first write, and not those of writers at work', async () => {
    const dir = join(root, 'abandoned');
    const now = Date.parse('2026-11-21T09:00:00Z');
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    const age = (name: string, minutes: number) => {
      writeFileSync(join(dir, 'tmp', name), 'partial');
      const at = new Date(now - minutes * 60_000);
      utimesSync(join(dir, 'tmp', name), at, at);
    };
    age('crashed-yesterday', 24 * 60);
    age('crashed-61-minutes-ago', 61);
    age('writing-now', 0);
    age('slow-for-59-minutes', 59);
    await new LocalFolderStore(dir, { now: () => now }).create('x', '1');
    expect(readdirSync(join(dir, 'tmp')).sort()).toEqual(['slow-for-59-minutes', 'writing-now']);
  });

  it('fails a write whose lock went stale while it was paused, and the process carries on', async () => {
    const dir = join(root, 'stale-lock');
    let paused: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (paused = resolve));
    let resume: () => void = () => undefined;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    let abandoned: () => void = () => undefined;
    const cleanedUp = new Promise<void>((resolve) => (abandoned = resolve));
    let pause = false;
    const pausing: FileSystem = {
      ...fsPromises,
      // The writer stops as it starts to write its next generation, as a process the OS paused would.
      open: (async (path: string, flags?: string) => {
        if (pause && String(path).includes(`${join(dir, 'tmp')}/`)) {
          paused();
          await resumed;
        }
        return fsPromises.open(path, flags);
      }) as FileSystem['open'],
      unlink: async (path) => {
        await fsPromises.unlink(path);
        if (pause && String(path).includes(`${join(dir, 'tmp')}/`)) abandoned();
      },
    };
    const store = new LocalFolderStore(dir, { fs: pausing, lockStaleMs: 2000 });
    const first = await store.create('shared/doc', 'v1');
    pause = true;
    const write = store.replace('shared/doc', 'v2', first.generation);
    await reached;
    // Another process found the lock stale and took it over: the lock is no longer as this writer left it.
    const [lock] = readdirSync(join(dir, 'locks')).filter((name) => name.endsWith('.lock'));
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'locks', lock!), past, past);

    await expect(write).rejects.toThrow(LockLost);
    await expect(write).rejects.toThrow(
      'The lock on "shared/doc" went stale before the write finished (Unable to update lock within the stale threshold); read the object again.',
    );
    resume();
    await cleanedUp;
    pause = false;
    expect((await store.read('shared/doc')).data.toString()).toBe('v1');
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    const next = await store.replace('shared/doc', 'v3', first.generation);
    expect((await store.read('shared/doc')).info).toEqual(infoAsDownloaded(next));
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
