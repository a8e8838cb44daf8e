/**
 * The org authorization server of the Okta stand-in: `POST /oauth2/v1/token` for one OAuth
 * service app, the client credentials grant with a `private_key_jwt` client assertion, as Okta
 * describes it (oauth-subset.json's `private_key_jwt` scheme): `iss` and `sub` the client ID, `aud`
 * the token endpoint's own URL, an `exp` in the future (at most an hour ahead), a `jti` used once,
 * the signature checked with the public key registered for the app (RS* or ES*, the `kid`, when
 * sent, the key's). It grants an access token carrying exactly the scopes asked for, all of which
 * the app must have been granted, and remembers it so the Management API can read its scopes.
 *
 * Its refusals are Okta's: 401 `invalid_client` for an unknown client or a bad assertion, 400
 * `invalid_scope` for a scope the app was not granted, 400 `invalid_request` for a malformed
 * request. The `error_description` texts are Okta's where its description or its SDKs' issues
 * quote them, else the plain meaning of RFC 6749 §5.2; the connector reads only the status.
 * A `DPoP` header (the SDK always sends one) is ignored: the app does not require DPoP.
 */
import { createPublicKey, KeyObject, randomBytes, verify, type JsonWebKey } from 'node:crypto';

export interface ServiceApp {
  clientId: string;
  /** The public key registered for the app (Okta holds it as a JWK). */
  publicKey: KeyObject | JsonWebKey;
  /** The Okta API scopes granted to the app. */
  grantedScopes: readonly string[];
}

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const assertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const tokenLifetimeSeconds = 3600;
const maxAssertionLifetimeSeconds = 3600;
/** Okta's signing algorithms for private_key_jwt, as node:crypto verifies them. */
const algorithms: Record<string, { hash: string; ec: boolean }> = {
  RS256: { hash: 'sha256', ec: false },
  RS384: { hash: 'sha384', ec: false },
  RS512: { hash: 'sha512', ec: false },
  ES256: { hash: 'sha256', ec: true },
  ES384: { hash: 'sha384', ec: true },
  ES512: { hash: 'sha512', ec: true },
};

const oauthError = (status: number, error: string, description: string): TokenAnswer => ({
  status,
  body: { error, error_description: description },
});
const invalidClient = (description: string) => oauthError(401, 'invalid_client', description);

function decodePart(part: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class OrgAuthorizationServer {
  readonly #app: ServiceApp;
  readonly #key: KeyObject;
  readonly #kid: string | undefined;
  readonly #usedAssertions = new Set<string>();
  readonly #tokens = new Map<string, { scopes: string[]; expiresAt: number }>();

  constructor(app: ServiceApp) {
    this.#app = app;
    const jwk = app.publicKey instanceof KeyObject ? undefined : app.publicKey;
    this.#key = jwk ? createPublicKey({ key: jwk, format: 'jwk' }) : (app.publicKey as KeyObject);
    this.#kid = typeof jwk?.kid === 'string' ? jwk.kid : undefined;
  }

  /** The answer to a token request at `tokenUrl` (this org's `/oauth2/v1/token`), at `nowSeconds`. */
  token(form: URLSearchParams, tokenUrl: string, nowSeconds: number): TokenAnswer {
    if (form.get('grant_type') !== 'client_credentials')
      return oauthError(400, 'unsupported_grant_type', "The grant type in the request isn't supported.");
    const assertion = form.get('client_assertion');
    if (!assertion) return invalidClient('No client credentials found');
    if (form.get('client_assertion_type') !== assertionType)
      return oauthError(400, 'invalid_request', 'The `client_assertion_type` is invalid.');
    const refused = this.#assertionRefusal(assertion, tokenUrl, nowSeconds);
    if (refused) return refused;
    const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0) return oauthError(400, 'invalid_scope', 'No scopes were requested.');
    if (scopes.some((scope) => !this.#app.grantedScopes.includes(scope)))
      return oauthError(400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
    const accessToken = randomBytes(32).toString('base64url');
    this.#tokens.set(accessToken, { scopes, expiresAt: nowSeconds + tokenLifetimeSeconds });
    return {
      status: 200,
      body: { token_type: 'Bearer', expires_in: tokenLifetimeSeconds, access_token: accessToken, scope: scopes.join(' ') },
      headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
    };
  }

  /** The scopes of a live access token this server granted, or undefined. */
  scopesOf(accessToken: string, nowSeconds: number): readonly string[] | undefined {
    const token = this.#tokens.get(accessToken);
    return token && token.expiresAt > nowSeconds ? token.scopes : undefined;
  }

  #assertionRefusal(assertion: string, tokenUrl: string, nowSeconds: number): TokenAnswer | undefined {
    const parts = assertion.split('.');
    const header = decodePart(parts[0]);
    const claims = decodePart(parts[1]);
    if (parts.length !== 3 || !header || !claims) return invalidClient('The client_assertion token is malformed.');
    if (claims.sub !== this.#app.clientId) return invalidClient('Invalid value for the `client_id` parameter');
    if (claims.iss !== claims.sub)
      return invalidClient('The issuer and subject claims of the client_assertion must be the client_id.');
    if (header.kid !== undefined && header.kid !== this.#kid) return invalidClient('The client_assertion JWT kid is invalid.');
    const algorithm = algorithms[String(header.alg)];
    if (!algorithm) return invalidClient('The client_assertion signature algorithm is not supported.');
    const signed = verify(
      algorithm.hash,
      Buffer.from(`${parts[0]}.${parts[1]}`),
      algorithm.ec ? { key: this.#key, dsaEncoding: 'ieee-p1363' } : this.#key,
      Buffer.from(parts[2]!, 'base64url'),
    );
    if (!signed) return invalidClient('The client_assertion signature is invalid.');
    if (claims.aud !== tokenUrl)
      return invalidClient('The audience claim for client_assertion must be the endpoint invoked for the request.');
    if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)
      return invalidClient('The client_assertion token is expired.');
    if (claims.exp > nowSeconds + maxAssertionLifetimeSeconds)
      return invalidClient('The client_assertion token has an expiration too far into the future.');
    if (typeof claims.jti === 'string') {
      if (this.#usedAssertions.has(claims.jti)) return invalidClient('The client_assertion token has already been used.');
      this.#usedAssertions.add(claims.jti);
    }
    return undefined;
  }
}
