/** Evaluation of 500 controls over 100,000 items beside parsing them, and its growth from 10,000 items. */
import type { BenchGroup } from '../group.ts';
import { benchCatalog, syntheticEvidence, timeEvaluation, timeParse } from '../evaluation.ts';

export const evaluationGroup: BenchGroup = {
  name: 'evaluation',
  heading: () => 'Evaluation: 500 controls, 10,000 and 100,000 evidence items',
  async measure() {
    const catalog = await benchCatalog(500);
    const small = syntheticEvidence(10_000);
    const large = syntheticEvidence(100_000);
    await timeEvaluation(catalog, small, 1); // warm the JIT, not counted
    const smallMs = await timeEvaluation(catalog, small, 5);
    const largeMs = await timeEvaluation(catalog, large, 3);
    return [
      {
        figure: 'evaluation: 500 controls × 100,000 items',
        measured: largeMs,
        baselineName: 'JSON.parse of the items',
        baseline: timeParse(large),
        unit: 'ms',
        target: { withinMs: 3000 },
      },
      {
        figure: 'evaluation growth: 100,000 vs 10,000 items',
        measured: largeMs,
        baselineName: '10,000 items',
        baseline: smallMs,
        unit: 'ms',
        target: { atMost: 11 },
      },
    ];
  },
};
