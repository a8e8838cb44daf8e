/**
 * A loopback HTTP server that answers each request as the test scripts it, and records what
 * arrived: the stand-in for the API behind the web app's rune classes in unit tests. Its
 * `fetch` resolves the app's same-origin paths (`/api/…`) against it, as a page's fetch would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  lastEventId: string | undefined;
  body: string;
  /** Resolves when the client closes the connection before the answer ended (an abort). */
  closedEarly: Promise<void>;
}

export type Script = (request: SeenRequest, res: http.ServerResponse) => void;

export interface ScriptedOrigin {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  requests: SeenRequest[];
  fetch: typeof fetch;
  close(): Promise<void>;
}

export async function startScriptedOrigin(script: Script): Promise<ScriptedOrigin> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        lastEventId: req.headers['last-event-id'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
        closedEarly: new Promise((resolve) => res.on('close', () => !res.writableFinished && resolve())),
      };
      requests.push(seen);
      script(seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    fetch: (input, init) => fetch(new URL(String(input), origin), init),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One server-sent event as the API writes it: its id, type, and the whole event object as data. */
export const sseEvent = (event: { id: number; type: string }) =>
  `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** Starts an event stream answer; `retry` keeps the client's reconnect delay short in tests. */
export function openStream(res: http.ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.write('retry: 5\n\n');
}
