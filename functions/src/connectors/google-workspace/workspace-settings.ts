/**
 * The customer's security policies (Cloud Identity Policy API, `settings/security.*`) as one
 * `idp.settings` item for the tenant.
 *
 * A setting can hold several policies at once: the one at the top-level org unit (set by an
 * administrator, or Google's own of type SYSTEM) and one for each org unit or group that
 * overrides it. An auditor cares about the weakest way in, so, as the Okta connector does, the
 * WEAKEST of them decides each value; where the answer holds no policy of a setting at all,
 * Google's documented default is what everyone gets (docs/connectors.md#google-workspace):
 *
 * - `mfaRequired`: every `security.two_step_verification_enforcement` policy has an
 *   `enforcedFrom` time that has come (2-step verification is enforced now, not only announced);
 *   no such policy: false, enforcement is off by default;
 * - `passwordMinLength`: the smallest `security.password` `minimumLength`; default 8;
 * - `sessionTimeoutMinutes`: the longest `security.session_controls` `webSessionDuration`, in whole
 *   minutes rounded up; default 14 days (20,160);
 * - `ssoEnforced`: no `security.less_secure_apps` policy allows less secure apps. Workspace is
 *   itself the identity provider; an app either signs people in through Google (its sign-in page,
 *   OAuth or SAML) or, as a "less secure app", takes the account's password itself — the one way
 *   an app bypasses Google's sign-in and its second factor. Off by default;
 * - `lockoutThreshold`: always 0 ("never locks after a set number"). Workspace has no setting for
 *   locking an account after failed attempts: Google throttles and challenges suspicious sign-ins
 *   by its own risk rules (`security.login_challenges` only adds the employee-ID challenge), which
 *   no count describes. Sending a number would claim a lockout nobody configured.
 */
import type { cloudidentity_v1 } from '@googleapis/cloudidentity';
import type { CollectedItem } from '../connector.js';

export type WorkspacePolicy = cloudidentity_v1.Schema$Policy;

/** The setting types the mapping reads, as `setting.type` names them. */
export const settingTypes = {
  twoStepEnforcement: 'settings/security.two_step_verification_enforcement',
  password: 'settings/security.password',
  sessionControls: 'settings/security.session_controls',
  lessSecureApps: 'settings/security.less_secure_apps',
} as const;

/** Google's defaults where no policy sets a value (the Admin console's initial settings). */
export const googleDefaults = { minimumLength: 8, webSessionMinutes: 14 * 24 * 60 } as const;

/** The value of every policy of a setting type. */
function valuesOf(policies: readonly WorkspacePolicy[], type: string): Record<string, unknown>[] {
  return policies.filter((policy) => policy.setting?.type === type).map((policy) => policy.setting?.value ?? {});
}

/** A google.protobuf.Duration in JSON ("43200s", "1.5s") as whole minutes, rounded up. */
export function durationMinutes(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const seconds = /^(\d+(?:\.\d+)?)s$/.exec(value)?.[1];
  return seconds === undefined ? undefined : Math.ceil(Number(seconds) / 60);
}

function enforcedBy(value: Record<string, unknown>, now: Date): boolean {
  const from = typeof value.enforcedFrom === 'string' ? Date.parse(value.enforcedFrom) : Number.NaN;
  return !Number.isNaN(from) && from <= now.getTime();
}

export function settingsItem(subject: string, policies: readonly WorkspacePolicy[], now: Date): CollectedItem {
  const enforcement = valuesOf(policies, settingTypes.twoStepEnforcement);
  const lengths = valuesOf(policies, settingTypes.password).map((value) =>
    typeof value.minimumLength === 'number' ? value.minimumLength : googleDefaults.minimumLength,
  );
  const sessions = valuesOf(policies, settingTypes.sessionControls).map(
    (value) => durationMinutes(value.webSessionDuration) ?? googleDefaults.webSessionMinutes,
  );
  return {
    kind: 'idp.settings',
    subject,
    collectedAt: now.toISOString(),
    data: {
      mfaRequired: enforcement.length > 0 && enforcement.every((value) => enforcedBy(value, now)),
      passwordMinLength: lengths.length === 0 ? googleDefaults.minimumLength : Math.min(...lengths),
      sessionTimeoutMinutes: sessions.length === 0 ? googleDefaults.webSessionMinutes : Math.max(...sessions),
      ssoEnforced: !valuesOf(policies, settingTypes.lessSecureApps).some((value) => value.allowLessSecureApps === true),
      lockoutThreshold: 0,
    },
  };
}

/** The customer ID the policies name (`customers/C03az79cb` → `C03az79cb`), if any does. */
export function customerIdOf(policies: readonly WorkspacePolicy[]): string | undefined {
  const named = policies.find((policy) => policy.customer?.startsWith('customers/'))?.customer;
  return named?.slice('customers/'.length);
}
