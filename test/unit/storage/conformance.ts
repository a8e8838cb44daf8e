/**
 * The behaviour every object store driver must have, as one suite each driver runs: what
 * Cloud Storage does, the local folder must do too.
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  InvalidObjectName,
  mutateObject,
  ObjectNotFound,
  pages,
  PreconditionFailed,
  type ObjectPage,
  type ObjectStore,
} from '../../../functions/src/storage/object-store.ts';

/** An ISO 8601 time cut to the whole second, as `Last-Modified` gives it. */
const toTheSecond = (time: string) => `${time.slice(0, 19)}.000Z`;

export function objectStoreConformance(makeStore: () => Promise<ObjectStore>): void {
  let counter = 0;
  /** A fresh prefix per test, so tests never see each other's objects. */
  const fresh = async () => ({ store: await makeStore(), prefix: `t${Date.now()}-${counter++}/` });

  describe('read and write', () => {
    it('creates an object and reads back its bytes and metadata', async () => {
      const { store, prefix } = await fresh();
      const created = await store.create(`${prefix}report.json`, '{"score":91.5}', {
        contentType: 'application/json',
        metadata: { runId: 'r1' },
      });
      expect(created).toMatchObject({
        name: `${prefix}report.json`,
        size: 14,
        contentType: 'application/json',
        metadata: { runId: 'r1' },
      });
      expect(created.generation).toMatch(/^\d+$/);
      const { data, info } = await store.read(`${prefix}report.json`);
      expect(data.toString('utf8')).toBe('{"score":91.5}');
      // As a download's headers carry it: keys in lower case, the time to the second.
      expect(info).toEqual({ ...created, metadata: { runid: 'r1' }, updated: toTheSecond(created.updated) });
      expect(await store.stat(`${prefix}report.json`)).toEqual(created);
    });

    it('reads back metadata values in any script, and values that look encoded, as they were written', async () => {
      const { store, prefix } = await fresh();
      const metadata = { subject: 'évidence 😀', share: '50%', word: '=?UTF-8?B?w6k=?=', padded: '  x\t', plain: 'a b' };
      const created = await store.create(`${prefix}doc`, 'x', { metadata });
      expect(created.metadata).toEqual(metadata);
      expect((await store.read(`${prefix}doc`)).info.metadata).toEqual({ ...metadata, padded: 'x' });
      expect((await store.stat(`${prefix}doc`)).metadata).toEqual(metadata);
    });

    it('keeps binary data byte for byte', async () => {
      const { store, prefix } = await fresh();
      const bytes = Buffer.from([0, 10, 13, 255, 0x0a, 0x7b, 0x22]);
      await store.create(`${prefix}blob`, bytes);
      expect((await store.read(`${prefix}blob`)).data.equals(bytes)).toBe(true);
    });

    it('keeps large metadata and large bodies, and reports the size without the metadata', async () => {
      const { store, prefix } = await fresh();
      const metadata = { note: 'n'.repeat(6000), runId: 'r9' };
      const data = Buffer.alloc(300_000, 7);
      await store.create(`${prefix}big`, data, { metadata });
      expect(await store.stat(`${prefix}big`)).toMatchObject({ size: 300_000, metadata });
      expect((await store.read(`${prefix}big`)).data.equals(data)).toBe(true);
    });

    it('defaults the content type and metadata', async () => {
      const { store, prefix } = await fresh();
      const created = await store.create(`${prefix}plain`, 'x');
      expect(created.contentType).toBe('application/octet-stream');
      expect(created.metadata).toEqual({});
    });

    it('answers ObjectNotFound for a missing object', async () => {
      const { store, prefix } = await fresh();
      await expect(store.read(`${prefix}missing`)).rejects.toBeInstanceOf(ObjectNotFound);
      await expect(store.stat(`${prefix}missing`)).rejects.toBeInstanceOf(ObjectNotFound);
    });

    it('lets an object and a "folder" of the same name coexist', async () => {
      const { store, prefix } = await fresh();
      await store.create(`${prefix}a`, 'file');
      await store.create(`${prefix}a/b`, 'nested');
      expect((await store.read(`${prefix}a`)).data.toString()).toBe('file');
      expect((await store.read(`${prefix}a/b`)).data.toString()).toBe('nested');
    });
  });

  describe('preconditions', () => {
    it('refuses to create an object that exists', async () => {
      const { store, prefix } = await fresh();
      await store.create(`${prefix}once`, 'first');
      await expect(store.create(`${prefix}once`, 'second')).rejects.toBeInstanceOf(PreconditionFailed);
      expect((await store.read(`${prefix}once`)).data.toString()).toBe('first');
    });

    it('replaces an object at the generation it was read, with a new generation', async () => {
      const { store, prefix } = await fresh();
      const first = await store.create(`${prefix}doc`, 'v1');
      const second = await store.replace(`${prefix}doc`, 'v2', first.generation, { contentType: 'text/plain' });
      expect(second.generation).not.toBe(first.generation);
      expect(second.contentType).toBe('text/plain');
      expect((await store.read(`${prefix}doc`)).data.toString()).toBe('v2');
    });

    it('refuses to replace at a stale generation, keeping the newer content', async () => {
      const { store, prefix } = await fresh();
      const first = await store.create(`${prefix}doc`, 'v1');
      await store.replace(`${prefix}doc`, 'v2', first.generation);
      await expect(store.replace(`${prefix}doc`, 'v3', first.generation)).rejects.toBeInstanceOf(PreconditionFailed);
      expect((await store.read(`${prefix}doc`)).data.toString()).toBe('v2');
    });

    it('refuses to replace an object that does not exist', async () => {
      const { store, prefix } = await fresh();
      await expect(store.replace(`${prefix}ghost`, 'x', '12345')).rejects.toBeInstanceOf(PreconditionFailed);
    });

    it('gives a recreated object a generation it never had before', async () => {
      const { store, prefix } = await fresh();
      const first = await store.create(`${prefix}doc`, 'v1');
      await store.delete(`${prefix}doc`);
      const again = await store.create(`${prefix}doc`, 'v1');
      expect(again.generation).not.toBe(first.generation);
      await expect(store.replace(`${prefix}doc`, 'v2', first.generation)).rejects.toBeInstanceOf(PreconditionFailed);
    });
  });

  describe('delete', () => {
    it('deletes an object', async () => {
      const { store, prefix } = await fresh();
      await store.create(`${prefix}gone`, 'x');
      await store.delete(`${prefix}gone`);
      await expect(store.read(`${prefix}gone`)).rejects.toBeInstanceOf(ObjectNotFound);
    });

    it('deletes only at the given generation', async () => {
      const { store, prefix } = await fresh();
      const first = await store.create(`${prefix}doc`, 'v1');
      const second = await store.replace(`${prefix}doc`, 'v2', first.generation);
      await expect(store.delete(`${prefix}doc`, { ifGeneration: first.generation })).rejects.toBeInstanceOf(PreconditionFailed);
      await store.delete(`${prefix}doc`, { ifGeneration: second.generation });
      await expect(store.stat(`${prefix}doc`)).rejects.toBeInstanceOf(ObjectNotFound);
    });

    it('answers ObjectNotFound for a missing object', async () => {
      const { store, prefix } = await fresh();
      await expect(store.delete(`${prefix}missing`)).rejects.toBeInstanceOf(ObjectNotFound);
    });
  });

  describe('list', () => {
    it('lists the objects under a prefix in name order, across pages', async () => {
      const { store, prefix } = await fresh();
      const names = [
        'reports/2026-11-02.json',
        'reports/2026-11-01.json',
        'reports/2026-11-10.json',
        'reports/2026-11-03.json',
        'evidence/e1.json',
        'reportsx',
      ];
      for (const name of names) await store.create(prefix + name, name);

      const seen: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const page = await store.list(`${prefix}reports/`, { pageSize: 2, ...(pageToken ? { pageToken } : {}) });
        seen.push(...page.items.map((item) => item.name.slice(prefix.length)));
        expect(page.items.length).toBeLessThanOrEqual(2);
        pageToken = page.nextPageToken;
        pages += 1;
      } while (pageToken);
      expect(seen).toEqual([
        'reports/2026-11-01.json',
        'reports/2026-11-02.json',
        'reports/2026-11-03.json',
        'reports/2026-11-10.json',
      ]);
      expect(pages).toBe(2);
    });

    it('lists with metadata, and matches prefixes that end mid-segment', async () => {
      const { store, prefix } = await fresh();
      await store.create(`${prefix}reports/2026-11-01.json`, 'abc', {
        contentType: 'application/json',
        metadata: { score: '90' },
      });
      await store.create(`${prefix}reports/2026-12-01.json`, 'x');
      const { items, nextPageToken } = await store.list(`${prefix}reports/2026-11`);
      expect(nextPageToken).toBeUndefined();
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        name: `${prefix}reports/2026-11-01.json`,
        size: 3,
        contentType: 'application/json',
        metadata: { score: '90' },
      });
    });

    it('answers an empty page for a prefix with no objects', async () => {
      const { store, prefix } = await fresh();
      expect(await store.list(`${prefix}nothing/`)).toEqual({ items: [] });
    });
  });

  describe('list offsets', () => {
    /** A store holding `names` under a fresh prefix; `at` puts a name under it, `namesOf` takes it off again. */
    async function holding(names: string[]) {
      const { store, prefix } = await fresh();
      for (const name of names) await store.create(prefix + name, name);
      return {
        store,
        at: (name: string) => prefix + name,
        namesOf: (page: ObjectPage) => page.items.map((item) => item.name.slice(prefix.length)),
      };
    }

    it('lists from startOffset up to, not including, endOffset, with no prefix', async () => {
      const { store, at, namesOf } = await holding(['a', 'b', 'b/x', 'c', 'd', 'e']);
      const page = await store.list('', { startOffset: at('b'), endOffset: at('d') });
      expect(namesOf(page)).toEqual(['b', 'b/x', 'c']);
      expect(page.nextPageToken).toBeUndefined();
    });

    it('takes either offset alone', async () => {
      const { store, at, namesOf } = await holding(['a', 'b', 'b/x', 'c', 'd']);
      expect(namesOf(await store.list(at(''), { startOffset: at('b/') }))).toEqual(['b/x', 'c', 'd']);
      expect(namesOf(await store.list(at(''), { endOffset: at('b/') }))).toEqual(['a', 'b']);
    });

    it('applies the prefix and the offsets together', async () => {
      const { store, at, namesOf } = await holding(['a', 'x/1', 'x/2', 'x/3', 'y/1']);
      expect(namesOf(await store.list(at('x/'), { startOffset: at('a'), endOffset: at('x/3') }))).toEqual(['x/1', 'x/2']);
      expect(namesOf(await store.list(at('x/'), { startOffset: at('x/2'), endOffset: at('z') }))).toEqual(['x/2', 'x/3']);
    });

    it('pages through a range with page tokens', async () => {
      const { store, at, namesOf } = await holding(['n/0', 'n/1', 'n/2', 'n/3', 'n/4', 'n/5', 'n/6']);
      const range = { startOffset: at('n/1'), endOffset: at('n/6'), pageSize: 2 };
      const pages: string[][] = [];
      let pageToken: string | undefined;
      do {
        const page = await store.list(at('n/'), pageToken ? { ...range, pageToken } : range);
        pages.push(namesOf(page));
        pageToken = page.nextPageToken;
      } while (pageToken);
      expect(pages).toEqual([['n/1', 'n/2'], ['n/3', 'n/4'], ['n/5']]);
    });

    it('answers an empty page for a range that holds no objects', async () => {
      const { store, at } = await holding(['a', 'b', 'c']);
      expect(await store.list(at(''), { startOffset: at('a0'), endOffset: at('a9') })).toEqual({ items: [] });
      expect(await store.list(at(''), { startOffset: at('c'), endOffset: at('b') })).toEqual({ items: [] });
    });
  });

  describe('pages', () => {
    /** A store holding `names` under a fresh prefix, its `list` watched, so a test sees each request `pages` sends. */
    async function watched(names: string[]) {
      const { store, prefix } = await fresh();
      for (const name of names) await store.create(prefix + name, name);
      const list = vi.spyOn(store, 'list');
      onTestFinished(() => list.mockRestore());
      return {
        store,
        list,
        at: (name: string) => prefix + name,
        namesOf: (page: ObjectPage) => page.items.map((item) => item.name.slice(prefix.length)),
      };
    }

    it('yields each page under the prefix in name order, asking for the next with the page before its token', async () => {
      const { store, list, at, namesOf } = await watched(['r/3', 'r/1', 'r/5', 'r/2', 'r/4', 'q', 'rx']);
      const seen: string[][] = [];
      for await (const page of pages(store, at('r/'), { pageSize: 2 })) seen.push(namesOf(page));
      expect(seen).toEqual([['r/1', 'r/2'], ['r/3', 'r/4'], ['r/5']]);
      const token = (call: number) => list.mock.results[call]!.value.then((page: ObjectPage) => page.nextPageToken);
      expect(list.mock.calls).toEqual([
        [at('r/'), { pageSize: 2 }],
        [at('r/'), { pageSize: 2, pageToken: await token(0) }],
        [at('r/'), { pageSize: 2, pageToken: await token(1) }],
      ]);
    });

    it('keeps the offsets on every page', async () => {
      const { store, list, at, namesOf } = await watched(['n/0', 'n/1', 'n/2', 'n/3', 'n/4', 'n/5']);
      const range = { startOffset: at('n/1'), endOffset: at('n/5'), pageSize: 3 };
      const seen: string[][] = [];
      for await (const page of pages(store, at('n/'), range)) seen.push(namesOf(page));
      expect(seen).toEqual([['n/1', 'n/2', 'n/3'], ['n/4']]);
      expect(list.mock.calls.map(([, options]) => ({ ...options, pageToken: undefined }))).toEqual([
        { ...range, pageToken: undefined },
        { ...range, pageToken: undefined },
      ]);
    });

    it('yields one empty page, from one request, for a prefix with no objects', async () => {
      const { store, list, at } = await watched(['a']);
      const seen: ObjectPage[] = [];
      for await (const page of pages(store, at('b/'))) seen.push(page);
      expect(seen).toEqual([{ items: [] }]);
      expect(list.mock.calls).toEqual([[at('b/'), {}]]);
    });

    it('sends no request before the first page is asked for, and none after the consumer stops', async () => {
      const { store, list, at, namesOf } = await watched(['p/1', 'p/2', 'p/3', 'p/4', 'p/5']);
      const walk = pages(store, at('p/'), { pageSize: 2 });
      expect(list).not.toHaveBeenCalled();
      for await (const page of walk) {
        expect(namesOf(page)).toEqual(['p/1', 'p/2']);
        break;
      }
      expect(list).toHaveBeenCalledTimes(1);
      expect(await walk.next()).toEqual({ done: true, value: undefined });
      expect(list).toHaveBeenCalledTimes(1);
    });
  });

  describe('names', () => {
    it.each([
      '',
      '/leading',
      'trailing/',
      'double//slash',
      'dot/./segment',
      'up/../escape',
      '..',
      'back\\slash',
      'nul\u0000byte',
      'x'.repeat(201),
    ])('rejects the name %j', async (name) => {
      const { store } = await fresh();
      await expect(store.create(name, 'x')).rejects.toBeInstanceOf(InvalidObjectName);
      await expect(store.read(name)).rejects.toBeInstanceOf(InvalidObjectName);
    });

    it('accepts names with spaces, unicode, dots and percent signs', async () => {
      const { store, prefix } = await fresh();
      const name = `${prefix}évidence/2026.11.21 report %20 #1.json`;
      await store.create(name, 'ok');
      expect((await store.read(name)).data.toString()).toBe('ok');
      expect((await store.list(`${prefix}évidence/`)).items.map((item) => item.name)).toEqual([name]);
    });
  });

  describe('long names', () => {
    // Cloud Storage takes names of up to 1024 bytes of UTF-8, and the names rule segments of up
    // to 200 bytes; a segment of dots or accents takes three times as many bytes percent-encoded,
    // more than a file name on disk may hold.
    const segments = ['.'.repeat(200), 'é'.repeat(100), '😀'.repeat(50), '€'.repeat(66)];

    it('keeps a name of four 200-byte segments in any script', async () => {
      const { store, prefix } = await fresh();
      const name = prefix + segments.join('/');
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(1024);
      const created = await store.create(name, 'v1', { metadata: { kept: 'yes' } });
      expect((await store.read(name)).data.toString()).toBe('v1');
      expect(await store.stat(name)).toEqual(created);
      const replaced = await store.replace(name, 'v2', created.generation);
      expect((await store.list(prefix)).items).toEqual([replaced]);
      await store.delete(name, { ifGeneration: replaced.generation });
      expect(await store.list(prefix)).toEqual({ items: [] });
    });

    it('lists long segments in name order among the short names that share their start', async () => {
      const { store, prefix } = await fresh();
      // 42 × "é" is 252 characters percent-encoded: these segments share that start, and
      // whichever of them is too long for one file name is cut right after it or soon after.
      const start = 'é'.repeat(42);
      const names = [
        `${start}é`,
        `${start}mx`,
        `${start}b`,
        `${start}ab/child`,
        `${start}ab`,
        `${start}a/child`,
        `${start}a`,
        start,
        `${start}ab/${segments[1]}`,
      ];
      for (const name of names) await store.create(prefix + name, name);
      const sorted = [...names].sort();
      const listed: string[] = [];
      let pageToken: string | undefined;
      do {
        const page = await store.list(prefix, { pageSize: 2, ...(pageToken ? { pageToken } : {}) });
        listed.push(...page.items.map((item) => item.name.slice(prefix.length)));
        pageToken = page.nextPageToken;
      } while (pageToken);
      expect(listed).toEqual(sorted);
      const range = await store.list(`${prefix}${start}`, {
        startOffset: `${prefix}${start}ab`,
        endOffset: `${prefix}${start}m`,
      });
      expect(range.items.map((item) => item.name.slice(prefix.length))).toEqual([
        `${start}ab`,
        `${start}ab/child`,
        `${start}ab/${segments[1]}`,
        `${start}b`,
      ]);
      expect((await store.list(`${prefix}${start}ab/`)).items.map((item) => item.name.slice(prefix.length))).toEqual([
        `${start}ab/child`,
        `${start}ab/${segments[1]}`,
      ]);
    });
  });

  describe('concurrent writers', () => {
    it('lose no update when many compare-and-swap increments race', async () => {
      const { store, prefix } = await fresh();
      const increment = () =>
        mutateObject(store, `${prefix}counter`, (current) => String(Number(current?.toString() ?? '0') + 1), { attempts: 100 });
      await Promise.all(Array.from({ length: 30 }, increment));
      expect((await store.read(`${prefix}counter`)).data.toString()).toBe('30');
    });

    it('let exactly one of many racing creates win', async () => {
      const { store, prefix } = await fresh();
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, index) => store.create(`${prefix}once`, `writer ${index}`)),
      );
      const won = results.filter((result) => result.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(PreconditionFailed);
      const winner = results.indexOf(won[0]!);
      expect((await store.read(`${prefix}once`)).data.toString()).toBe(`writer ${winner}`);
    });
  });
}
