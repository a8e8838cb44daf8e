/**
 * The Okta connector: people (status, enrolled factors, administrator roles, last sign-in) as
 * `idp.user`, and the org's password, sign-on and application sign-in settings as one
 * `idp.settings`, read through the Management API with `@okta/okta-sdk-nodejs`.
 */
import { defaultNeeds, type Connector } from '../connector.js';
import { credentialSecret, requestedScopes } from './okta-credential.js';

export const oktaConnector: Connector = {
  id: 'okta',
  title: 'Okta',
  source: 'okta-connector',
  kinds: ['idp.user', 'idp.settings'],
  settings: [
    {
      name: 'orgUrl',
      description: 'The address of the Okta org, https only.',
      required: true,
      example: 'https://acme.okta.com',
    },
    {
      name: 'clientId',
      description: 'The client ID of the OAuth service app, when the credential is its private key.',
      required: false,
      example: '0oa1b2c3d4e5f6g7h8i9',
    },
  ],
  secrets: [
    {
      name: credentialSecret,
      description: 'A read-only administrator API token, or the private key (PEM or JWK) of an OAuth service app.',
    },
  ],
  credentials:
    'An OAuth service app signing in with its private key (recommended: the scopes below and the Read-Only Administrator role), ' +
    'or an API token of a Read-Only Administrator.',
  permissions: [
    ...requestedScopes().map((scope) => `OAuth scope ${scope}`),
    'the Read-Only Administrator role (on the service app, or on the admin who created the API token)',
  ],
  // Either credential fits the one secret; the setting clientId says which one is meant, and the
  // collector refuses a credential that does not match it (the runner sees names, not values).
  needs(settings, secretsSet) {
    const missing = defaultNeeds({ settings: this.settings, secrets: [] }, settings, secretsSet);
    if (!secretsSet.has(credentialSecret)) {
      const oauth = typeof settings.clientId === 'string' && settings.clientId !== '';
      missing.push(
        oauth
          ? `the secret ${credentialSecret}: the private key (PEM or JWK) of the OAuth service app ${settings.clientId}`
          : `the secret ${credentialSecret}: a Read-Only Administrator API token, or an OAuth service app's private key with the setting "clientId"`,
      );
    }
    return missing;
  },
  load: async () => (await import('./collect-okta.js')).collector,
};
