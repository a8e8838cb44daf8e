/**
 * The throughput baseline: a bare `node:http` server answering every request with the bytes
 * and content type it is given, as fast as Node can.
 *
 *   node bare-server.ts <port> <content-type> <body file>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, contentType, bodyFile] = process.argv.slice(2) as [string, string, string];
const body = readFileSync(bodyFile);
createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length });
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
