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
