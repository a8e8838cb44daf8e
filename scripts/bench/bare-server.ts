/**
 * A bare `node:http` server answering every request with the bytes and content type it is
 * given, as fast as Node can: the context beside each throughput figure, and chat's first-byte baseline.
 *
 *   node bare-server.ts <port> <content-type> <body file> [status]
 *
 * With status 304 it answers like a conditional hit: no body, just the validator.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, contentType, bodyFile, status = '200'] = process.argv.slice(2) as [string, string, string, string?];
const body = readFileSync(bodyFile);
createServer((_req, res) => {
  if (status === '304') {
    res.writeHead(304, { ETag: '"bench"' });
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length });
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
