/**
 * Serving the built functions as production serves them, for the benchmark groups: each under
 * functions-framework with `--target`, a hello-world function with the same SDK as the baseline,
 * a bare `node:http` server answering the same bytes, and the load and timing helpers around them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../lib/paths.ts';

/** Where the benchmarks keep their stores, builds and bodies. */
export const work = join(paths.root, '.local', 'bench');
export const benchStore = join(work, 'store');
const functionsFramework = join(paths.root, 'node_modules', '@google-cloud', 'functions-framework', 'build', 'src', 'main.js');
export const env = {
  ...process.env,
  NODE_ENV: 'production',
  METADATA_SERVER_DETECTION: 'none',
  GCLOUD_PROJECT: 'demo-evident',
  AUTH_REQUIRED: 'false',
  IDP_PROJECT_ID: 'demo-evident',
  CORS_ORIGINS: '',
  EVIDENT_STORE_DIR: benchStore,
};

export interface Target {
  name: string;
  source: string;
  target: string;
  path: string;
}

/**
 * A hello-world function with the same SDK, resolved from the functions package: `{"authRequired":false}`
 * as `res.json` sends it, or, given `answer`, those bytes as `res.send` sends them, with the
 * answer's ETag when it has one and a 304 when `If-None-Match` matches it (Express's `req.fresh`).
 * Written under `name`, so several can run at once.
 */
export function writeHelloWorld(answer?: { body: Buffer; contentType: string; etag?: string }, name = 'hello-world'): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(paths.functions, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', main: 'index.js' }));
  let handler = 'export const hello = onRequest((req, res) => { res.json({ authRequired: false }); });\n';
  if (answer) {
    writeFileSync(join(dir, 'body'), answer.body);
    const validate = answer.etag
      ? `res.set('ETag', ${JSON.stringify(answer.etag)}); if (req.fresh) { res.status(304).end(); return; } `
      : '';
    handler =
      "const body = readFileSync(new URL('./body', import.meta.url));\n" +
      `export const hello = onRequest((req, res) => { ${validate}res.type(${JSON.stringify(answer.contentType)}).send(body); });\n`;
  }
  writeFileSync(
    join(dir, 'index.js'),
    "import { readFileSync } from 'node:fs';\nimport { onRequest } from 'firebase-functions/v2/https';\n" + handler,
  );
  return dir;
}

export function startFunction(target: Target, port: number): ChildProcess {
  return spawn(
    process.execPath,
    [functionsFramework, `--target=${target.target}`, `--source=${target.source}`, `--port=${port}`],
    {
      env,
      stdio: 'ignore',
    },
  );
}

/**
 * Starts `bare-server.ts` answering `bodyFile` with `contentType` (and `304` for a revalidation);
 * resolves once it listens.
 */
export async function startBareServer(
  port: number,
  contentType: string,
  bodyFile: string,
  status?: '200' | '304',
): Promise<ChildProcess> {
  const bare = spawn(
    process.execPath,
    [join(import.meta.dirname, 'bare-server.ts'), String(port), contentType, bodyFile, ...(status ? [status] : [])],
    {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  // A server that cannot listen (the port taken, the body unreadable) exits instead of saying so.
  await new Promise<void>((resolve, reject) => {
    bare.once('message', () => resolve());
    bare.once('exit', (code, signal) => reject(new Error(`bare-server on ${port} exited (${code ?? signal}) before listening`)));
  });
  return bare;
}

/** Waits until `send` (a GET of `url` by default) answers 200, while the server starts. */
export async function waitFor200(url: string, deadline: number, send: () => Promise<Response> = () => fetch(url)): Promise<void> {
  for (;;) {
    try {
      const response = await send();
      await response.arrayBuffer();
      if (response.status === 200) return;
      throw new Error(`${url} answered ${response.status}`);
    } catch (error) {
      if ((error as Error).message.includes('answered')) throw error;
      if (performance.now() > deadline) throw new Error(`${url} did not answer in time`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  // A child a signal ended has no exit code, only a signal code; either way its `exit` is past.
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Milliseconds from spawning the function to its first 200. */
export async function coldStart(target: Target, port: number): Promise<number> {
  const started = performance.now();
  const child = startFunction(target, port);
  try {
    await waitFor200(`http://127.0.0.1:${port}${target.path}`, started + 20_000);
    return performance.now() - started;
  } finally {
    await stop(child);
  }
}

/** Milliseconds from sending the request to the first byte of the body. */
export async function firstByte(send: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await send();
  const reader = response.body!.getReader();
  await reader.read();
  const elapsed = performance.now() - started;
  await reader.cancel();
  return elapsed;
}
