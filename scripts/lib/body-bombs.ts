/**
 * Body bombs against a function served as production serves it (functions-framework, one
 * function per process), measuring how much each request raises the process's peak memory.
 *
 * Each bomb gets a fresh process, so the peak (`VmHWM` in /proc) it leaves is its own. Used by
 * the integration test that guards the limit and by `npm run bench -- --only body-bombs`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { paths } from './paths.ts';

export interface Bomb {
  name: string;
  headers: Record<string, string>;
  /** The bytes on the wire; `chunked` sends them without a Content-Length. */
  body: Buffer;
  chunked?: boolean;
}

export interface BombOutcome {
  bomb: string;
  wireBytes: number;
  status: number;
  /** The problem code of the answer, if it was a problem. */
  code?: string;
  /** Growth of the process's peak resident memory over the request, in MiB. */
  peakGrowthMiB: number;
}

/** The review's bombs: 60 MB of `[{},…]` gzipped to ~60 KB, and 30 MB of plain JSON sent both ways. */
export function reviewBombs(): Bomb[] {
  const json = Buffer.from(`[${'{},'.repeat(20_000_000)}{}]`);
  const plain = json.subarray(0, 30 * 1024 * 1024 - 1);
  const plainJson = Buffer.concat([plain.subarray(0, plain.lastIndexOf(',')), Buffer.from(']')]);
  return [
    {
      name: 'gzip bomb (60 MB of JSON inflated)',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(json, { level: 9 }),
    },
    { name: '30 MB of JSON, Content-Length', headers: { 'Content-Type': 'application/json' }, body: plainJson },
    { name: '30 MB of JSON, chunked', headers: { 'Content-Type': 'application/json' }, body: plainJson, chunked: true },
  ];
}

/**
 * The same against the function with the largest limit (uploads, 51 MiB), in the media type it
 * takes, compressed. (Sent plain, up to 51 MiB of it is read before it is refused: that is the
 * limit uploads need, and it costs as much memory.)
 */
export function uploadBombs(): Bomb[] {
  const boundary = 'bomb';
  const form = (bytes: number) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.alloc(bytes, 'a'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  const headers = { 'Content-Type': `multipart/form-data; boundary=${boundary}` };
  const big = form(60 * 1024 * 1024);
  return [
    {
      name: 'gzip bomb (60 MB of form data inflated)',
      headers: { ...headers, 'Content-Encoding': 'gzip' },
      body: gzipSync(big, { level: 9 }),
    },
  ];
}

export interface ServedFunction {
  /** The folder functions-framework loads (`--source`): the functions package, or a hello-world's. */
  source: string;
  target: string;
  path: string;
  env: NodeJS.ProcessEnv;
}

export async function measureBombs(served: ServedFunction, bombs: Bomb[], port: number): Promise<BombOutcome[]> {
  const outcomes: BombOutcome[] = [];
  for (const bomb of bombs) {
    const child = spawn(process.execPath, [paths.functionsFramework, `--source=${served.source}`, `--port=${port}`], {
      env: { ...served.env, FUNCTION_TARGET: served.target },
      stdio: 'ignore',
    });
    try {
      const url = `http://127.0.0.1:${port}${served.path}`;
      await waitUntilServing(url, child);
      for (let warm = 0; warm < 20; warm += 1) await (await fetch(url)).arrayBuffer();
      const before = peakResidentBytes(child);
      const answer = await send(url, bomb);
      const after = peakResidentBytes(child);
      outcomes.push({
        bomb: bomb.name,
        wireBytes: bomb.body.length,
        status: answer.status,
        ...(answer.code ? { code: answer.code } : {}),
        peakGrowthMiB: Math.round(((after - before) / 1024 / 1024) * 10) / 10,
      });
    } finally {
      await stop(child);
    }
  }
  return outcomes;
}

/** Peak resident set size of a process so far, from the kernel's high-water mark. */
function peakResidentBytes(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kib = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  if (!kib) throw new Error('no VmHWM in /proc status');
  return Number(kib) * 1024;
}

async function waitUntilServing(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the function exited with ${child.exitCode} before serving`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Sends a POST over a plain socket and reads the answer, which arrives before the body is all
 * sent. Node's HTTP client drops an early answer when its next write fails, so the request is
 * written by hand and writing stops at the first error or once the answer is in.
 */
function send(url: string, bomb: Bomb): Promise<{ status: number; code?: string }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let writing = true;
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      // The whole answer is in: done, whether or not the server closes (it may still be reading the body).
      if (answerComplete(Buffer.concat(received))) socket.destroy();
    });
    socket.on('error', () => (writing = false)); // the server may close once it has answered
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      if (status === 0) return reject(new Error('the connection closed without an answer'));
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      let code: string | undefined;
      try {
        code = (JSON.parse(body) as { code?: string }).code;
      } catch {
        code = undefined;
      }
      resolve({ status, ...(code ? { code } : {}) });
    });
    const headers = { ...bomb.headers, Host: `${hostname}:${port}`, Connection: 'close' };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    lines.push(bomb.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bomb.body.length}`);
    socket.write(`POST ${pathname} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    const step = 1024 * 1024;
    let offset = 0;
    const pump = (): void => {
      while (writing && received.length === 0 && offset < bomb.body.length) {
        const chunk = bomb.body.subarray(offset, offset + step);
        offset += step;
        const framed = bomb.chunked ? [Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')] : [chunk];
        if (!socket.write(Buffer.concat(framed))) return void socket.once('drain', pump);
      }
      if (writing && offset >= bomb.body.length && bomb.chunked) socket.write('0\r\n\r\n');
      // Sent, or answered: the server closes after its answer (Connection: close). Ending our
      // side first would make Node's server abort the request (it takes no half-closed clients).
    };
    socket.setTimeout(30_000, () => socket.destroy());
    pump();
  });
}

/** Whether `bytes` hold an HTTP answer's head and as much body as its Content-Length says. */
function answerComplete(bytes: Buffer): boolean {
  const head = bytes.indexOf('\r\n\r\n');
  if (head < 0) return false;
  const length = /^content-length: *(\d+)\r?$/im.exec(bytes.subarray(0, head).toString('latin1'))?.[1];
  return length !== undefined && bytes.length - head - 4 >= Number(length);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
