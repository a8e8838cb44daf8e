/**
 * A Directory API user as `idp.user` evidence. What each field means:
 *
 * - `active`: neither suspended nor archived; `employmentStatus` is `leaver` for either (Workspace
 *   has no "deprovisioned" state: a leaver's account is suspended or archived, then deleted),
 *   `contractor` when the primary organization's description — the Admin console's "Type of
 *   employee" — is "Contractor" (in any case), else `active`;
 * - `mfaEnabled`: enrolled in 2-step verification; `mfaEnforced` (beside the kind's fields):
 *   2-step verification is enforced for the account. The Directory API does not say which
 *   methods a user enrolled, so `phishingResistantMfa` is left out rather than guessed;
 * - `admin`: a super administrator or a delegated administrator;
 * - `lastLoginDaysAgo`: whole days since the last sign-in, absent when the API gives the epoch
 *   (its way of saying "never").
 */
import type { admin_directory_v1 } from '@googleapis/admin';

type DirectoryUser = admin_directory_v1.Schema$User;

/** The user fields the mapping reads: the collector asks for these and no more (`fields`). */
export const userFields = [
  'primaryEmail',
  'isEnrolledIn2Sv',
  'isEnforcedIn2Sv',
  'isAdmin',
  'isDelegatedAdmin',
  'suspended',
  'archived',
  'lastLoginTime',
  'creationTime',
  'organizations',
] as const;

const dayMs = 86_400_000;
const contractorType = 'contractor';

interface Organization {
  primary?: boolean;
  description?: string;
}

export function idpUserData(user: DirectoryUser, now: Date): Record<string, unknown> {
  const suspended = user.suspended === true;
  const archived = user.archived === true;
  const lastLogin = signInTime(user.lastLoginTime);
  return {
    email: user.primaryEmail,
    active: !suspended && !archived,
    mfaEnabled: user.isEnrolledIn2Sv === true,
    mfaEnforced: user.isEnforcedIn2Sv === true,
    admin: user.isAdmin === true || user.isDelegatedAdmin === true,
    ...(lastLogin === undefined ? {} : { lastLoginDaysAgo: Math.max(0, Math.floor((now.getTime() - lastLogin) / dayMs)) }),
    employmentStatus: suspended || archived ? 'leaver' : isContractor(user.organizations) ? 'contractor' : 'active',
    suspended,
    archived,
    ...(user.creationTime ? { createdAt: user.creationTime } : {}),
  };
}

/** The sign-in time in epoch milliseconds, or undefined for "never" (absent or the epoch itself). */
function signInTime(lastLoginTime: string | null | undefined): number | undefined {
  if (!lastLoginTime) return undefined;
  const time = Date.parse(lastLoginTime);
  return Number.isNaN(time) || time <= 0 ? undefined : time;
}

/** `organizations` is typed `any` in the discovery document; its entries are UserOrganization. */
function isContractor(organizations: unknown): boolean {
  if (!Array.isArray(organizations) || organizations.length === 0) return false;
  const entries = organizations as Organization[];
  const primary = entries.find((entry) => entry.primary === true) ?? entries[0];
  return primary?.description?.trim().toLowerCase() === contractorType;
}
