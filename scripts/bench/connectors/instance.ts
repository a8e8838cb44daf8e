/**
 * The process each connector's collection is measured in: Node as a 256 MiB instance runs it. V8
 * gives the old generation a quarter of an instance's memory (functions/src/index.ts says the
 * same of the daily job), and sizes the young generation from the machine unless told: on this
 * 24 GiB machine it grows it to 128 MiB, which no 256 MiB instance would. At a 64 MiB heap it
 * would instead scavenge so often that a collection costs ten times the CPU (measured on GitHub:
 * 60 s against 6 s), hence a semi-space of 8 MiB given too.
 */
import { spawn } from 'node:child_process';

export const instanceMiB = 256;

export const instanceExecArgv = [`--max-old-space-size=${instanceMiB / 4}`, '--max-semi-space-size=8'];

/**
 * Runs a scenario's file again as `<file> --child`, in such a process, and reads the figures it
 * prints as JSON: its peak memory is then the collection's alone, not the bench's.
 */
export async function figuresFromChild<T>(file: string, what: string): Promise<T> {
  const child = spawn(process.execPath, [...instanceExecArgv, file, '--child'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`The ${what} bench exited with ${code}`);
  return JSON.parse(output) as T;
}
