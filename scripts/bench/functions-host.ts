/**
 * Serving the built functions as production serves them, for the benchmark groups: each under
 * functions-framework with `--target`, a hello-world function with the same SDK as the baseline,
 * a bare `node:http` server answering the same bytes, and the load and timing helpers around them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../lib/paths.ts';
import { onServerCpu } from './cpu-pinning.ts';
import { headerOf, perRequestHeaders, type RecordedAnswer } from './recorded-answer.ts';

/** Where the benchmarks keep their stores, builds and bodies. */
export const work = join(paths.root, '.local', 'bench');
export const benchStore = join(work, 'store');
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
  /** How to ask for `path`, when not a plain GET (the chat's POST). */
  request?: RequestInit;
}

/** A folder for a function module `name`, with the functions package's SDK resolvable from it. */
function functionFolder(name: string): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(paths.functions, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', main: 'index.js' }));
  return dir;
}

/** A hello-world function with the same SDK, answering `{"authRequired":false}` as `res.json` sends it. */
export function writeHelloWorld(): string {
  const dir = functionFolder('hello-world');
  writeFileSync(
    join(dir, 'index.js'),
    "import { onRequest } from 'firebase-functions/v2/https';\n" +
      'export const hello = onRequest((req, res) => { res.json({ authRequired: false }); });\n',
  );
  return dir;
}

/**
 * A hello-world function with the same SDK that replays a function's answer: the same status,
 * headers (a new value for each per-request one, such as X-Request-Id) and body, written at once
 * (one `writeHead`, one `end`); and, given the function's 304, that answer to an `If-None-Match`
 * equal to its ETag. Nothing a function could do costs less for those bytes. Written under
 * `name`, so several can run at once.
 */
export function writeReplayingHello(name: string, ok: RecordedAnswer, notModified?: RecordedAnswer): string {
  const dir = functionFolder(name);
  writeFileSync(join(dir, 'body'), ok.body);
  const flat = (answer: RecordedAnswer) => answer.headers.flat();
  const perRequest = (answer: RecordedAnswer) =>
    answer.headers.flatMap(([header], index) => (perRequestHeaders.has(header.toLowerCase()) ? [2 * index + 1] : []));
  const etag = notModified && headerOf(notModified, 'etag');
  const lines = [
    "import { randomUUID } from 'node:crypto';",
    "import { readFileSync } from 'node:fs';",
    "import { onRequest } from 'firebase-functions/v2/https';",
    "const body = readFileSync(new URL('./body', import.meta.url));",
    // Name, value, name, value…: Node writes such a list as it is. Values are filled in place,
    // which is safe because writeHead turns the list into bytes before it returns.
    `const ok = ${JSON.stringify(flat(ok))};`,
    `const okPerRequest = ${JSON.stringify(perRequest(ok))};`,
  ];
  let revalidate = '';
  if (notModified && etag) {
    lines.push(
      `const notModified = ${JSON.stringify(flat(notModified))};`,
      `const notModifiedPerRequest = ${JSON.stringify(perRequest(notModified))};`,
    );
    revalidate =
      `if (req.headers['if-none-match'] === ${JSON.stringify(etag)}) { ` +
      `for (const i of notModifiedPerRequest) notModified[i] = randomUUID(); ` +
      `res.writeHead(${notModified.status}, notModified); res.end(); return; } `;
  }
  lines.push(
    'export const hello = onRequest((req, res) => { ' +
      revalidate +
      'for (const i of okPerRequest) ok[i] = randomUUID(); ' +
      `res.writeHead(${ok.status}, ok); res.end(body); });`,
  );
  writeFileSync(join(dir, 'index.js'), lines.join('\n') + '\n');
  return dir;
}

/** Serves `target` under functions-framework at `port`; `pinned`, on the server CPU (cpu-pinning.ts). */
export function startFunction(target: Target, port: number, { pinned = false } = {}): ChildProcess {
  const args = [paths.functionsFramework, `--target=${target.target}`, `--source=${target.source}`, `--port=${port}`];
  const [command, commandArgs] = pinned ? onServerCpu(process.execPath, args) : [process.execPath, args];
  return spawn(command, commandArgs, { env, stdio: 'ignore' });
}

/**
 * Starts `bare-server.ts` answering `bodyFile` with `contentType` (and `304` for a revalidation),
 * on the server CPU when `pinned`; resolves once it listens.
 */
export async function startBareServer(
  port: number,
  contentType: string,
  bodyFile: string,
  { status, pinned = false }: { status?: '200' | '304'; pinned?: boolean } = {},
): Promise<ChildProcess> {
  const args = [join(import.meta.dirname, 'bare-server.ts'), String(port), contentType, bodyFile, ...(status ? [status] : [])];
  const [command, commandArgs] = pinned ? onServerCpu(process.execPath, args) : [process.execPath, args];
  const bare = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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

/**
 * Milliseconds from spawning the function to the status line and headers of its first 200: a
 * streamed answer (the audit package) counts until it starts, not until it ends.
 */
export async function coldStart(target: Target, port: number): Promise<number> {
  const started = performance.now();
  const child = startFunction(target, port);
  try {
    const url = `http://127.0.0.1:${port}${target.path}`;
    let answeredAt = started;
    await waitFor200(url, started + 20_000, async () => {
      const response = await fetch(url, target.request);
      answeredAt = performance.now();
      return response;
    });
    return answeredAt - started;
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
