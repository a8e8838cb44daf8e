/**
 * Keyless domain-wide delegation. A service account on Google Cloud has no private key to sign
 * the JWT assertion that lets it act as a Workspace user, so it asks the IAM Credentials API to
 * sign the assertion with its Google-held key (`signJwt`; the account needs
 * roles/iam.serviceAccountTokenCreator on itself), then exchanges the signed assertion at
 * Google's token endpoint (the JWT-bearer grant, RFC 7523). The result plugs into an
 * OAuth2Client as its `refreshHandler`, so the SDK asks again when the token nears expiry.
 */
import { ConnectorFailure } from '../connector.js';
import { tokenCreatorRole } from './directory-access.js';

export interface DelegationEndpoints {
  /** The IAM Credentials API's root. */
  iamCredentials: string;
  /** The OAuth 2.0 token endpoint, also the assertion's audience. */
  token: string;
}

export const googleEndpoints: DelegationEndpoints = {
  iamCredentials: 'https://iamcredentials.googleapis.com/',
  token: 'https://oauth2.googleapis.com/token',
};

export interface Delegation {
  /** The service account's email: the assertion's issuer. */
  serviceAccount: string;
  /** The Workspace user it acts as. */
  subject: string;
  scopes: readonly string[];
}

/** The application-default client that authenticates the call to `signJwt` (an AuthClient). */
export interface Signer {
  request<T>(options: { url: string; method: 'POST'; data: unknown }): Promise<{ data: T }>;
}

export interface DelegatedToken {
  access_token: string;
  expiry_date: number;
}

/** Assertions live an hour, the longest Google's token endpoint accepts. */
const assertionSeconds = 3600;

/** A refresh handler that yields a fresh delegated access token each time it is called. */
export function delegatedTokens(
  signer: Signer,
  delegation: Delegation,
  endpoints: DelegationEndpoints = googleEndpoints,
  now: () => number = Date.now,
): () => Promise<DelegatedToken> {
  return async () => {
    const issuedAt = Math.floor(now() / 1000);
    const claims = {
      iss: delegation.serviceAccount,
      sub: delegation.subject,
      scope: delegation.scopes.join(' '),
      aud: endpoints.token,
      iat: issuedAt,
      exp: issuedAt + assertionSeconds,
    };
    const assertion = await signedAssertion(signer, delegation.serviceAccount, claims, endpoints);
    const token = await exchanged(assertion, delegation, endpoints);
    return { access_token: token.access_token, expiry_date: now() + token.expires_in * 1000 };
  };
}

async function signedAssertion(
  signer: Signer,
  serviceAccount: string,
  claims: Record<string, unknown>,
  endpoints: DelegationEndpoints,
): Promise<string> {
  const url = new URL(`v1/projects/-/serviceAccounts/${encodeURIComponent(serviceAccount)}:signJwt`, endpoints.iamCredentials);
  try {
    const response = await signer.request<{ signedJwt: string }>({
      url: url.href,
      method: 'POST',
      data: { payload: JSON.stringify(claims) },
    });
    return response.data.signedJwt;
  } catch (error) {
    throw signingFailure(error, serviceAccount);
  }
}

function signingFailure(error: unknown, serviceAccount: string): ConnectorFailure {
  const status =
    (error as { status?: unknown; response?: { status?: unknown } }).response?.status ?? (error as { status?: unknown }).status;
  if (status === 401) {
    return new ConnectorFailure(
      'credential_rejected',
      `Google refused the runtime's credentials when signing as ${serviceAccount}.`,
    );
  }
  if (status === 403) {
    return new ConnectorFailure(
      'permission_missing',
      `The service account ${serviceAccount} may not sign its delegation: grant it ${tokenCreatorRole} on itself and enable the IAM Credentials API.`,
      `${tokenCreatorRole} on ${serviceAccount}`,
    );
  }
  if (status === 404) return new ConnectorFailure('not_found', `The service account ${serviceAccount} does not exist.`);
  return new ConnectorFailure(
    'vendor_unavailable',
    `The IAM Credentials API did not sign the delegation (${describeStatus(status)}).`,
  );
}

async function exchanged(
  assertion: string,
  delegation: Delegation,
  endpoints: DelegationEndpoints,
): Promise<{ access_token: string; expires_in: number }> {
  let response: Response;
  try {
    response = await fetch(endpoints.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    });
  } catch {
    throw new ConnectorFailure('vendor_unavailable', 'Google’s token endpoint could not be reached.');
  }
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error?: string };
  if (response.ok && typeof body.access_token === 'string' && typeof body.expires_in === 'number') {
    return { access_token: body.access_token, expires_in: body.expires_in };
  }
  throw exchangeFailure(response.status, body.error, delegation);
}

/** The token endpoint's OAuth error codes (RFC 6749 §5.2), in words an administrator can act on. */
function exchangeFailure(status: number, code: string | undefined, delegation: Delegation): ConnectorFailure {
  const scopes = delegation.scopes.join(',');
  if (code === 'unauthorized_client' || code === 'access_denied') {
    return new ConnectorFailure(
      'permission_missing',
      `The service account ${delegation.serviceAccount} is not delegated the scopes ${scopes}: add its client ID with them under Admin console › Security › API controls › Domain-wide delegation.`,
      `domain-wide delegation of ${scopes}`,
    );
  }
  if (code === 'invalid_grant') {
    return new ConnectorFailure(
      'credential_rejected',
      `Google refused the delegation to act as ${delegation.subject}: it must be an active administrator of the domain.`,
    );
  }
  if (status >= 500) return new ConnectorFailure('vendor_unavailable', `Google’s token endpoint failed (HTTP ${status}).`);
  return new ConnectorFailure('credential_rejected', `Google’s token endpoint refused the delegation (HTTP ${status}).`);
}

function describeStatus(status: unknown): string {
  return typeof status === 'number' ? `HTTP ${status}` : 'no answer';
}
