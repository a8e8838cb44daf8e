/**
 * The Google Workspace connector: every account of the Workspace customer, read through the
 * Admin SDK Directory API (`@googleapis/admin`) as an administrator by keyless domain-wide
 * delegation of the runtime service account, as `idp.user` items.
 *
 * It produces no `idp.settings`: the Directory API exposes none of the tenant-wide settings that
 * kind requires (password length, session length, lockout, SSO, 2-step verification enforcement
 * for the tenant); they live in the Cloud Identity Policy API, which `@googleapis/admin` does not
 * reach (docs/connectors.md).
 */
import type { Connector } from '../connector.js';
import { adminRolePrivilege, directoryScopes } from './directory-access.js';

export const googleWorkspaceConnector: Connector = {
  id: 'google-workspace',
  title: 'Google Workspace',
  source: 'google-workspace-connector',
  kinds: ['idp.user'],
  settings: [
    {
      name: 'adminEmail',
      description: 'The administrator the service account acts as through domain-wide delegation.',
      required: true,
      example: 'evident-reader@example.com',
    },
    {
      name: 'customer',
      description: 'The Workspace customer ID whose users are read; `my_customer` is the administrator’s own.',
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
    `Domain-wide delegation of the OAuth scope ${directoryScopes.join(', ')} to the service account's client ID (Admin console › Security › API controls)`,
    `roles/iam.serviceAccountTokenCreator for the service account on itself (to sign the delegation without a key)`,
    `An administrator role for adminEmail with the Admin API privilege ${adminRolePrivilege}`,
  ],
  load: async () => (await import('./collect-google-workspace.js')).collector,
};
