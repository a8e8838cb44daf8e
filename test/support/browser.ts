/**
 * The browser the web-app tests drive: Debian's Chromium through playwright-core, one per test
 * file, pages that record console errors and Content-Security-Policy violations, screenshots
 * into test-results/ when asked for (EVIDENT_SCREENSHOTS=1), and sign-in through the app's own
 * form on the auth emulator.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Route } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromiumArgs, findChromium } from '../../scripts/lib/chromium.ts';
import { paths } from '../../scripts/lib/paths.ts';
import { hosting, mode } from './emulator.ts';

export const results = join(paths.root, 'test-results');

/**
 * How long a page may take to show what a test waits for. The functions emulator starts a new
 * worker, loading the whole functions package, for each request that arrives while the others
 * are busy (the two parallel calls of a page, a 401's config re-check): several seconds each on
 * a busy two-core machine, so the first view of a page can take well over ten seconds there.
 */
export const settles = { timeout: 30_000 } as const;

/** Starts one Chromium for the calling test file, and closes it after. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    const executablePath = findChromium();
    if (!executablePath) throw new Error('Chromium not found: install it or set CHROMIUM_PATH');
    browser = await chromium.launch({ executablePath, args: chromiumArgs, headless: true });
  });
  afterAll(() => browser?.close());
  return () => browser!;
}

export interface OpenPage {
  page: Page;
  /** Console errors, page errors and CSP violations, in order. */
  problems: string[];
  close: () => Promise<void>;
}

/** A screen the web app is tried on: its viewport, and whether it is a touch phone. */
export interface Screen {
  name: string;
  width: number;
  height: number;
  phone: boolean;
}

export const phone: Screen = { name: 'phone', width: 390, height: 844, phone: true };
export const desktop: Screen = { name: 'desktop', width: 1280, height: 800, phone: false };

/** A page in a fresh context (no session, no storage) that records what went wrong. */
export async function openPage(
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark'; screen?: Screen } = {},
): Promise<OpenPage> {
  const screen = options.screen ?? { ...desktop, height: 900 };
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: screen.width, height: screen.height },
    isMobile: screen.phone,
    hasTouch: screen.phone,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  return { page, problems, close: () => context.close() };
}

/**
 * Saves a full-page screenshot as a test artefact, named for the mode, when EVIDENT_SCREENSHOTS=1.
 * A screenshot asserts nothing and is for a person to look at; encoding the full-page images
 * took about a minute of every test run, so a plain run skips them.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.EVIDENT_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: join(results, `${mode}-${name}.png`), fullPage: true });
}

/** The first heading's text, once the page has one (functions the emulator starts cold can take seconds). */
export const headingOf = (page: Page) => page.getByRole('heading', { level: 1 }).first().textContent();

/** Protected mode: signs in through the app's form, which signs in on the auth emulator. */
export async function signIn(page: Page, email: string, name = 'Test Person'): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in on the local auth emulator' });
  await form.waitFor(settles);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Sign in with Google (emulator)' }).click();
  await expect.poll(() => page.getByTestId('signed-in-as').textContent(), settles).toBe(email);
}

/** Goes to `path` on the site, then signs in as `email` when the server requires it (protected mode). */
export async function visit(page: Page, path: string, email: string): Promise<void> {
  await page.goto(`${hosting}${path}`);
  if (mode === 'protected') await signIn(page, email);
}

/** A fresh page at `path`, signed in as `email` when the server requires it (protected mode). */
export async function openAt(browser: Browser, path: string, email: string): Promise<OpenPage> {
  const opened = await openPage(browser);
  await visit(opened.page, path, email);
  return opened;
}

/**
 * Lets the first connection to a run's event stream deliver only its first events and half of
 * the next one, then end: the client must drop the half event and resume after the last whole
 * one. Later connections pass untouched. Records each connection's Last-Event-ID.
 */
export async function cutTheStreamOnce(page: Page): Promise<{ lastEventIds: (string | undefined)[]; keptThrough: () => number }> {
  const lastEventIds: (string | undefined)[] = [];
  let keptThrough = 0;
  await page.route('**/api/analyses/*/events', async (route: Route) => {
    lastEventIds.push(route.request().headers()['last-event-id']);
    if (lastEventIds.length > 1) return route.continue();
    const response = await route.fetch();
    const body = await response.text();
    const blocks = body.split('\n\n').filter((block) => /^id: /m.test(block));
    const whole = Math.floor(blocks.length / 2);
    keptThrough = whole === 0 ? 0 : Number(/^id: (\d+)/m.exec(blocks[whole - 1]!)![1]);
    const cutAt = body.indexOf(blocks[whole]!) + Math.floor(blocks[whole]!.length / 2);
    await route.fulfill({ response, body: body.slice(0, cutAt) });
  });
  return { lastEventIds, keptThrough: () => keptThrough };
}

/**
 * What a run page that followed a once-cut stream must have done: connected fresh, resumed
 * right after the last whole event the cut let through, and from then on opened a connection
 * only when the server ended one (each further one resuming later), never one per event.
 */
export function expectResumedAfterTheCut(cut: { lastEventIds: (string | undefined)[]; keptThrough: () => number }): void {
  expect(cut.lastEventIds[0]).toBeUndefined();
  expect(cut.lastEventIds[1]).toBe(cut.keptThrough() === 0 ? undefined : String(cut.keptThrough()));
  const resumedAt = cut.lastEventIds.slice(1).map(Number);
  expect(resumedAt.every((id, index) => index === 0 || id > resumedAt[index - 1]!)).toBe(true);
  expect(cut.lastEventIds.length).toBeLessThanOrEqual(5);
}

export { hosting, mode };
