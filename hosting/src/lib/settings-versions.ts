/**
 * How the pages word the organisation's settings versions (`GET /api/settings/versions`): which
 * version a report used and where to read it, and who saved a version, when and why. Pure (but
 * for the reader's time zone in `instantText`), so it is unit tested without a browser.
 */
import type { Actor, SettingsVersionSummary } from './api-types.ts';
import { instantText } from './format.ts';

/** The page showing a version read-only; the settings page itself for the defaults, which have no number. */
export const settingsVersionPath = (version: number | null): string =>
  version === null ? '/settings' : `/settings/versions/${version}`;

/** "Settings version 3", or "Default settings" for a report made before anything was saved. */
export const settingsVersionText = (version: number | null): string =>
  version === null ? 'Default settings' : `Settings version ${version}`;

/** Who saved a version: their e-mail address, else their name, else their id (`anonymous` in public mode). */
export const savedByText = (actor: Actor): string => actor.email ?? actor.name ?? actor.uid;

/**
 * A version in one line: "Version 3, saved by grace@example.com on 27 Nov 2026, 14:55: Grace owns
 * access." The defaults say that nothing has been saved.
 */
export function versionSummaryText(summary: SettingsVersionSummary): string {
  if (summary.version === null || !summary.savedBy || !summary.savedAt) return 'Defaults — nothing saved yet.';
  const saved = `Version ${summary.version}, saved by ${savedByText(summary.savedBy)} on ${instantText(summary.savedAt)}`;
  return summary.reason ? `${saved}: ${summary.reason}` : `${saved}.`;
}
