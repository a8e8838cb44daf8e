/**
 * One Okta user as `idp.user` data. The rules an auditor reads in docs/connectors.md#okta:
 *
 * - `active`: the account can sign in, or can after a self-service step (ACTIVE, PROVISIONED,
 *   RECOVERY, PASSWORD_EXPIRED, LOCKED_OUT); not when SUSPENDED, DEPROVISIONED or STAGED (never
 *   activated, no credential).
 * - `employmentStatus`: DEPROVISIONED is a leaver (deactivation is how Okta ends an account);
 *   otherwise the profile's `userType` "Contractor" (any case) is a contractor; everyone else active.
 *   SUSPENDED alone is not a leaver: suspension is also used for a long absence.
 * - `mfaEnabled`: an ACTIVE enrolled factor other than a security question (knowledge, like the password).
 * - `phishingResistantMfa`: an ACTIVE `webauthn` (FIDO2 key or passkey), `u2f` (FIDO U2F key) or
 *   `signed_nonce` (Okta FastPass) factor. Smart cards sign in through an identity provider in
 *   Okta and are not listed among a user's factors, so they are not seen here.
 */
import type { CollectedItem } from '../connector.js';

/** What the connector reads of an Okta user (the SDK's `User`). */
export interface OktaUser {
  id?: string;
  status?: string;
  lastLogin?: Date | string | null;
  profile?: { login?: string; email?: string; userType?: string | null };
}

/** What the connector reads of an enrolled factor (the SDK's `UserFactor`). */
export interface OktaFactor {
  factorType?: string;
  status?: string;
}

const signInStatuses = new Set(['ACTIVE', 'PROVISIONED', 'RECOVERY', 'PASSWORD_EXPIRED', 'LOCKED_OUT']);
const knowledgeFactors = new Set(['question']);
export const phishingResistantFactors: ReadonlySet<string> = new Set(['webauthn', 'u2f', 'signed_nonce']);
const dayMs = 24 * 60 * 60 * 1000;

function employmentStatus(user: OktaUser): 'active' | 'leaver' | 'contractor' {
  if (user.status === 'DEPROVISIONED') return 'leaver';
  return user.profile?.userType?.toLowerCase() === 'contractor' ? 'contractor' : 'active';
}

/** Whole days from the last sign-in to `now`; absent when the user never signed in. */
function lastLoginDaysAgo(lastLogin: OktaUser['lastLogin'], now: Date): number | undefined {
  if (lastLogin === undefined || lastLogin === null) return undefined;
  const at = lastLogin instanceof Date ? lastLogin : new Date(lastLogin);
  return Math.max(0, Math.floor((now.getTime() - at.getTime()) / dayMs));
}

/** The user's item, or undefined for a user without a login (Okta requires one; nothing to trace). */
export function userItem(user: OktaUser, factors: readonly OktaFactor[], admin: boolean, now: Date): CollectedItem | undefined {
  const login = user.profile?.login;
  if (!login) return undefined;
  const enrolled = factors.filter((factor) => factor.status === 'ACTIVE').map((factor) => factor.factorType ?? '');
  const daysAgo = lastLoginDaysAgo(user.lastLogin, now);
  return {
    kind: 'idp.user',
    subject: login,
    collectedAt: now.toISOString(),
    data: {
      email: user.profile?.email ?? login,
      active: signInStatuses.has(user.status ?? ''),
      mfaEnabled: enrolled.some((type) => !knowledgeFactors.has(type)),
      phishingResistantMfa: enrolled.some((type) => phishingResistantFactors.has(type)),
      admin,
      ...(daysAgo === undefined ? {} : { lastLoginDaysAgo: daysAgo }),
      employmentStatus: employmentStatus(user),
    },
  };
}
