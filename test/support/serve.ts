/**
 * Serves an HTTP handler on a real `node:http` server on loopback, buffering bodies into
 * `rawBody` as the functions runtimes do, so unit tests go through real requests and responses.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpHandler } from '../../functions/src/http/create-family.ts';

export interface Served {
  url: string;
  close(): Promise<void>;
}

export async function serve(handler: HttpHandler): Promise<Served> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (chunks.length > 0) Object.assign(req, { rawBody: Buffer.concat(chunks) });
      void handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
