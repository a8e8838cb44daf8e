/**
 * The baseline for the stream benchmark: a bare `node:http` server that holds event-stream
 * connections open and writes each event to all of them the moment it is posted to `/emit`.
 * No store, no framework: what delivering an event costs at the least.
 *
 * Usage: node bare-sse-server.ts <port>
 */
import http from 'node:http';

const port = Number(process.argv[2]);
const clients = new Set<http.ServerResponse>();

http
  .createServer((req, res) => {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; type: string };
        const frame = `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
        for (const client of clients) client.write(frame);
        if (event.type === 'run.completed') for (const client of clients) client.end();
        res.end();
      });
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' });
    res.write('retry: 1000\n\n');
    clients.add(res);
    res.on('close', () => clients.delete(res));
  })
  .listen(port, '127.0.0.1');
