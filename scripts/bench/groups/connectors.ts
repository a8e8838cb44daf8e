/**
 * The built-in connectors, each against its vendor's stand-in charging 50 ms a call
 * (scripts/bench/connectors/<id>.ts sets each up): 5,000 users (Google Workspace, Okta), 2,000
 * repositories (GitHub), 20,000 assets (Google Cloud), collected to the end.
 *
 * Three figures each, beside the baseline the same run computes:
 * - calls, beside the fewest the vendor's API allows for that organisation (its largest page
 *   size, and the calls it needs per subject): target ≤ 1.05×;
 * - wall time, beside calls × 50 ms ÷ the concurrency the vendor allows (what a perfect client
 *   would take): target ≤ 1.2×;
 * - peak memory of the process that collected (RSS): target ≤ 256 MiB.
 */
import type { Comparison } from '../comparison.ts';
import type { ConnectorBenchFigures } from '../connectors/figures.ts';
import type { BenchGroup } from '../group.ts';

/** One per built-in connector (test/unit/connectors/registry.test.ts checks). */
export const connectorScenarios = ['github', 'google-cloud', 'google-workspace', 'okta'] as const;

export function connectorComparisons(figures: ConnectorBenchFigures): Comparison[] {
  const ideal = (figures.calls * figures.latencyMs) / figures.concurrency;
  const what = `${figures.connector}: ${figures.subjects.toLocaleString('en')} subjects`;
  return [
    {
      figure: `${what}, calls`,
      measured: figures.calls,
      baselineName: 'fewest the API allows',
      baseline: figures.minimumCalls,
      unit: 'reads',
      target: { atMost: 1.05 },
    },
    {
      figure: `${what}, wall time`,
      measured: figures.wallMs,
      baselineName: `calls × ${figures.latencyMs} ms ÷ ${figures.concurrency}`,
      baseline: ideal,
      unit: 'ms',
      target: { atMost: 1.2 },
    },
    {
      figure: `${what}, peak RSS`,
      measured: figures.peakRssMiB,
      baselineName: 'limit 256 MiB',
      baseline: 256,
      unit: 'MiB',
      target: { within: 256 },
    },
  ];
}

export const connectorsGroup: BenchGroup = {
  name: 'connectors',
  heading: () => 'Connectors against their stand-ins at 50 ms a call',
  async measure() {
    const comparisons: Comparison[] = [];
    for (const scenario of connectorScenarios) {
      const { measure } = (await import(`../connectors/${scenario}.ts`)) as { measure(): Promise<ConnectorBenchFigures> };
      comparisons.push(...connectorComparisons(await measure()));
    }
    return comparisons;
  },
};
