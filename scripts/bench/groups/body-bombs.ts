/**
 * Body bombs: the peak memory a gzip bomb and 30 MB of JSON cost a function in protected mode,
 * beside a hello-world function whose runtime parses them unguarded.
 */
import { measureBombs, reviewBombs } from '../../lib/body-bombs.ts';
import { paths } from '../../lib/paths.ts';
import type { Comparison } from '../comparison.ts';
import { env } from '../functions-host.ts';
import type { BenchGroup } from '../group.ts';

export const bodyBombsGroup: BenchGroup = {
  name: 'body-bombs',
  heading: () => 'Body bombs: the peak memory each request costs, protected mode (a fresh process per bomb)',
  async measure({ hello }) {
    const comparisons: Comparison[] = [];
    const bombs = reviewBombs();
    const protectedEnv = { ...env, AUTH_REQUIRED: 'true' };
    // The baseline is the runtime itself: a hello-world function, whose body functions-framework parses unguarded.
    const unguarded = await measureBombs({ source: hello.source, target: 'hello', path: '/', env: protectedEnv }, bombs, 18470);
    for (const [target, path] of [
      ['auth', '/api/auth/config'],
      ['evidence', '/api/evidence'],
    ] as const) {
      const guarded = await measureBombs({ source: paths.functions, target, path, env: protectedEnv }, bombs, 18471);
      guarded.forEach((outcome, index) =>
        comparisons.push({
          figure: `body bomb: ${outcome.bomb} to ${target} (answered ${outcome.status}), peak RSS growth`,
          measured: outcome.peakGrowthMiB,
          baselineName: `hello-world function (answered ${unguarded[index]!.status})`,
          baseline: unguarded[index]!.peakGrowthMiB,
          unit: 'MiB',
          target: { within: 64 },
        }),
      );
    }
    return comparisons;
  },
};
