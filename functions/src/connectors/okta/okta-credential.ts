/**
 * What the secret OKTA_CREDENTIAL holds, and the Okta SDK configuration it leads to: an API token
 * (sent as `SSWS <token>`), or the private key of an OAuth service app (PEM, or a JWK as JSON),
 * with which the SDK signs a client assertion and asks `/oauth2/v1/token` for exactly the scopes below.
 */
import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import { isIP } from 'node:net';

/** The one secret: an API token or a private key. */
export const credentialSecret = 'OKTA_CREDENTIAL';

/** The OAuth scopes the connector asks for: one per family of calls it makes, nothing more. */
export const oktaScopes = {
  users: 'okta.users.read',
  factors: 'okta.users.read',
  roles: 'okta.roles.read',
  policies: 'okta.policies.read',
  apps: 'okta.apps.read',
} as const;

export type OktaCredential = { kind: 'token'; token: string } | { kind: 'privateKey'; privateKey: string };

/** A PEM block or a JWK (a JSON object with `kty`) is a private key; anything else is an API token. */
export function credentialOf(secret: string): OktaCredential {
  const value = secret.trim();
  if (value.startsWith('-----BEGIN')) return { kind: 'privateKey', privateKey: value };
  if (value.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'object' && parsed !== null && 'kty' in parsed) return { kind: 'privateKey', privateKey: value };
    } catch {
      // Not JSON after all: treated as a token, which Okta will accept or refuse.
    }
  }
  return { kind: 'token', token: value };
}

/**
 * Why the SDK could not sign with this private key, or undefined when it can. The SDK (8.x) signs
 * its DPoP proof with RS256 on every token request, whatever the key, so only an RSA key works.
 * Node's own reading of the key decides; its error is not kept (it could quote the key).
 */
export function privateKeyProblem(privateKey: string): string | undefined {
  let type: string | undefined;
  try {
    const key = privateKey.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(privateKey) as JsonWebKey, format: 'jwk' })
      : createPrivateKey(privateKey);
    type = key.asymmetricKeyType;
  } catch {
    return `${credentialSecret} is not a readable private key (PEM, or a JWK as JSON).`;
  }
  return type === 'rsa'
    ? undefined
    : `${credentialSecret} holds a private key of type ${type}: the Okta SDK signs with RSA keys only.`;
}

/** True for a loopback address (a stand-in on this machine); only there may the org URL be plain http. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** The scopes, space-separated and without repeats, as the token request carries them. */
export function requestedScopes(): string[] {
  return [...new Set(Object.values(oktaScopes))];
}
