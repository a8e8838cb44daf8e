/**
 * The real firebase-admin verifier, with Google's public-key endpoint replaced by a local
 * stand-in, so unit tests see what firebase-admin itself does with a token and with a key fetch
 * that fails, without the network or the Authentication emulator (whose tokens are unsigned and
 * never fetch keys).
 *
 * The hook is a supported one: the app's `httpAgent` (AppOptions), through which firebase-admin
 * makes its key fetches. The agent ignores the host asked for and connects to the stand-in, in
 * plain HTTP, or to a port nobody listens on.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import type { TokenVerifier } from '../../functions/src/http/bearer-token.ts';

/** Sends every HTTPS request the app makes to one local port, unencrypted. */
class LoopbackAgent extends https.Agent {
  readonly #port: number;

  constructor(port: number) {
    super();
    this.#port = port;
  }

  override createConnection(): net.Socket {
    return net.connect(this.#port, '127.0.0.1');
  }
}

/** What the stand-in answers to a key fetch: keys, an error, or nothing at all (the connection stays open). */
export type KeyAnswer = { keys: Record<string, KeyObject> } | { status: number; body: string } | 'never';

export interface KeyEndpoint {
  /** firebase-admin's verifier with its key fetches sent to the stand-in (or to a closed port). */
  verifier(target: 'stand-in' | 'closed port'): Promise<TokenVerifier>;
  /** Key fetches the stand-in has answered. */
  fetches: number;
  close(): Promise<void>;
}

export async function keyEndpointStandIn(projectId: string, answer: () => KeyAnswer): Promise<KeyEndpoint> {
  const server = http.createServer((_req, res) => {
    endpoint.fetches += 1;
    const reply = answer();
    if (reply === 'never') return;
    if ('keys' in reply) {
      const pems = Object.fromEntries(
        Object.entries(reply.keys).map(([kid, key]) => [kid, key.export({ type: 'spki', format: 'pem' })]),
      );
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' });
      res.end(JSON.stringify(pems));
    } else {
      res.writeHead(reply.status, { 'Content-Type': 'text/plain' });
      res.end(reply.body);
    }
  });
  await listen(server);
  // A port that was just free: connecting to it is refused, as to a host that is down.
  const closed = net.createServer();
  await listen(closed);
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));

  const apps: App[] = [];
  const endpoint: KeyEndpoint = {
    fetches: 0,
    async verifier(target) {
      const port = target === 'stand-in' ? (server.address() as AddressInfo).port : closedPort;
      // A new app each time: firebase-admin keeps the keys it fetched per app.
      const app = initializeApp({ projectId, httpAgent: new LoopbackAgent(port) }, `keys-${apps.length}-${Date.now()}`);
      apps.push(app);
      return getAuth(app);
    },
    async close() {
      await Promise.all(apps.map((app) => deleteApp(app)));
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      });
    },
  };
  return endpoint;
}

function listen(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

export const newSigningKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An ID token as Firebase Authentication issues one for `projectId`, signed RS256 with `key` under `kid`. */
export function signedIdToken(
  projectId: string,
  key: KeyObject,
  { kid = 'key-1', now = Math.floor(Date.now() / 1000), claims = {} as Record<string, unknown> } = {},
): string {
  const header = base64url({ alg: 'RS256', kid, typ: 'JWT' });
  const payload = base64url({
    iss: `https://securetoken.google.com/${projectId}`,
    aud: projectId,
    sub: 'user-1',
    user_id: 'user-1',
    email: 'ada@example.com',
    email_verified: true,
    auth_time: now,
    iat: now,
    exp: now + 3600,
    firebase: { sign_in_provider: 'password', identities: {} },
    ...claims,
  });
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), key).toString('base64url');
  return `${header}.${payload}.${signature}`;
}
