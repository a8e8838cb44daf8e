/**
 * The org's settings as one `idp.settings` item. Several policies and rules can be active at once
 * (per group, per network zone), and an auditor cares about the weakest way in, so the weakest
 * ACTIVE one decides each value (docs/connectors.md#okta):
 *
 * - `passwordMinLength`: the smallest minimum length of any active password policy;
 * - `lockoutThreshold`: 0 (never locks) if any active password policy never locks, else the
 *   largest number of failed attempts any of them allows;
 * - `mfaRequired`: every active rule that allows sign-in, in every active global session policy
 *   (OKTA_SIGN_ON), requires a second factor; DENY rules let nobody in and are not counted;
 * - `sessionTimeoutMinutes`: the longest idle time any such allowing rule lets a session live;
 * - `ssoEnforced`: no active app signs people in with a password Okta stores or forwards (Secure
 *   Web Authentication and basic authentication), so every app relies on SAML, OIDC or WS-Fed.
 *
 * Absent values take the defaults Okta's API description gives (length 8, 10 attempts, 120 min idle).
 */
import type { CollectedItem } from '../connector.js';

/** What the connector reads of a PASSWORD policy (the SDK's `PasswordPolicy`). */
export interface OktaPasswordPolicy {
  status?: string;
  settings?: { password?: { complexity?: { minLength?: number }; lockout?: { maxAttempts?: number } } };
}

/** What the connector reads of a global session policy's rule (the SDK's `OktaSignOnPolicyRule`). */
export interface OktaSignOnRule {
  status?: string;
  actions?: { signon?: { access?: string; requireFactor?: boolean; session?: { maxSessionIdleMinutes?: number } } };
}

/** What the connector reads of an app (the SDK's `Application`). */
export interface OktaApp {
  status?: string;
  signOnMode?: string;
}

export interface OktaOrgPolicies {
  passwordPolicies: readonly OktaPasswordPolicy[];
  /** The rules of every ACTIVE global session policy. */
  signOnRules: readonly OktaSignOnRule[];
  apps: readonly OktaApp[];
}

const passwordSignOnModes = new Set(['AUTO_LOGIN', 'BASIC_AUTH', 'BROWSER_PLUGIN', 'SECURE_PASSWORD_STORE']);
const defaults = { minLength: 8, maxAttempts: 10, idleMinutes: 120 };
const active = <T extends { status?: string }>(items: readonly T[]): T[] => items.filter((item) => item.status === 'ACTIVE');

function weakestLockout(attempts: number[]): number {
  if (attempts.length === 0 || attempts.includes(0)) return 0;
  return Math.max(...attempts);
}

export function settingsItem(subject: string, policies: OktaOrgPolicies, now: Date): CollectedItem {
  const passwords = active(policies.passwordPolicies).map((policy) => policy.settings?.password);
  const minLengths = passwords.map((password) => password?.complexity?.minLength ?? defaults.minLength);
  const allowing = active(policies.signOnRules)
    .map((rule) => rule.actions?.signon)
    .filter((signon) => signon?.access !== 'DENY');
  return {
    kind: 'idp.settings',
    subject,
    collectedAt: now.toISOString(),
    data: {
      mfaRequired: allowing.length > 0 && allowing.every((signon) => signon?.requireFactor === true),
      passwordMinLength: minLengths.length === 0 ? 0 : Math.min(...minLengths),
      sessionTimeoutMinutes: Math.max(
        0,
        ...allowing.map((signon) => signon?.session?.maxSessionIdleMinutes ?? defaults.idleMinutes),
      ),
      ssoEnforced: !active(policies.apps).some((app) => passwordSignOnModes.has(app.signOnMode ?? '')),
      lockoutThreshold: weakestLockout(passwords.map((password) => password?.lockout?.maxAttempts ?? defaults.maxAttempts)),
    },
  };
}
