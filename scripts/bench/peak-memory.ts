/**
 * A process's own peak resident memory, for the benches that measure one in a process of its own.
 * Linux's `VmHWM` belongs to the address space the process got at exec; getrusage's maxRSS is
 * carried across fork and exec, so a child spawned by a bench of 300 MiB reports at least 300 MiB
 * however little it uses itself.
 */
import { readFileSync } from 'node:fs';

export function ownPeakRssMiB(): number {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib) return Number(kib) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}
