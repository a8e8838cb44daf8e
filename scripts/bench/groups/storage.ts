/**
 * Storage: the daily run and the first page of the evidence listing over 30 and 365 days of
 * history, each beside the design before partitions measured the same way, and the growth from
 * the fewest days to the most (see ../storage.ts).
 */
import type { Comparison } from '../comparison.ts';
import type { BenchGroup } from '../group.ts';
import { benchStorage, type StorageFigures } from '../storage.ts';

const seconds = (run: { simulatedMs: number; cpuMs: number }) => (run.simulatedMs + run.cpuMs) / 1000;

/** One history length's rows, beside the design before partitions at that length (or the longest measured). */
function historyComparisons(figure: StorageFigures, legacy: StorageFigures | undefined): Comparison[] {
  const rows: Comparison[] = [];
  const baselineName = legacy ? `before partitions${legacy === figure ? '' : `, ${legacy.days} days`}` : 'none measured';
  const daily = figure.daily.runs['daily']!;
  const legacyDaily = legacy?.legacyDaily?.runs['daily'];
  const at = `${figure.days} days`;
  rows.push({
    figure: `storage: daily run, ${at} — object reads (${figure.newItems.toLocaleString('en')} new items)`,
    measured: daily.reads,
    baselineName,
    baseline: legacyDaily?.reads ?? NaN,
    unit: 'reads',
    target: { within: figure.newItems + 50 },
  });
  rows.push({
    figure: `storage: daily run, ${at} — simulated time (I/O ${(daily.simulatedMs / 1000).toFixed(2)} s + CPU)`,
    measured: seconds(daily),
    baselineName,
    baseline: legacyDaily ? seconds(legacyDaily) : NaN,
    unit: 's',
    target: { within: 30 },
  });
  rows.push({
    figure: `storage: daily run, ${at} — peak memory of its process (RSS)`,
    measured: figure.daily.peakRssMiB,
    baselineName,
    baseline: legacy?.legacyDaily?.peakRssMiB ?? NaN,
    unit: 'MiB',
    target: { within: 256 },
  });
  for (const [run, what] of [
    ['page', 'GET /api/evidence, first 20'],
    ['subject', 'GET /api/evidence?subject=…, first 20'],
  ] as const) {
    const page = figure.listing.runs[run]!;
    const legacyPage = legacy?.legacyListing?.runs[run];
    rows.push({
      figure: `storage: ${what}, ${at} — object reads`,
      measured: page.reads,
      baselineName,
      baseline: legacyPage?.reads ?? NaN,
      unit: 'reads',
      target: { within: 25 },
    });
    rows.push({
      figure: `storage: ${what}, ${at} — simulated time (I/O + CPU)`,
      measured: seconds(page),
      baselineName,
      baseline: legacyPage ? seconds(legacyPage) : NaN,
      unit: 's',
      target: { within: 1 },
    });
  }
  return rows;
}

/** How the daily run grows from the fewest days of history to the most. */
function growthComparisons(first: StorageFigures, last: StorageFigures): Comparison[] {
  const [a, b] = [first.daily.runs['daily']!, last.daily.runs['daily']!];
  const growth = `${last.days} vs ${first.days} days`;
  return [
    {
      figure: `storage: daily run reads, ${growth}`,
      measured: b.reads,
      baselineName: `${first.days} days`,
      baseline: a.reads,
      unit: 'reads',
      target: { atMost: 1.2 },
    },
    {
      figure: `storage: daily run simulated I/O time, ${growth}`,
      measured: b.simulatedMs / 1000,
      baselineName: `${first.days} days`,
      baseline: a.simulatedMs / 1000,
      unit: 's',
      target: { atMost: 1.2 },
    },
    // CPU time varies from run to run on a busy machine, so the total's growth is shown, not judged.
    {
      figure: `storage: daily run simulated time (I/O + CPU), ${growth}`,
      measured: seconds(b),
      baselineName: `${first.days} days`,
      baseline: seconds(a),
      unit: 's',
    },
  ];
}

/** The storage figures as rows: each beside the design before partitions, measured the same way. */
function storageComparisons(figures: StorageFigures[]): Comparison[] {
  const legacyAt = figures.filter((figure) => figure.legacyDaily);
  const rows = figures.flatMap((figure) => historyComparisons(figure, figure.legacyDaily ? figure : legacyAt.at(-1)));
  const [first, last] = [figures[0], figures.at(-1)];
  if (first && last && first !== last) rows.push(...growthComparisons(first, last));
  return rows;
}

export const storageGroup: BenchGroup = {
  name: 'storage',
  heading: ({ storageDays }) =>
    `Storage: a day's work over ${storageDays.join(' and ')} days of history, 5,000 subjects a day, 25 ms a call`,
  async measure({ options }) {
    const figures = await benchStorage({
      measureAt: options.storageDays,
      baselineAt: options.storageBaselineDays,
      subjects: 5000,
      log: (line) => console.log(line),
    });
    return storageComparisons(figures);
  },
};
