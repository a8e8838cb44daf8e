/**
 * What serving today's report from memory costs, step by step: in a loaded functions-framework
 * instance each call into Node's native side starts cold, and an environment lookup or a
 * `performance.now()` cost a large share of the whole handler (docs/http-api.md, "Throughput").
 * So a cached read — a 200 or a 304 — answers synchronously (no promise for the runtime's domain
 * to track), reads no setting from the environment and no clock but the one `Date` that says
 * which day it is.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { isPromise } from '../../../functions/src/common/maybe-async.ts';
import { createReportFamily } from '../../../functions/src/families/report.ts';
import type { HttpHandler } from '../../../functions/src/http/create-family.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { emptyReport } from '../../support/reports.ts';
import { serve, type Served } from '../../support/serve.ts';

const today = '2026-11-21';

/** What the handler did while it ran: the variables it looked up, clock reads, whether it returned a promise. */
const seen = { counting: false, variables: [] as string[], clockReads: 0, promises: 0 };
let server: Served;
const environment = process.env;

beforeAll(async () => {
  setMode('public');
  const store = new MemoryStore();
  await new ReportStore(store).create(emptyReport(today));
  const family = createReportFamily({
    store: async () => store,
    catalog: () => compileCatalogSources(paths.catalog),
    now: () => new Date(`${today}T12:00:00Z`), // the time zone is the setting's (UTC when unset)
    loadTable: tableOf('report'),
    verifyToken: fakeVerifier(),
  });
  const watched: HttpHandler = (req, res) => {
    seen.counting = true;
    try {
      const served = family(req, res);
      if (isPromise(served)) seen.promises++;
      return served;
    } finally {
      seen.counting = false;
    }
  };
  server = await serve(watched);
  process.env = new Proxy(environment, {
    get(target, name) {
      if (seen.counting && typeof name === 'string') seen.variables.push(name);
      return Reflect.get(target, name) as unknown;
    },
  });
  const now = performance.now.bind(performance);
  vi.spyOn(performance, 'now').mockImplementation(() => {
    if (seen.counting) seen.clockReads++;
    return now();
  });
});

afterAll(async () => {
  process.env = environment;
  vi.restoreAllMocks();
  await server.close();
});

describe("GET /api/report/today, once today's report is in memory", () => {
  it('answers a 200 and a 304 synchronously, with no environment lookup and no clock read', async () => {
    const first = await fetch(`${server.url}/api/report/today`); // loads the route table, the services and the report
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    Object.assign(seen, { variables: [], clockReads: 0, promises: 0 });

    const ok = await fetch(`${server.url}/api/report/today`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Report).runId).toBe(`daily-${today}`);
    const notModified = await fetch(`${server.url}/api/report/today`, { headers: { 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('cache-control')).toBe('public, no-cache');

    expect(seen).toEqual({ counting: false, variables: [], clockReads: 0, promises: 0 });
  });
});
