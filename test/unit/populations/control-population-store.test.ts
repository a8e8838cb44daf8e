/**
 * The store of a report's control populations: written as a header and chunks per control and
 * kind, create-only, with writes that grow with the chunks and never with the subjects; paged by
 * place, each page the header and the one or two chunks it spans, whatever the population's size.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ControlPopulation, SubjectOutcome } from '../../../functions/src/populations/control-population.ts';
import {
  chunkSize,
  ControlPopulationStore,
  writeControlPopulations,
} from '../../../functions/src/populations/control-population-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { LatencyStore } from '../../../scripts/lib/latency-store.ts';

const run = { date: '2026-11-24', runId: 'daily-2026-11-24-0a1b2c3d' };
const outcomes = ['pass', 'pass', 'fail', 'error', 'out_of_scope'] as const;

/** A population of `count` subjects, `user-00000` up, each with an outcome and an evidence item. */
function populationOf(controlId: string, kind: string, count: number): ControlPopulation {
  const subjects: SubjectOutcome[] = Array.from({ length: count }, (_, index) => ({
    subject: `user-${String(index).padStart(5, '0')}`,
    outcome: outcomes[index % outcomes.length]!,
    evidenceId: `ev-${index}`,
  }));
  const sha256 = createHash('sha256')
    .update(subjects.map((subject) => subject.subject).join('\n'))
    .digest('hex');
  return { controlId, kind, count, sha256, subjects };
}

const prefix = `control-populations/day=2026-11-24/daily-2026-11-24-0a1b2c3d`;

describe('writing a report\u2019s control populations', () => {
  it('writes each population\u2019s chunks, then its header, create-only', async () => {
    const store = new RecordingStore(new MemoryStore());
    const iam = populationOf('IAM-01', 'idp.user', 4500);
    const end = populationOf('END-01', 'endpoint.device', 3);
    await writeControlPopulations(store, run, [iam, end]);
    expect(store.of('create')).toEqual([
      `${prefix}/IAM-01/idp.user/000000.json`,
      `${prefix}/IAM-01/idp.user/000001.json`,
      `${prefix}/IAM-01/idp.user/000002.json`,
      `${prefix}/END-01/endpoint.device/000000.json`,
      `${prefix}/IAM-01/idp.user/header.json`,
      `${prefix}/END-01/endpoint.device/header.json`,
    ]);
    expect(store.calls.map((call) => call.op)).toEqual(Array(6).fill('create'));
    const header = JSON.parse((await store.read(`${prefix}/END-01/endpoint.device/header.json`)).data.toString('utf8'));
    expect(header).toEqual({ controlId: 'END-01', kind: 'endpoint.device', count: 3, sha256: end.sha256, chunkSize });
    const chunk = JSON.parse((await store.read(`${prefix}/END-01/endpoint.device/000000.json`)).data.toString('utf8'));
    expect(chunk).toEqual([
      ['user-00000', 'pass', 'ev-0'],
      ['user-00001', 'pass', 'ev-1'],
      ['user-00002', 'fail', 'ev-2'],
    ]);
  });

  it('writes what is missing when called again for the same report, and changes nothing written', async () => {
    const memory = new MemoryStore();
    const iam = populationOf('IAM-01', 'idp.user', 10);
    await writeControlPopulations(memory, run, [iam]);
    const before = await memory.stat(`${prefix}/IAM-01/idp.user/header.json`);
    await writeControlPopulations(memory, run, [iam, populationOf('IAM-02', 'idp.user', 1)]);
    expect((await memory.stat(`${prefix}/IAM-01/idp.user/header.json`)).generation).toBe(before.generation);
    expect((await memory.list(prefix)).items.map((info) => info.name.slice(prefix.length))).toEqual([
      '/IAM-01/idp.user/000000.json',
      '/IAM-01/idp.user/header.json',
      '/IAM-02/idp.user/000000.json',
      '/IAM-02/idp.user/header.json',
    ]);
  });

  it('refuses subjects out of order or a count that is not theirs, writing nothing', async () => {
    const store = new RecordingStore(new MemoryStore());
    const unsorted = populationOf('IAM-01', 'idp.user', 3);
    unsorted.subjects.reverse();
    await expect(writeControlPopulations(store, run, [unsorted])).rejects.toThrow(
      new RangeError('IAM-01 idp.user: subjects not in strictly ascending order at 1'),
    );
    await expect(writeControlPopulations(store, run, [{ ...populationOf('IAM-01', 'idp.user', 3), count: 4 }])).rejects.toThrow(
      new RangeError('IAM-01 idp.user: count 4 but 3 subjects'),
    );
    expect(store.calls).toEqual([]);
  });

  it('writes a population of none as a header alone', async () => {
    const store = new ControlPopulationStore(new MemoryStore());
    const empty = populationOf('IAM-01', 'idp.user', 0);
    await store.write(run, [empty]);
    expect(await store.page({ ...run, controlId: 'IAM-01', kind: 'idp.user', start: 0, limit: 50 })).toEqual({
      population: { controlId: 'IAM-01', kind: 'idp.user', count: 0, sha256: empty.sha256, chunkSize },
      subjects: [],
    });
  });
});

