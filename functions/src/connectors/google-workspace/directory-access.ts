/**
 * What the Google Workspace connector asks Google for, named once: the OAuth scopes it is
 * delegated, the administrator it must act as and the APIs the project must enable. The
 * connector's metadata, its failures and the docs say the same words.
 */

/** The one scope users.list needs, read-only (the Admin SDK Directory API's discovery document). */
export const directoryUserReadScope = 'https://www.googleapis.com/auth/admin.directory.user.readonly';

/** The read-only scope of the Cloud Identity Policy API's policies.list (the tenant's security settings). */
export const policiesReadScope = 'https://www.googleapis.com/auth/cloud-identity.policies.readonly';

/** Every scope one delegated token carries: the Directory calls and the Policy calls share it. */
export const workspaceScopes = [directoryUserReadScope, policiesReadScope] as const;

/**
 * The Admin console role the acting administrator needs. Listing users alone needs no more than
 * the privilege Admin API › Users › Read, but Google lets only a super administrator use the
 * Cloud Identity Policy API (cloud.google.com/identity/docs/concepts/overview-policies).
 */
export const adminRole = 'Super Admin';

/** The APIs the runtime's project must have enabled. */
export const directoryApi = 'admin.googleapis.com';
export const cloudIdentityApi = 'cloudidentity.googleapis.com';

/** The role the service account needs on itself to sign a delegation assertion without a key. */
export const tokenCreatorRole = 'roles/iam.serviceAccountTokenCreator';
