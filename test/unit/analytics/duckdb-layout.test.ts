/**
 * The promise of docs/analytics.md, kept offline: `exportStore` turns a store into the bucket's
 * layout as plain files, and the DuckDB table definitions and queries of the page — read from
 * the page itself, so it shows exactly what is tested — answer, on an export of the demo
 * history, what Evident's own stores say. The BigQuery versions cannot run here; they are held
 * to the same parameters as their DuckDB twins.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileCatalog } from '../../../functions/src/assessment/evaluate.ts';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { seedDemoHistory } from '../../../scripts/lib/demo/seed.ts';
import { logs } from '../../../functions/src/logs.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { listNames, type ObjectStore } from '../../../functions/src/storage/object-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { exportStore } from '../../../scripts/lib/export-store.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { everyItem } from '../../support/every-item.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { demoSeedDependencies } from '../../support/demo-seed.ts';

const doc = await readFile(join(paths.docs, 'analytics.md'), 'utf8');

/** The fenced blocks whose info string is `sql <engine> <name>`, by name. */
function sqlBlocks(engine: 'duckdb' | 'bigquery'): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const [, name, body] of doc.matchAll(new RegExp(`^\`\`\`sql ${engine} ([\\w-]+)\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))) {
    blocks.set(name!, body!);
  }
  return blocks;
}

const duckdbBlocks = sqlBlocks('duckdb');
const bigqueryBlocks = sqlBlocks('bigquery');
const queryNames = ['control-status-by-day', 'failed-subjects', 'evidence-volume'];

function duckdbQuery(name: string): string {
  const sql = duckdbBlocks.get(name);
  if (!sql) throw new Error(`docs/analytics.md has no \`\`\`sql duckdb ${name} block`);
  return sql;
}

/** Every file under a folder, as `/`-separated paths relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'evident-export-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('exportStore', () => {
  /** 1,200 batches (two pages of a list), two reports, and objects of other prefixes that stay behind. */
  async function storeWithObjects(): Promise<MemoryStore> {
    const store = new MemoryStore();
    for (let i = 0; i < 1200; i++) {
      const stamp = `20261120T${String(i).padStart(9, '0')}Z`;
      await store.create(`evidence/received=2026-11-20/${stamp}-t${i}.ndjson`, `{"id":"item-${i}","subject":"é ${i}"}\n`);
    }
    await store.create('reports/day=2026-11-20/report.json', '{"date":"2026-11-20"}');
    await store.create('reports/day=2026-11-21/report.json', '{"date":"2026-11-21"}');
    await store.create('evidence-ids/item-0.json', '{}');
    await store.create('evidence-index/all/key', '');
    await store.create('submissions/s-1.json', '{}');
    return store;
  }

  it('writes each object under the prefixes as a file of the same bytes, across pages, and nothing else', async () => {
    const store = await storeWithObjects();
    await withTempDir(async (dir) => {
      const result = await exportStore(store, dir);

      const names = [...(await listNames(store, 'evidence/')), ...(await listNames(store, 'reports/'))];
      expect(names).toHaveLength(1202);
      expect(await filesUnder(dir)).toEqual([...names].sort());
      let bytes = 0;
      for (const name of names) {
        const { data } = await store.read(name);
        expect(await readFile(join(dir, name))).toEqual(data);
        bytes += data.length;
      }
      expect(result).toEqual({ files: 1202, bytes });
    });
  });

  it('exports only the prefixes it is given, and overwrites what an earlier export wrote', async () => {
    const store = await storeWithObjects();
    await withTempDir(async (dir) => {
      await exportStore(store, dir);
      const name = 'reports/day=2026-11-21/report.json';
      const { info } = await store.read(name);
      await store.replace(name, '{"date":"2026-11-21","republished":true}', info.generation);

      expect(await exportStore(store, dir, ['reports/'])).toEqual({ files: 2, bytes: 21 + 40 });
      expect(await readFile(join(dir, name), 'utf8')).toBe('{"date":"2026-11-21","republished":true}');
      expect(await filesUnder(dir)).toHaveLength(1202);
    });
  });

  it('lists a thousand names per page and reads at most eight objects at once', async () => {
    const store = new RecordingStore(await storeWithObjects());
    let reading = 0;
    let mostAtOnce = 0;
    store.before = async ({ op }) => {
      if (op !== 'read') return;
      mostAtOnce = Math.max(mostAtOnce, ++reading);
      // Holds the read open so the others start while it is in flight; the limit is what the
      // count proves, and a read that starts beyond it is counted however short the pause.
      await sleep(1);
      reading--;
    };
    await withTempDir((dir) => exportStore(store, dir));
    expect(store.of('list')).toEqual(['evidence/', 'evidence/', 'reports/']);
    expect(store.of('read')).toHaveLength(1202);
    expect(mostAtOnce).toBe(8);
  });
});

