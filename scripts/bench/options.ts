/**
 * The command line of `npm run bench`: which group to run (`--only`), how many cold starts
 * (`--runs`), how long each load lasts (`--seconds`), the storage group's days of history, and
 * whether the throughput groups print every round (`--rounds`), to see how noisy the machine was.
 */

export interface BenchOptions {
  /** The one group to run, or every group when absent. */
  only: string | undefined;
  runs: number;
  seconds: number;
  showRounds: boolean;
  storageDays: number[];
  /** The days at which the design before partitions is measured too. */
  storageBaselineDays: number[];
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const valueOf = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    return index === -1 ? undefined : argv[index + 1];
  };
  const number = (name: string, fallback: number) => {
    const index = argv.indexOf(`--${name}`);
    return index === -1 ? fallback : Number(argv[index + 1]);
  };
  const daysList = (name: string, fallback: number[]) => {
    const index = argv.indexOf(`--${name}`);
    return index === -1 ? fallback : argv[index + 1]!.split(',').map(Number);
  };
  const storageDays = daysList('storage-days', [30, 365]);
  const runs = number('runs', 9);
  const seconds = number('seconds', 10);
  if (!(runs >= 1) || !(seconds >= 1)) throw new Error('--runs and --seconds take a number, at least 1.');
  return {
    only: valueOf('only'),
    runs,
    seconds,
    showRounds: argv.includes('--rounds'),
    storageDays,
    // The design before partitions reads every item ever stored: at 365 days that is 1.8 million reads, minutes of work.
    storageBaselineDays: argv.includes('--full') ? storageDays : daysList('storage-baseline', [Math.min(...storageDays)]),
  };
}
