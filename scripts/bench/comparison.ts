/**
 * A benchmark figure beside its baseline from the same run, and the table `npm run bench` prints:
 * the figure, both values, their ratio, the target the issue asks for and whether it was met.
 */

export type Unit = 'ms' | 'µs' | 'req/s' | 'KiB' | 'clients' | 'KB' | 'reads' | 'MiB' | 's';

export interface Comparison {
  figure: string;
  measured: number;
  baselineName: string;
  baseline: number;
  unit: Unit;
  /** The ratio (or, for `withinMs`, the measured time) the issue asks for; none for context figures. */
  target?: { atMost?: number; atLeast?: number; withinMs?: number; withinKB?: number; within?: number };
}

const format = (value: number, unit: Unit) =>
  `${value.toLocaleString('en', { maximumFractionDigits: unit === 'req/s' || unit === 'clients' || unit === 'reads' || unit === 'µs' ? 0 : unit === 's' ? 2 : 1 })} ${unit}`;

function row({ figure, measured, baselineName, baseline, unit, target }: Comparison): string[] {
  const ratio = measured / baseline;
  const met =
    target &&
    (target.atMost === undefined || ratio <= target.atMost) &&
    (target.atLeast === undefined || ratio >= target.atLeast) &&
    (target.withinMs === undefined || measured <= target.withinMs) &&
    (target.withinKB === undefined || measured <= target.withinKB) &&
    (target.within === undefined || measured <= target.within);
  const goal = target
    ? target.within !== undefined
      ? `≤ ${format(target.within, unit)}`
      : target.withinMs !== undefined
        ? `≤ ${target.withinMs} ms`
        : target.withinKB !== undefined
          ? `≤ ${target.withinKB} KB`
          : target.atMost !== undefined
            ? `≤ ${target.atMost.toFixed(2)}×`
            : `≥ ${target.atLeast!.toFixed(2)}×`
    : '(context)';
  return [
    figure,
    format(measured, unit),
    Number.isNaN(baseline) ? baselineName : `${baselineName} ${format(baseline, unit)}`,
    Number.isNaN(ratio) ? '—' : ratio < 0.01 ? `1/${Math.round(1 / ratio).toLocaleString('en')}` : `${ratio.toFixed(2)}×`,
    goal,
    target ? (met ? 'ok' : 'MISSED') : '',
  ];
}

/** Prints the comparisons as one aligned table under a line naming the runtime. */
export function printComparisons(comparisons: readonly Comparison[]): void {
  const rows = [['figure', 'measured', 'baseline (same run)', 'ratio', 'target', ''], ...comparisons.map(row)];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((cells) => cells[column]!.length)));
  console.log(`\nNode ${process.versions.node}, functions-framework, NODE_ENV=production\n`);
  for (const cells of rows) console.log(cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
}
