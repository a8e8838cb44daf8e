/**
 * What a benchmark group is: a name for `--only`, the heading its step prints, and the figures it
 * measures. The runner (scripts/bench.ts) runs the wanted groups in order and prints one table.
 */
import type { Comparison } from './comparison.ts';
import type { Target } from './functions-host.ts';
import type { BenchOptions } from './options.ts';

export interface BenchContext {
  options: BenchOptions;
  /** The hello-world baseline, written once before the groups run. */
  hello: Target;
  authConfig: Target;
  docsPage: Target;
}

export interface BenchGroup {
  /** As `npm run bench -- --only <name>` names it. */
  name: string;
  heading(options: BenchOptions): string;
  measure(context: BenchContext): Promise<Comparison[]>;
}
