/**
 * The web app as something to keep on a phone: a manifest and icons Chromium accepts for
 * installing it, and views that keep what they showed when the network drops, say so, and
 * recover by themselves once it is back, with no service worker holding API answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumArgs, findChromium } from '../../scripts/lib/chromium.ts';
import { longDate } from '../../hosting/src/lib/format.ts';
import { unreachable } from '../../hosting/src/lib/api.ts';
import { api } from '../support/api.ts';
import { headingOf, hosting, mode, openAt, phone, screenshot, settles, useBrowser } from '../support/browser.ts';

const browser = useBrowser();

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;

describe(`the web app on a home screen and offline, ${mode} mode`, () => {
  it('serves a manifest with icons of the sizes it declares, which Chromium accepts for installing', async () => {
    const answer = await fetch(`${hosting}/manifest.webmanifest`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8');
    const manifest = (await answer.json()) as Manifest;
    expect({
      name: manifest.name,
      short_name: manifest.short_name,
      start_url: manifest.start_url,
      display: manifest.display,
    }).toEqual({
      name: 'Evident — continuous control assessment',
      short_name: 'Evident',
      start_url: '/',
      display: 'standalone',
    });
    for (const icon of manifest.icons.filter((each) => each.type === 'image/png')) {
      const image = await fetch(`${hosting}${icon.src}`);
      expect([icon.src, image.status, image.headers.get('content-type')]).toEqual([icon.src, 200, 'image/png']);
      expect(pngSize(Buffer.from(await image.arrayBuffer()))).toBe(icon.sizes);
    }
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable' && icon.sizes === '512x512')).toBe(true);

    // A profile of its own: Chromium never offers to install from an incognito context, which
    // is what every other test page is.
    const profile = mkdtempSync(join(tmpdir(), 'evident-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: findChromium(),
      args: chromiumArgs,
      headless: true,
      viewport: { width: phone.width, height: phone.height },
      isMobile: true,
      hasTouch: true,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${hosting}/`);
    await page.getByRole('heading', { level: 1 }).first().waitFor(settles);
    const cdp = await context.newCDPSession(page);
    const parsed = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[] };
    expect(parsed.url).toBe(`${hosting}/manifest.webmanifest`);
    expect(parsed.errors).toEqual([]);
    const installable = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installable.installabilityErrors).toEqual([]);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('keeps the report on screen when the network drops, says so, and loads what was asked meanwhile once it is back', async () => {
    const today = await api.get<{ date: string; summary: { score: number } }>('/api/report/today');
    const { page, problems, close } = await openAt(browser(), '/', 'offline@example.com');
    await expect.poll(() => page.getByTestId('score').textContent(), settles).toBe(today.summary.score.toFixed(1));
    const notice = page.getByTestId('offline-notice');
    expect((await notice.textContent())?.trim()).toBe('');

    await page.context().setOffline(true);
    await expect
      .poll(() => notice.textContent().then((text) => text?.replace(/\s+/g, ' ').trim()), settles)
      .toBe(`Offline — showing the report of ${longDate(today.date)}. Evident reconnects by itself when the network is back.`);
    expect(await page.getByTestId('score').textContent()).toBe(today.summary.score.toFixed(1));
    await screenshot(page, 'offline');

    // Another page asked for while offline says why it is empty, and fills in by itself later.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Controls' }).click();
    await expect.poll(() => headingOf(page), settles).toBe('Controls');
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), settles)
      .toBe(`The controls could not be loaded. ${unreachable}`);
    await page.context().setOffline(false);
    await page.getByTestId('control-count').waitFor(settles);
    await expect.poll(() => notice.textContent().then((text) => text?.trim()), settles).toBe('');

    // Nothing was put aside for offline use: no service worker, so no API answer outlives the visit.
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((list) => list.length))).toBe(0);
    expect(problems.filter((problem) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(problem))).toEqual([]);
    await close();
  });
});
