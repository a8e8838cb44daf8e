/** Finds the Chromium the browser tests drive (Debian's, since Playwright cannot download one here). */
import { existsSync } from 'node:fs';

export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((candidate): candidate is string => !!candidate && existsSync(candidate));
}

/**
 * Flags for a headless Chromium that makes no connection of its own. Debian's build still
 * resolves Google hosts (accounts, update, clients2) with background networking off, so every
 * name but loopback fails inside the browser, before any DNS query leaves it.
 */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];
