/**
 * A stand-in for the two Google endpoints keyless domain-wide delegation uses, on loopback: the
 * IAM Credentials API's `projects.serviceAccounts.signJwt` (POST
 * `/v1/projects/-/serviceAccounts/{email}:signJwt`, body `{ payload }`, answer
 * `{ keyId, signedJwt }`) and the OAuth 2.0 token endpoint's JWT-bearer grant (RFC 7523: form
 * `grant_type`, `assertion`; answer `{ access_token, expires_in, token_type }` or an RFC 6749
 * error). It signs nothing cryptographically: a signed JWT is one it issued.
 *
 * Not Google: one service account, whose runtime token is `runtimeToken`; `tokenCreator: false`
 * answers signJwt 403 as IAM does when the role is missing; scopes outside `delegatedScopes`
 * answer `unauthorized_client` as the token endpoint does when the Admin console lacks them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelegationStandInOptions {
  serviceAccount: string;
  runtimeToken: string;
  delegatedScopes: readonly string[];
  /** The access token issued for a valid assertion. */
  accessToken: string;
  tokenCreator?: boolean;
}

export interface DelegationStandIn {
  iamCredentials: string;
  token: string;
  /** The claims of each assertion exchanged, in order. */
  readonly exchanged: Record<string, unknown>[];
  close(): Promise<void>;
}

async function bodyOf(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startDelegationStandIn(options: DelegationStandInOptions): Promise<DelegationStandIn> {
  const signed = new Set<string>();
  const exchanged: Record<string, unknown>[] = [];
  let origin = '';
  const signPath = `/v1/projects/-/serviceAccounts/${encodeURIComponent(options.serviceAccount)}:signJwt`;

  async function signJwt(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    if (request.headers.authorization !== `Bearer ${options.runtimeToken}`) {
      return send(response, 401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    }
    if (options.tokenCreator === false) {
      const message = `Permission 'iam.serviceAccounts.signJwt' denied on resource (or it may not exist).`;
      return send(response, 403, { error: { code: 403, message, status: 'PERMISSION_DENIED' } });
    }
    const { payload } = JSON.parse(await bodyOf(request)) as { payload: string };
    const jwt = `${base64url({ alg: 'RS256', typ: 'JWT', kid: 'stand-in-key' })}.${Buffer.from(payload).toString('base64url')}.c3RhbmQtaW4`;
    signed.add(jwt);
    send(response, 200, { keyId: 'stand-in-key', signedJwt: jwt });
  }

  async function token(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const form = new URLSearchParams(await bodyOf(request));
    const assertion = form.get('assertion') ?? '';
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !signed.has(assertion)) {
      return send(response, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    }
    const claims = JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    exchanged.push(claims);
    const lifetime = Number(claims.exp) - Number(claims.iat);
    if (claims.aud !== `${origin}/token` || claims.iss !== options.serviceAccount || !(lifetime > 0 && lifetime <= 3600)) {
      return send(response, 400, { error: 'invalid_grant', error_description: 'Invalid JWT.' });
    }
    const scopes = String(claims.scope ?? '').split(' ');
    if (!scopes.every((scope) => options.delegatedScopes.includes(scope))) {
      return send(response, 401, {
        error: 'unauthorized_client',
        error_description:
          'Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.',
      });
    }
    send(response, 200, { access_token: options.accessToken, expires_in: 3599, token_type: 'Bearer' });
  }

  const server = http.createServer((request, response) => {
    const route =
      request.method === 'POST' && request.url === signPath
        ? signJwt
        : request.method === 'POST' && request.url === '/token'
          ? token
          : undefined;
    if (!route) return send(response, 404, { error: { code: 404, message: 'Not Found' } });
    route(request, response).catch(() => send(response, 500, { error: { code: 500, message: 'stand-in failure' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    iamCredentials: `${origin}/`,
    token: `${origin}/token`,
    exchanged,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
