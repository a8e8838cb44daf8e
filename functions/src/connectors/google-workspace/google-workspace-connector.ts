/**
 * The Google Workspace connector, acting as a super administrator by keyless domain-wide
 * delegation of the runtime service account: the customer's security policies, read through the
 * Cloud Identity Policy API (`@googleapis/cloudidentity`), as one `idp.settings` item, and every
 * account, read through the Admin SDK Directory API (`@googleapis/admin`), as `idp.user` items.
 */
import type { Connector } from '../connector.js';
import { adminRole, cloudIdentityApi, directoryApi, tokenCreatorRole, workspaceScopes } from './directory-access.js';

export const googleWorkspaceConnector: Connector = {
  id: 'google-workspace',
  title: 'Google Workspace',
  source: 'google-workspace-connector',
  kinds: ['idp.settings', 'idp.user'],
  settings: [
    {
      name: 'adminEmail',
      description: 'The administrator the service account acts as through domain-wide delegation.',
      required: true,
      example: 'evident-reader@example.com',
    },
    {
      name: 'customer',
      description:
        'The Workspace customer ID whose users and security policies are read; `my_customer` is the administrator’s own.',
      required: false,
      example: 'my_customer',
    },
    {
      name: 'serviceAccount',
      description: 'The email of the service account that signs the delegation; by default the runtime’s own.',
      required: false,
      example: 'evident@my-project.iam.gserviceaccount.com',
    },
  ],
  secrets: [],
  credentials:
    'Application default credentials of the runtime service account, with domain-wide delegation: it signs ' +
    'its own delegation assertion through the IAM Credentials API (no key) and acts as the administrator `adminEmail`.',
  permissions: [
    `Domain-wide delegation of the OAuth scopes ${workspaceScopes.join(', ')} to the service account's client ID (Admin console › Security › API controls)`,
    `${tokenCreatorRole} for the service account on itself (to sign the delegation without a key)`,
    `The ${adminRole} role for adminEmail (Google lets only a super administrator read policies through the Cloud Identity Policy API)`,
    `The APIs ${directoryApi} (Admin SDK), ${cloudIdentityApi} (Cloud Identity) and iamcredentials.googleapis.com enabled in the service account's project`,
  ],
  load: async () => (await import('./collect-google-workspace.js')).collector,
};
