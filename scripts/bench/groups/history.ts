/**
 * A control over a year: `GET /api/controls/{id}/history` for 365 days, read from 400 days of
 * stored reports (every control, findings with evidence, about the size of the demo's) on the
 * latency-injecting store (25 ms a call, 100 in flight; scripts/lib/latency-store.ts), beside
 * reading the same report objects bare, as many at a time. Its object reads should be one per
 * day plus the few to find the days and the report before; its time, the bare reads' plus the
 * JSON parsing they do not do.
 */
import type * as DatesModule from '../../../functions/src/assessment/dates.ts';
import type { Catalog, Report } from '../../../functions/src/assessment/model.ts';
import type * as ControlsModule from '../../../functions/src/families/controls.ts';
import type * as ServicesModule from '../../../functions/src/families/services.ts';
import type * as ReportStoreModule from '../../../functions/src/reports/report-store.ts';
import type * as MemoryStoreModule from '../../../functions/src/storage/memory-store.ts';
import type * as ObjectStoreModule from '../../../functions/src/storage/object-store.ts';
import { compileCatalogSources } from '../../lib/catalog-bundle.ts';
import { compiled } from '../../lib/compiled.ts';
import { LatencyStore } from '../../lib/latency-store.ts';
import { paths } from '../../lib/paths.ts';
import type { Comparison } from '../comparison.ts';
import type { BenchGroup } from '../group.ts';

const today = '2026-11-24';
const storedDays = 400;
const period = 365;
const statuses = ['passing', 'passing', 'passing', 'failing', 'stale'] as const;

/** A day's report of every control, each with three findings resting on five evidence items. */
export function reportOf(catalog: Catalog, date: string, day: number): Report {
  return {
    date,
    timeZone: 'UTC',
    asOf: `${date}T23:59:59.999Z`,
    generatedAt: `${date}T23:59:59.999Z`,
    runId: `daily-${date}`,
    catalogVersion: catalog.version,
    summary: {
      score: 80,
      counts: { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 },
      controls: catalog.controls.length,
    },
    controls: catalog.controls.map((control, index) => {
      const status = statuses[(day + index) % 7 < 5 ? 0 : (day + index) % statuses.length]!;
      const evidence = Array.from({ length: 5 }, (_, n) => `ev-${control.id.toLowerCase()}-${n}-${date}`);
      return {
        id: control.id,
        title: control.title,
        family: control.family,
        severity: control.severity,
        status,
        findings: [0, 1, 2].map((n) => ({
          outcome: status === 'passing' || n > 0 ? ('pass' as const) : ('fail' as const),
          check: `check-${n}`,
          message: `Subject ${n} of ${control.id} on ${date}: a sentence about what was found, of ordinary length.`,
          evidence,
        })),
        evidence,
      };
    }),
    diff: { previousDate: null, newlyFailing: [], fixed: [], newlyStale: [], changes: [] },
  };
}

export const historyGroup: BenchGroup = {
  name: 'history',
  heading: () => `A control over ${period} days, ${storedDays} days of reports on the latency-injecting store`,
  async measure() {
    // Evident's own code as the build compiled it (functions/lib).
    const [
      { addDays },
      { readControlHistory },
      { servicesFrom },
      { ReportStore, reportObjectName },
      { MemoryStore },
      { inBatches },
    ] = await Promise.all([
      compiled<typeof DatesModule>('assessment/dates.js'),
      compiled<typeof ControlsModule>('families/controls.js'),
      compiled<typeof ServicesModule>('families/services.js'),
      compiled<typeof ReportStoreModule>('reports/report-store.js'),
      compiled<typeof MemoryStoreModule>('storage/memory-store.js'),
      compiled<typeof ObjectStoreModule>('storage/object-store.js'),
    ]);
    const catalog = compileCatalogSources(paths.catalog);
    const memory = new MemoryStore();
    const reports = new ReportStore(memory);
    for (let back = storedDays - 1; back >= 0; back -= 1) {
      const date = addDays(today, -back);
      await reports.create(reportOf(catalog, date, storedDays - back));
    }
    const from = addDays(today, 1 - period);

    // The history, on fresh services (no report cached) over a store that charges each call.
    const latency = new LatencyStore(memory);
    const services = await servicesFrom({
      store: async () => latency,
      catalog: () => catalog,
      now: () => new Date(`${today}T12:00:00Z`),
      timeZone: () => 'UTC',
    })();
    let cpu = process.cpuUsage();
    const history = await readControlHistory(services, catalog.controls[0]!.id, from, today, today);
    let used = process.cpuUsage(cpu);
    const measured = { calls: latency.counts, ms: latency.elapsedMs + (used.user + used.system) / 1000 };
    if (history.summary.daysWithReport !== period) throw new Error(`read ${history.summary.daysWithReport} days, not ${period}`);

    // The same report objects read bare, as many at a time, not parsed.
    const bare = new LatencyStore(memory);
    const dates = Array.from({ length: period }, (_, index) => addDays(from, index));
    cpu = process.cpuUsage();
    await inBatches(dates, 16, (date) => bare.read(reportObjectName(date)));
    used = process.cpuUsage(cpu);
    const baseline = { reads: bare.counts.read, ms: bare.elapsedMs + (used.user + used.system) / 1000 };

    const calls = measured.calls.read + measured.calls.stat + measured.calls.list;
    const rows: Comparison[] = [
      {
        figure: `history: ${period} days of one control — object calls (reads, stats, lists)`,
        measured: calls,
        baselineName: `${period} report reads, bare`,
        baseline: baseline.reads,
        unit: 'reads',
        target: { within: period + 5 },
      },
      {
        figure: `history: ${period} days of one control — simulated time (I/O + CPU)`,
        measured: measured.ms,
        baselineName: 'the same reads, bare',
        baseline: baseline.ms,
        unit: 'ms',
        target: { atMost: 2 },
      },
    ];
    return rows;
  },
};
