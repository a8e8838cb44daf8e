/**
 * A loopback HTTP proxy that mistreats responses the way real intermediaries do, so tests can
 * prove an event stream survives them: `buffer` holds each response whole and sends it with
 * Content-Length (as Firebase Hosting does with function responses), `cut` drops the client
 * connection after a random number of body bytes, `cut-buffered` does both. Where it cuts comes
 * from a seeded PRNG, so a failing seed replays exactly.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'pass' | 'buffer' | 'cut' | 'cut-buffered';

export interface UnreliableProxyOptions {
  /** The upstream origin, e.g. `http://127.0.0.1:4000`. */
  target: string;
  mode: ProxyMode;
  /** Seeds the PRNG that picks, per connection, how many body bytes get through before a cut. */
  seed?: number;
  /** A cut connection delivers between `minBytes` and `maxBytes` body bytes (inclusive). */
  minBytes?: number;
  maxBytes?: number;
}

export interface ProxyStats {
  /** Requests proxied: one per connection attempt of a streaming client. */
  connections: number;
  /** Connections destroyed before the client had the whole body. */
  cuts: number;
  /** Body bytes delivered to clients. */
  bytes: number;
}

export interface UnreliableProxy {
  origin: string;
  stats: ProxyStats;
  close(): Promise<void>;
}

// RFC 9110 §7.6.1: these describe one connection and are never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** A small, fast, seedable PRNG (Tommy Ettinger's mulberry32), uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name)));
}

export async function startUnreliableProxy(options: UnreliableProxyOptions): Promise<UnreliableProxy> {
  const { mode, minBytes = 0, maxBytes = 1024 } = options;
  const random = mulberry32(options.seed ?? 1);
  const buffers = mode === 'buffer' || mode === 'cut-buffered';
  // Its own agent, so close() can drop the upstream connections it opened.
  const agent = new http.Agent({ keepAlive: false });
  const stats: ProxyStats = { connections: 0, cuts: 0, bytes: 0 };

  const server = http.createServer((req, res) => {
    stats.connections += 1;
    const budget = mode.startsWith('cut') ? minBytes + Math.floor(random() * (maxBytes - minBytes + 1)) : Infinity;
    const upstream = http.request(new URL(req.url ?? '/', options.target), {
      method: req.method,
      headers: endToEnd(req.headers),
      agent,
    });
    let cutting = false;

    function cut(prefix: Buffer) {
      cutting = true;
      stats.cuts += 1;
      stats.bytes += prefix.length;
      const drop = () => {
        res.destroy();
        upstream.destroy();
      };
      // Drop only once the prefix has reached the socket, so the client gets exactly that much.
      if (prefix.length > 0) res.write(prefix, drop);
      else drop();
    }

    // A client that goes away takes its upstream request with it, as behind a real proxy.
    res.on('close', () => upstream.destroy());
    upstream.on('error', () => {
      if (cutting || res.destroyed) return;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502 }));
    });
    upstream.on('response', (answer) => {
      const status = answer.statusCode ?? 502;
      const headers = endToEnd(answer.headers);
      answer.on('error', () => {
        if (!cutting) res.destroy();
      });
      if (buffers) {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          delete headers['content-length'];
          if (status !== 204 && status !== 304) headers['content-length'] = body.length;
          res.writeHead(status, headers);
          if (body.length <= budget) {
            stats.bytes += body.length;
            res.end(body);
          } else {
            cut(body.subarray(0, budget));
          }
        });
        return;
      }
      res.writeHead(status, headers);
      let sent = 0;
      answer.on('data', (chunk: Buffer) => {
        if (cutting) return;
        if (sent + chunk.length > budget) {
          cut(chunk.subarray(0, budget - sent));
          return;
        }
        sent += chunk.length;
        stats.bytes += chunk.length;
        res.write(chunk);
      });
      answer.on('end', () => {
        if (!cutting) res.end();
      });
    });
    req.pipe(upstream);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
