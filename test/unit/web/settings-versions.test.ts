/** How the pages word the settings' versions: a report's version and its page, and who saved one, when and why. */
import { describe, expect, it } from 'vitest';
import { instantText } from '../../../hosting/src/lib/format.ts';
import {
  savedByText,
  settingsVersionPath,
  settingsVersionText,
  versionSummaryText,
} from '../../../hosting/src/lib/settings-versions.ts';

describe('settings versions', () => {
  it("names a report's version and links to it; the defaults link to the settings page", () => {
    expect([settingsVersionText(3), settingsVersionPath(3)]).toEqual(['Settings version 3', '/settings/versions/3']);
    expect([settingsVersionText(null), settingsVersionPath(null)]).toEqual(['Default settings', '/settings']);
  });

  it('says who saved a version by e-mail, else name, else id', () => {
    expect(savedByText({ uid: 'u1', email: 'grace@example.com', name: 'Grace' })).toBe('grace@example.com');
    expect(savedByText({ uid: 'u1', name: 'Grace' })).toBe('Grace');
    expect(savedByText({ uid: 'anonymous' })).toBe('anonymous');
  });

  it('sums a version up in one line, and says when nothing was saved', () => {
    const savedAt = '2026-11-27T14:55:00Z';
    expect(versionSummaryText({ version: 2, savedAt, savedBy: { uid: 'anonymous' }, reason: 'Grace owns access.' })).toBe(
      `Version 2, saved by anonymous on ${instantText(savedAt)}: Grace owns access.`,
    );
    expect(versionSummaryText({ version: null, savedAt: null, savedBy: null, reason: null })).toBe(
      'Defaults — nothing saved yet.',
    );
  });
});
