/** Runs a command with inherited output and fails loudly when it fails. */
import { spawn, type SpawnOptions } from 'node:child_process';

export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/** Runs a step, printing its name and how long it took. */
export async function step<T>(name: string, work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  process.stdout.write(`\n▸ ${name}\n`);
  const result = await work();
  process.stdout.write(`  ✓ ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  return result;
}

/**
 * Runs independent checks two at a time (the CI machine has two cores), each with its output held
 * back and printed whole when it ends, so two checks never interleave their lines. Fails, after
 * every check has ended, naming each that failed.
 */
export async function checksSideBySide(
  checks: { name: string; command: string; args: string[]; options?: SpawnOptions }[],
  lanes = 2,
): Promise<void> {
  const queue = [...checks];
  const failed: string[] = [];
  const lane = async () => {
    for (let check = queue.shift(); check; check = queue.shift()) {
      const started = performance.now();
      const { code, output } = await runHeld(check.command, check.args, check.options);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n▸ ${check.name}\n${output}  ${code === 0 ? '✓' : '✗'} ${check.name} (${seconds} s)\n`);
      if (code !== 0) failed.push(check.name);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failed.length > 0) throw new Error(`Failed: ${failed.join(', ')}.`);
}

/** Runs a command with its standard output and error collected into one text. */
function runHeld(command: string, args: string[], options: SpawnOptions = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}
