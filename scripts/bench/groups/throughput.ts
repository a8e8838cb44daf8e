/**
 * Warm throughput of the auth config and a docs page, each against a hello-world function
 * answering its exact bytes (target ≥ 0.85×), with node:http and CPU per request for context.
 */
import type { Comparison } from '../comparison.ts';
import type { BenchGroup } from '../group.ts';
import { pinningNote } from '../cpu-pinning.ts';
import { sameBytesRows, sameBytesThroughput } from '../same-bytes.ts';

export const throughputGroup: BenchGroup = {
  name: 'throughput',
  heading: ({ seconds }) => `Warm throughput, autocannon, 50 connections, ${seconds} s each in rounds, ${pinningNote}`,
  async measure({ options, authConfig, docsPage }) {
    const comparisons: Comparison[] = [];
    for (const target of [authConfig, docsPage]) {
      const result = await sameBytesThroughput(target, 18200, { seconds: options.seconds, showRounds: options.showRounds });
      comparisons.push(...sameBytesRows(`${target.name} (${target.path})`, result));
    }
    return comparisons;
  },
};
