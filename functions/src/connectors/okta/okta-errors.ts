/**
 * Okta's refusals as ConnectorFailure, in our own words: the SDK's messages are never passed on,
 * since an error body or a request could carry a header or a token.
 *
 * - 401 (E0000011 "Invalid token provided"): credential_rejected;
 * - 403 (E0000006 "You do not have permission"): permission_missing, naming the call's scope and the role;
 * - from the org authorization server's `/oauth2/v1/token` (tokenRefusal, by OAuth error code):
 *   invalid_client, credential_rejected; invalid_scope, permission_missing naming the scopes
 *   (okta-sign-in.ts finds which); access_denied, the app's network zones refuse this caller;
 * - 404 (E0000007): not_found, the org URL names no org;
 * - 5xx, a 429 still refused after the SDK's retries, or no answer: vendor_unavailable.
 */
import { ConnectorFailure } from '../connector.js';
import { requestedScopes } from './okta-credential.js';

/** One family of calls: what it reads, in words, and the OAuth scope it needs. */
export interface OktaCall {
  reading: string;
  scope: string;
}

const readOnlyRole = 'the Read-Only Administrator role';

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const status = Number(error.status);
  return Number.isInteger(status) ? status : undefined;
}

function codeOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'errorCode' in error ? error.errorCode : undefined;
  return typeof code === 'string' && /^E\d{7}$/.test(code) ? ` ${code}` : '';
}

/** Okta's 400 invalid_scope: the service app was not granted these scopes. */
export function scopesNotGranted(scopes: readonly string[]): ConnectorFailure {
  const named = scopes.join(' ');
  const one = scopes.length === 1;
  return new ConnectorFailure(
    'permission_missing',
    `Okta would not grant the service app the ${one ? 'scope' : 'scopes'} ${named}: grant ${one ? 'it' : 'them'} under Okta API Scopes.`,
    named,
  );
}

/**
 * The org authorization server's refusal of a token request, by its OAuth `error` code (RFC 6749
 * §5.2): the SDK hands the refusal's body back rather than throwing, so the code is all there is.
 */
export function tokenRefusal(error: string): ConnectorFailure {
  switch (error) {
    case 'invalid_client':
      return new ConnectorFailure(
        'credential_rejected',
        "Okta refused the service app's client assertion (invalid_client): the client ID is unknown, or the private key is not the one registered for the app.",
      );
    case 'invalid_scope':
      return scopesNotGranted(requestedScopes());
    case 'access_denied':
      return new ConnectorFailure(
        'credential_rejected',
        "Okta refused the service app's token request (access_denied): the app's network zones do not allow this caller.",
      );
    default:
      return new ConnectorFailure(
        'credential_rejected',
        `Okta refused the service app's token request (${/^[a-z_]{1,40}$/.test(error) ? error : 'an unknown error'}).`,
      );
  }
}

export function oktaFailure(error: unknown, call: OktaCall): ConnectorFailure {
  if (error instanceof ConnectorFailure) return error;
  const status = statusOf(error);
  const code = codeOf(error);
  if (status === 401) {
    return new ConnectorFailure(
      'credential_rejected',
      `Okta refused the credential (401${code}) while ${call.reading}: revoked, expired or mistyped.`,
    );
  }
  if (status === 403) {
    return new ConnectorFailure(
      'permission_missing',
      `Okta refused ${call.reading} (403${code}): grant the scope ${call.scope} and ${readOnlyRole}.`,
      call.scope,
    );
  }
  if (status === 404)
    return new ConnectorFailure('not_found', `Okta found nothing at the org URL while ${call.reading} (404${code}).`);
  if (status === 429)
    return new ConnectorFailure('vendor_unavailable', `Okta kept refusing ${call.reading} for its rate limit (429).`);
  if (status !== undefined && status >= 500) {
    return new ConnectorFailure('vendor_unavailable', `Okta failed while ${call.reading} (${status}${code}).`);
  }
  if (status !== undefined)
    return new ConnectorFailure('vendor_unavailable', `Okta answered ${status}${code} while ${call.reading}.`);
  return new ConnectorFailure('vendor_unavailable', `Okta could not be reached while ${call.reading}.`);
}
