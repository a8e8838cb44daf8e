/**
 * Warm throughput of today's report on a store seeded with demo data, as a 200 and as a 304
 * revalidation, each against a hello-world function answering the same bytes.
 */
import { paths } from '../../lib/paths.ts';
import { resetStore, seedDemo } from '../../lib/seed-demo.ts';
import type { Comparison } from '../comparison.ts';
import { benchStore, type Target } from '../functions-host.ts';
import type { BenchGroup } from '../group.ts';
import { pinningNote } from '../cpu-pinning.ts';
import { sameBytesRows, sameBytesThroughput } from '../same-bytes.ts';

export const reportGroup: BenchGroup = {
  name: 'report',
  heading: ({ seconds }) => `Warm report throughput on demo data, 50 connections, ${seconds} s each in rounds, ${pinningNote}`,
  async measure({ options }) {
    const comparisons: Comparison[] = [];
    await resetStore(benchStore);
    await seedDemo({ storeDir: benchStore, today: new Date().toISOString().slice(0, 10), timeZone: 'UTC' });
    const today: Target = { name: 'report', source: paths.functions, target: 'report', path: '/api/report/today' };
    for (const conditional of [false, true]) {
      const result = await sameBytesThroughput(today, 18300, {
        seconds: options.seconds,
        conditional,
        showRounds: options.showRounds,
      });
      comparisons.push(...sameBytesRows(`report ${conditional ? '304 (If-None-Match)' : '200'} (${today.path})`, result));
    }
    return comparisons;
  },
};
