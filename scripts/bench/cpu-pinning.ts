/**
 * Keeping the load generator and the servers it loads on separate CPUs, for the throughput
 * comparisons. On a 2-core machine the scheduler otherwise moves autocannon and the server
 * between the cores and lets them share one now and then: two servers doing the same work,
 * loaded in turns, measured 0.95–1.43× of each other round by round; pinned, 0.98–1.10×. The
 * function and its hello-world share the server CPU and are loaded in turns, so pinning treats
 * them alike.
 *
 * Linux only, with util-linux's `taskset` and at least two CPUs; elsewhere nothing is pinned and
 * the heading says so.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface Pinning {
  /** The CPU autocannon (this process) runs on. */
  load: number;
  /** The CPU every server runs on. */
  server: number;
}

function detect(): Pinning | undefined {
  if (process.platform !== 'linux' || availableParallelism() < 2) return undefined;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return { load: 0, server: 1 };
  } catch {
    return undefined; // no taskset, or not allowed to set affinity
  }
}

export const pinning = detect();

/** What the headings say about where the load and the servers ran. */
export const pinningNote = pinning
  ? `load on CPU ${pinning.load}, servers on CPU ${pinning.server}`
  : 'not pinned to CPUs (needs Linux, taskset and 2 CPUs)';

/** The command and arguments that run `command args` on the server CPU (as given when not pinning). */
export function onServerCpu(command: string, args: readonly string[]): [string, string[]] {
  return pinning ? ['taskset', ['-c', String(pinning.server), command, ...args]] : [command, [...args]];
}

/**
 * Runs `measure` with this process (every thread: autocannon's sockets live on the main one, but
 * libuv's pool and V8's helpers are threads too) on the load CPU, then gives it every CPU back.
 */
export async function withLoadPinned<T>(measure: () => Promise<T>): Promise<T> {
  if (!pinning) return measure();
  const cpus = `0-${availableParallelism() - 1}`;
  execFileSync('taskset', ['-a', '-p', '-c', String(pinning.load), String(process.pid)], { stdio: 'ignore' });
  try {
    return await measure();
  } finally {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
  }
}
