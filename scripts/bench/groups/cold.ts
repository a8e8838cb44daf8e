/** Cold start: process spawn to first 200, median of several interleaved runs, against a hello-world function. */
import type { Comparison } from '../comparison.ts';
import { coldStart } from '../functions-host.ts';
import type { BenchGroup } from '../group.ts';
import { median } from '../median.ts';

export const coldGroup: BenchGroup = {
  name: 'cold',
  heading: ({ runs }) => `Cold start, ${runs} runs each, interleaved`,
  async measure({ options, hello, authConfig, docsPage }) {
    const comparisons: Comparison[] = [];
    const times = new Map<string, number[]>([hello, authConfig, docsPage].map((target) => [target.name, []]));
    for (let run = 0; run < options.runs; run++) {
      for (const target of [hello, authConfig, docsPage]) times.get(target.name)!.push(await coldStart(target, 18100));
    }
    const baseline = median(times.get(hello.name)!);
    for (const target of [authConfig, docsPage]) {
      const figure = `cold start: ${target.name} (${target.path})`;
      comparisons.push({
        figure,
        measured: median(times.get(target.name)!),
        baselineName: 'hello-world',
        baseline,
        unit: 'ms',
        target: { atMost: 1.3 },
      });
    }
    return comparisons;
  },
};
