/**
 * The OAuth service app's sign-in, before the first Management API call: the SDK asks the org
 * authorization server for an access token (client credentials, a `private_key_jwt` client
 * assertion) and keeps it for every later call.
 *
 * Asking here lets a refusal fail as what it is. The SDK (8.x) does not throw when Okta refuses a
 * token request: its filter of error answers is never applied there (`oauth.js` calls
 * `Http.errorFilter` on the module, not the class), so it resolves with Okta's error body and
 * keeps that as its "token", and every later call fails 401. So the answer is checked for an
 * `access_token`, and a refusal is read from its OAuth `error` code and dropped from the cache.
 *
 * Okta refuses the whole request when one scope was not granted to the app (invalid_scope), and
 * its description of which is prose; so each scope is then asked for alone to name exactly the
 * missing ones (a few calls, on failure only).
 */
import type { Client } from '@okta/okta-sdk-nodejs';
import { ConnectorFailure } from '../connector.js';
import { requestedScopes } from './okta-credential.js';
import { oktaFailure, scopesNotGranted, tokenRefusal } from './okta-errors.js';

const asking = { reading: 'asking for an access token', scope: requestedScopes().join(' ') };

/** The OAuth error code of a refused token request, or undefined when `client` now holds an access token. */
async function refusalOf(client: Client): Promise<string | undefined> {
  let answer: unknown;
  try {
    answer = await client.oauth.getAccessToken();
  } catch (error) {
    throw oktaFailure(error, asking);
  }
  const fields = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  if (typeof fields.access_token === 'string') return undefined;
  client.oauth.clearCachedAccessToken();
  if (typeof fields.error === 'string') return fields.error;
  // An Okta error body (errorCode) rather than an OAuth one: Okta failed, it did not refuse.
  throw new ConnectorFailure('vendor_unavailable', 'Okta answered the token request without an access token.');
}

/** Signs `client` in, or throws the ConnectorFailure that says why Okta refused; `clientFor` builds a client asking for other scopes. */
export async function signIn(client: Client, clientFor: (scopes: string[]) => Client): Promise<void> {
  const refusal = await refusalOf(client);
  if (refusal === undefined) return;
  if (refusal !== 'invalid_scope') throw tokenRefusal(refusal);
  const missing: string[] = [];
  for (const scope of requestedScopes()) {
    const alone = await refusalOf(clientFor([scope]));
    if (alone === 'invalid_scope') missing.push(scope);
    else if (alone !== undefined) throw tokenRefusal(alone);
  }
  if (missing.length > 0) throw scopesNotGranted(missing);
  throw new ConnectorFailure(
    'credential_rejected',
    "Okta refused the service app's token request (invalid_scope), though it grants each scope asked for alone.",
  );
}
