/**
 * What the Google Workspace connector asks Google for, named once: the OAuth scope it is
 * delegated and the administrator privilege the acting administrator needs. The connector's
 * metadata, its failures and the docs say the same words.
 */

/** The one scope users.list needs, read-only (the Admin SDK Directory API's discovery document). */
export const directoryUserReadScope = 'https://www.googleapis.com/auth/admin.directory.user.readonly';

export const directoryScopes = [directoryUserReadScope] as const;

/** The Admin console privilege that lets an administrator list users through the API. */
export const adminRolePrivilege = 'Admin API › Users › Read';

/** The role the service account needs on itself to sign a delegation assertion without a key. */
export const tokenCreatorRole = 'roles/iam.serviceAccountTokenCreator';
