/**
 * The identity provider's public web settings, baked into the bundle at build time
 * (`IDP_API_KEY`, `IDP_AUTH_DOMAIN`, `IDP_PROJECT_ID`). A build without all three cannot sign in
 * and says so. A `demo-` project exists only in the Firebase emulators, so its builds sign in
 * against the local auth emulator.
 */

export interface IdentitySettings {
  apiKey: string;
  authDomain: string;
  projectId: string;
  /** The auth emulator's origin, for `demo-` projects. */
  emulator: string | undefined;
}

export type IdentitySettingsResult = { ok: true; settings: IdentitySettings } | { ok: false; missing: string[] };

export const authEmulatorOrigin = 'http://127.0.0.1:9099';

export function identitySettings(env: Record<string, string | undefined>): IdentitySettingsResult {
  const names = ['IDP_API_KEY', 'IDP_AUTH_DOMAIN', 'IDP_PROJECT_ID'] as const;
  const missing = names.filter((name) => !env[name]?.trim());
  if (missing.length > 0) return { ok: false, missing };
  const projectId = env.IDP_PROJECT_ID!.trim();
  return {
    ok: true,
    settings: {
      apiKey: env.IDP_API_KEY!.trim(),
      authDomain: env.IDP_AUTH_DOMAIN!.trim(),
      projectId,
      emulator: projectId.startsWith('demo-') ? authEmulatorOrigin : undefined,
    },
  };
}