describe('paging a population', () => {
  const at = { ...run, controlId: 'IAM-01', kind: 'idp.user' };
  const big = populationOf('IAM-01', 'idp.user', 50_000);
  const header = { controlId: 'IAM-01', kind: 'idp.user', count: 50_000, sha256: big.sha256, chunkSize };

  it('answers a page within one chunk, one across two, and the last, each from the header and the chunks it spans', async () => {
    const store = new RecordingStore(new MemoryStore());
    await writeControlPopulations(store, run, [big]);
    const populations = new ControlPopulationStore(store);

    store.reset();
    expect(await populations.page({ ...at, start: 0, limit: 3 })).toEqual({
      population: header,
      subjects: big.subjects.slice(0, 3),
      next: 3,
    });
    expect(store.of('read')).toEqual([`${prefix}/IAM-01/idp.user/header.json`, `${prefix}/IAM-01/idp.user/000000.json`]);

    store.reset();
    const across = await populations.page({ ...at, start: 3500, limit: 1000 });
    expect(across).toEqual({ population: header, subjects: big.subjects.slice(3500, 4500), next: 4500 });
    expect(store.of('read')).toEqual([
      `${prefix}/IAM-01/idp.user/header.json`,
      `${prefix}/IAM-01/idp.user/000001.json`,
      `${prefix}/IAM-01/idp.user/000002.json`,
    ]);

    store.reset();
    expect(await populations.page({ ...at, start: 49_990, limit: 1000 })).toEqual({
      population: header,
      subjects: big.subjects.slice(49_990),
    });
    expect(store.of('read')).toEqual([`${prefix}/IAM-01/idp.user/header.json`, `${prefix}/IAM-01/idp.user/000024.json`]);
  });

  it('reads at most 25 objects for any page of a 50,000-subject population, at 25 ms a call', async () => {
    const memory = new MemoryStore();
    await writeControlPopulations(memory, run, [big]);
    for (const start of [0, 1999, 2000, 24_999, 48_999, 49_999]) {
      const latency = new LatencyStore(memory);
      const page = await new ControlPopulationStore(latency).page({ ...at, start, limit: 1000 });
      expect(page!.subjects[0]).toEqual(big.subjects[start]);
      const { read, stat, list } = latency.counts;
      expect(read + stat + list).toBeLessThanOrEqual(3);
      expect(latency.elapsedMs).toBe(50);
    }
  });

  it('gives every subject a chunk at a time, in order', async () => {
    const memory = new MemoryStore();
    await writeControlPopulations(memory, run, [populationOf('IAM-01', 'idp.user', 4500)]);
    const populations = new ControlPopulationStore(memory);
    const chunks: SubjectOutcome[][] = [];
    for await (const chunk of populations.chunks(at, (await populations.header(at))!)) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.length)).toEqual([2000, 2000, 500]);
    expect(chunks.flat()).toEqual(populationOf('IAM-01', 'idp.user', 4500).subjects);
  });

  it('answers undefined for a population the report did not record', async () => {
    const populations = new ControlPopulationStore(new MemoryStore());
    expect(await populations.page({ ...at, start: 0, limit: 10 })).toBeUndefined();
    expect(await populations.header(at)).toBeUndefined();
  });
});
