/**
 * Keeping the load generator and the servers it loads on separate CPUs, for the throughput
 * comparisons. On a 2-core machine the scheduler otherwise moves autocannon and the server
 * between the cores and lets them share one now and then: two servers doing the same work,
 * loaded in turns, measured 0.95–1.43× of each other round by round; pinned, 0.98–1.10×. The
 * function and its hello-world share the server CPU and are loaded in turns, so pinning treats
 * them alike.
 *
 * Linux only, with util-linux's `taskset` and at least two CPUs allowed to this process (the
 * first two are used); elsewhere nothing is pinned and the heading says so.
 */
import { execFileSync } from 'node:child_process';

export interface Pinning {
  /** The CPU autocannon (this process) runs on. */
  load: number;
  /** The CPU every server runs on. */
  server: number;
  /** The CPUs this process may use (as `taskset -c` takes them), given back after a measurement. */
  allowed: string;
}

/** The CPUs a list such as `0-3,6` names. */
function cpusIn(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const bounds = part.split('-').map(Number);
    const [first, last] = [bounds[0]!, bounds.at(-1)!];
    return Array.from({ length: last - first + 1 }, (_, offset) => first + offset);
  });
}

function detect(): Pinning | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    // "pid 42's current affinity list: 0,1": the first two CPUs this process is allowed.
    const allowed = execFileSync('taskset', ['-pc', String(process.pid)], { encoding: 'utf8' })
      .split(':')
      .at(-1)!
      .trim();
    const [load, server] = cpusIn(allowed);
    return load === undefined || server === undefined ? undefined : { load, server, allowed };
  } catch {
    return undefined; // no taskset, or not allowed to read the affinity
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
 * libuv's pool and V8's helpers are threads too) on the load CPU, then gives back the CPUs it had.
 */
export async function withLoadPinned<T>(measure: () => Promise<T>): Promise<T> {
  if (!pinning) return measure();
  execFileSync('taskset', ['-a', '-p', '-c', String(pinning.load), String(process.pid)], { stdio: 'ignore' });
  try {
    return await measure();
  } finally {
    execFileSync('taskset', ['-a', '-p', '-c', pinning.allowed, String(process.pid)], { stdio: 'ignore' });
  }
}