describe('the DuckDB tables and queries of docs/analytics.md, on an export of the demo history', () => {
  const today = '2026-04-05';
  const now = new Date('2026-04-05T15:30:00Z');
  let dir: string;
  let store: ObjectStore;
  let reports: ReportStore;
  let reportOf: Map<string, Report>;
  let instance: DuckDBInstance;
  let duckdb: DuckDBConnection;

  /** Runs one of the page's queries with its parameters bound, and gives its rows as JSON values. */
  async function run(name: string, parameters: Record<string, string>): Promise<Record<string, unknown>[]> {
    return (await duckdb.runAndReadAll(duckdbQuery(name), parameters)).getRowObjectsJson();
  }

  beforeAll(async () => {
    vi.spyOn(logs, 'reportPublished').mockImplementation(() => undefined);
    vi.spyOn(logs, 'reportAlreadyExists').mockImplementation(() => undefined);
    vi.spyOn(logs, 'evidenceSnapshotLoaded').mockImplementation(() => undefined);
    store = new MemoryStore();
    reports = new ReportStore(store);
    await seedDemoHistory(demoSeedDependencies(store, compileCatalog(compileCatalogSources(paths.catalog))), {
      today,
      timeZone: 'UTC',
      now,
    });
    reportOf = new Map();
    for (const date of await reports.dates()) reportOf.set(date, (await reports.find(date))!.report);

    dir = await mkdtemp(join(tmpdir(), 'evident-analytics-'));
    await exportStore(store, dir);
    instance = await DuckDBInstance.create(':memory:');
    duckdb = await instance.connect();
    // The page's views name paths relative to the export, as when DuckDB is started inside it.
    await duckdb.run(`SET file_search_path = '${dir.replaceAll("'", "''")}'`);
    await duckdb.run(duckdbQuery('tables'));
  }, 60_000);

  afterAll(async () => {
    duckdb?.closeSync();
    instance?.closeSync();
    vi.restoreAllMocks();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has fourteen days of reports to query, from 2026-03-23 to 2026-04-05', () => {
    expect([...reportOf.keys()]).toEqual(
      Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2026, 2, 23 + i)).toISOString().slice(0, 10)),
    );
  });

  it('exports only evidence/received=… batches and reports/day=… reports, each valid newline-delimited JSON', async () => {
    const files = await filesUnder(dir);
    const batch = /^evidence\/received=(\d{4}-\d{2}-\d{2})\/\d{8}T\d{9}Z-[A-Za-z0-9]+\.ndjson$/;
    const report = /^reports\/day=(\d{4}-\d{2}-\d{2})\/report\.json$/;
    expect(files.filter((file) => !batch.test(file) && !report.test(file))).toEqual([]);
    expect(files).toEqual([...(await listNames(store, 'evidence/')), ...(await listNames(store, 'reports/'))].sort());

    let items = 0;
    for (const file of files) {
      const bytes = await readFile(join(dir, file));
      expect(bytes.equals((await store.read(file)).data), file).toBe(true);
      const text = bytes.toString('utf8');
      const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
      const rows = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const row of rows) expect(Object.prototype.toString.call(row), file).toBe('[object Object]');
      const day = report.exec(file)?.[1];
      if (day) {
        // A report is one line, with the day of its folder as its date.
        expect(text.endsWith('\n'), file).toBe(false);
        expect(rows.map((row) => row['date'])).toEqual([day]);
      } else {
        const received = batch.exec(file)![1];
        expect(new Set(rows.map((row) => String(row['receivedAt']).slice(0, 10)))).toEqual(new Set([received]));
        items += rows.length;
      }
    }
    expect(files.filter((file) => report.test(file))).toHaveLength(14);
    expect(items).toBe((await everyItem(store)).length);
  });

  it('writes each BigQuery query with the same parameters as its DuckDB twin', () => {
    expect([...duckdbBlocks.keys()].sort()).toEqual(['tables', ...queryNames].sort());
    expect([...bigqueryBlocks.keys()].sort()).toEqual(['evidence-table', 'reports-table', ...queryNames].sort());
    const parameters = (sql: string, sigil: string) =>
      [...new Set([...sql.matchAll(new RegExp(`\\${sigil}([a-z_]+)`, 'g'))].map((match) => match[1]))].sort();
    for (const name of queryNames) {
      expect(parameters(bigqueryBlocks.get(name)!, '@'), name).toEqual(parameters(duckdbQuery(name), '$'));
    }
  });

  it('control-status-by-day gives the status in each day’s report across the quarter, and null on days without one', async () => {
    // The control whose status changed most often, so that the days cannot all look alike.
    const changes = new Map<string, number>();
    for (const report of reportOf.values()) for (const { id } of report.diff.changes) changes.set(id, (changes.get(id) ?? 0) + 1);
    const control = [...changes].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))[0]![0];

    const rows = await run('control-status-by-day', { quarter: '2026-02-10', control });

    // The first quarter: every day of January to March, and none of the April reports.
    const days = Array.from({ length: 90 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    const expected = days.map((day) => ({
      day,
      status: reportOf.get(day)?.controls.find((result) => result.id === control)?.status ?? null,
    }));
    expect(rows).toEqual(expected);
    expect(expected.filter((row) => row.status !== null)).toHaveLength(9);
    expect(new Set(expected.map((row) => row.status)).size).toBeGreaterThan(2);
  });

  it('failed-subjects lists the subjects of the check’s failed findings in the range, with their days', async () => {
    /** What the query should answer, read from the reports themselves. */
    const failedSubjects = (control: string, checkId: string, firstDay: string, lastDay: string) => {
      const daysOf = new Map<string, string[]>();
      for (const report of reportOf.values()) {
        if (report.date < firstDay || report.date > lastDay) continue;
        for (const finding of report.controls.find((result) => result.id === control)?.findings ?? []) {
          if (finding.outcome !== 'fail' || finding.check !== checkId) continue;
          daysOf.set(finding.subject!, [...(daysOf.get(finding.subject!) ?? []), report.date]);
        }
      }
      return [...daysOf]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([subject, days]) => ({
          subject,
          days_failed: String(days.length),
          first_failed: days[0]!,
          last_failed: days.at(-1)!,
        }));
    };
    // The check that failed on the most days while passing on the first and last, so that a range can cut its failure.
    const [from, to] = [[...reportOf.keys()][0]!, [...reportOf.keys()].at(-1)!];
    const failedOn = new Map<string, Set<string>>();
    for (const report of reportOf.values()) {
      for (const result of report.controls) {
        for (const finding of result.findings) {
          if (finding.outcome !== 'fail' || !finding.check) continue;
          const key = `${result.id} ${finding.check}`;
          failedOn.set(key, (failedOn.get(key) ?? new Set()).add(report.date));
        }
      }
    }
    const [key, daySet] = [...failedOn]
      .filter(([, days]) => !days.has(from) && !days.has(to))
      .sort(([a, x], [b, y]) => y.size - x.size || (a < b ? -1 : 1))[0]!;
    const [control, checkId] = key.split(' ') as [string, string];
    const days = [...daySet].sort();
    expect(days.length).toBeGreaterThan(4);

    for (const [firstDay, lastDay] of [
      [from, to],
      [days[2]!, to],
      [from, days.at(-3)!],
      [days[1]!, days[1]!],
      ['2026-01-01', '2026-01-31'],
    ] as const) {
      const expected = failedSubjects(control, checkId, firstDay, lastDay);
      const rows = await run('failed-subjects', { first_day: firstDay, last_day: lastDay, control, check_id: checkId });
      expect(rows, `${firstDay}…${lastDay}`).toEqual(expected);
    }
    expect(failedSubjects(control, checkId, days[2]!, to)[0]?.first_failed).toBe(days[2]);
    expect(failedSubjects(control, checkId, from, days.at(-3)!)[0]?.last_failed).toBe(days.at(-3));
    // The same check id under a control that does not have it finds nothing.
    expect(await run('failed-subjects', { first_day: from, last_day: to, control: 'NO-SUCH', check_id: checkId })).toEqual([]);
  });

  it('evidence-volume counts the items and subjects of each source by the UTC day they were received', async () => {
    const [firstDay, lastDay] = ['2026-03-24', '2026-04-04'];
    const rows = await run('evidence-volume', { first_day: firstDay, last_day: lastDay });

    const groups = new Map<string, { received: string; source: string; items: number; subjects: Set<string> }>();
    for (const item of await everyItem(store)) {
      const received = new Date(item.receivedAt).toISOString().slice(0, 10);
      if (received < firstDay || received > lastDay) continue;
      const key = `${received} ${item.source}`;
      const group = groups.get(key) ?? { received, source: item.source, items: 0, subjects: new Set<string>() };
      groups.set(key, group);
      group.items++;
      group.subjects.add(item.subject);
    }
    const expected = [...groups.values()]
      .sort((a, b) => (a.received + ' ' + a.source < b.received + ' ' + b.source ? -1 : 1))
      .map(({ received, source, items, subjects }) => ({
        received,
        source,
        items: String(items),
        subjects: String(subjects.size),
      }));
    expect(rows).toEqual(expected);
    expect(new Set(expected.map((row) => row.received)).size).toBe(12);
  });

  it('gives the same rows through PREPARE and EXECUTE, as the page tells the DuckDB CLI to run them', async () => {
    const parameters: Record<string, Record<string, string>> = {
      'control-status-by-day': { quarter: '2026-03-31', control: 'IAM-01' },
      'failed-subjects': { first_day: '2026-03-23', last_day: '2026-04-05', control: 'CHG-02', check_id: 'no-force-push' },
      'evidence-volume': { first_day: '2026-03-30', last_day: '2026-03-31' },
    };
    for (const name of queryNames) {
      const statement = name.replaceAll('-', '_');
      const values = parameters[name]!;
      const named = Object.entries(values).map(([key, value]) => `${key} := '${value}'`);
      await duckdb.run(`PREPARE ${statement} AS ${duckdbQuery(name).trim().replace(/;$/, '')}`);
      const executed = (await duckdb.runAndReadAll(`EXECUTE ${statement}(${named.join(', ')})`)).getRowObjectsJson();
      expect(executed, name).toEqual(await run(name, values));
      expect(executed.length, name).toBeGreaterThan(0);
    }
  });

  it('runs the page’s PREPARE and EXECUTE example as written, with the rows of the query it prepares', async () => {
    const example = doc.match(/^```sql duckdb-cli evidence-volume\n([\s\S]*?)^```$/m)?.[1];
    expect(example).toBe(
      `PREPARE evidence_volume AS\n${duckdbQuery('evidence-volume')}\n` +
        `EXECUTE evidence_volume(first_day := '2026-03-30', last_day := '2026-04-05');\n`,
    );
    const rows = (await duckdb.runAndReadAll(example!)).getRowObjectsJson();
    expect(rows).toEqual(await run('evidence-volume', { first_day: '2026-03-30', last_day: '2026-04-05' }));
    expect(rows.length).toBeGreaterThan(0);
  });
});
