/**
 * The web app on a phone and on a desktop, in a real browser: every main view in light and dark
 * themes at 390×844 (a touch phone) and 1280×800, each with no serious or critical axe
 * violation (WCAG 2.x A and AA rules, contrast included), no horizontal page scroll, on the phone
 * touch targets of at least 44 px, and a screenshot in test-results/ when asked for
 * (EVIDENT_SCREENSHOTS=1). Then no horizontal scroll at any width from 320 to 1440 px, and the
 * navigation folded into an accessible menu on a phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  desktop,
  headingOf,
  hosting,
  mode,
  openPage,
  phone,
  screenshot,
  settles,
  signIn,
  useBrowser,
  type Screen,
} from '../support/browser.ts';
import { overflowOf, seriousViolations } from '../support/accessibility.ts';

const browser = useBrowser();
/** Each control on the page a finger must hit that is smaller than 44×44 CSS pixels. */
const smallTargetsOf = (page: Page) =>
  page.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLElement>(
        "button, select, textarea, input:not([type='checkbox'], [type='radio']), header nav a, label:has(> input[type='checkbox'], > input[type='radio'])",
      ),
    )
      .filter((element) => element.checkVisibility())
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ element, box }) => box.height < 44 || (element.tagName === 'BUTTON' && box.width < 44))
      .map(
        ({ element, box }) =>
          `${element.tagName.toLowerCase()} "${element.textContent?.trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
      ),
  );

/** Each main view: its path and what shows it has loaded. */
const views: { name: string; path: string; ready: (page: Page) => Promise<unknown> }[] = [
  { name: 'dashboard', path: '/', ready: (page) => page.getByTestId('score').waitFor(settles) },
  { name: 'controls', path: '/controls', ready: (page) => page.getByTestId('control-count').waitFor(settles) },
  { name: 'control', path: '/controls/IAM-01', ready: (page) => page.getByTestId('timeline-strip').waitFor(settles) },
  { name: 'frameworks', path: '/frameworks', ready: (page) => page.getByTestId('framework-soc2').waitFor(settles) },
  { name: 'exceptions', path: '/exceptions', ready: (page) => page.getByTestId('exceptions-active').waitFor(settles) },
  { name: 'requests', path: '/requests', ready: (page) => page.getByTestId('requests-import').waitFor(settles) },
  {
    // NIST: the most requirements, the longest titles and the most gaps, shown open.
    name: 'framework',
    path: '/frameworks/nist80053',
    ready: async (page) => {
      await page.getByTestId('requirement-row').first().waitFor(settles);
      await page
        .locator('details')
        .evaluateAll((elements) => elements.forEach((element) => ((element as HTMLDetailsElement).open = true)));
    },
  },
  {
    name: 'evidence',
    path: '/evidence',
    ready: (page) => page.getByTestId('evidence-row').first().or(page.getByTestId('no-evidence')).waitFor(settles),
  },
  {
    name: 'sources',
    path: '/sources',
    ready: (page) =>
      Promise.all([
        page.getByTestId('sources').or(page.getByTestId('no-sources')).waitFor(settles),
        page.getByTestId('connectors').or(page.getByTestId('no-connectors')).waitFor(settles),
      ]),
  },
  {
    name: 'submit',
    path: '/submit',
    ready: (page) => page.getByTestId('recent-submission').first().or(page.getByTestId('no-submissions')).waitFor(settles),
  },
  {
    name: 'analyses',
    path: '/analyses',
    ready: (page) => page.getByTestId('runs').or(page.getByText('No run yet.')).waitFor(settles),
  },
  {
    name: 'webhooks',
    path: '/settings/webhooks',
    ready: (page) => page.getByTestId('no-webhooks').or(page.getByTestId('webhook-item').first()).first().waitFor(settles),
  },
  { name: 'settings', path: '/settings', ready: (page) => page.getByTestId('settings-current').waitFor(settles) },
  { name: 'docs', path: '/docs', ready: (page) => page.getByTestId('doc-link').first().waitFor(settles) },
  { name: 'doc page', path: '/docs/getting-started', ready: (page) => page.locator('h2').first().waitFor(settles) },
  {
    name: 'page not found',
    path: '/no/such/page',
    ready: (page) => expect.poll(() => headingOf(page), settles).toBe('Page not found'),
  },
];

const schemes = ['light', 'dark'] as const;

/**
 * What is wrong with the page as it is now, in each theme: serious axe violations and any
 * horizontal scroll, after a screenshot (when asked for). The themes are the system's colour
 * scheme, switched in place (the app's colours are `light-dark()` pairs over the same markup), so
 * each view loads once for both, and the second theme needs only axe's colour rules.
 */
async function problemsInEachTheme(page: Page, shotName?: (colorScheme: string) => string): Promise<Record<string, string[]>> {
  const problems: Record<string, string[]> = {};
  for (const colorScheme of schemes) {
    await page.emulateMedia({ colorScheme });
    if (shotName) await screenshot(page, shotName(colorScheme));
    const overflow = await overflowOf(page);
    const violations = await seriousViolations(page, { colourOnly: colorScheme !== schemes[0] });
    problems[colorScheme] = [...violations, ...(overflow === 'fits' ? [] : [overflow])];
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return problems;
}

const none: Record<string, string[]> = Object.fromEntries(schemes.map((colorScheme) => [colorScheme, []]));

/** A page on `screen`, signed in when the server requires it (checking the sign-in page first, in each theme). */
async function openSignedIn(screen: Screen) {
  const opened = await openPage(browser(), { screen });
  let signInPage = none;
  if (mode === 'protected') {
    await opened.page.goto(`${hosting}/`);
    await expect.poll(() => headingOf(opened.page), settles).toBe('Sign in to continue');
    signInPage = await problemsInEachTheme(opened.page);
    await signIn(opened.page, `screens-${screen.name}@example.com`);
  }
  return { ...opened, signInPage };
}

// One signed-in page per screen, shared by its tests in order, so each view has its own test (and
// time budget) while signing in happens once.
for (const screen of [phone, desktop]) {
  describe(`the web app on a ${screen.name} (${screen.width}×${screen.height}), light and dark themes, ${mode} mode: each view fits its width with no serious axe violation${screen.phone ? ' and touch targets of at least 44×44 px' : ''}`, () => {
    let opened: Awaited<ReturnType<typeof openSignedIn>> | undefined;
    const page = () => {
      if (!opened) throw new Error('no page: opening the app failed in the first test');
      return opened.page;
    };
    const problemsOf = (name: string) =>
      problemsInEachTheme(page(), (colorScheme) => `${screen.name}-${colorScheme}-${name.replaceAll(' ', '-')}`);
    afterAll(() => opened?.close());

    // Opening (and signing in) is a test of its own rather than a beforeAll: it polls, and in
    // protected mode it checks the sign-in page too.
    it(mode === 'protected' ? 'sign in' : 'open the app', async () => {
      opened = await openSignedIn(screen);
      expect(opened.signInPage).toEqual(none);
    });
    for (const view of views) {
      it(view.name, async () => {
        await page().goto(`${hosting}${view.path}`);
        await view.ready(page());
        expect(await problemsOf(view.name)).toEqual(none);
        if (screen.phone) expect(await smallTargetsOf(page())).toEqual([]);
      });
    }
    it('chat, with an answer and its citations (below the report on a phone)', async () => {
      await page().goto(`${hosting}/`);
      await page().getByLabel('Your question').fill('What is failing?');
      await page().getByLabel('Your question').press('Enter');
      await page().getByTestId('chat-citation').first().waitFor(settles);
      expect(await problemsOf('chat')).toEqual(none);
    });
    if (screen.phone) {
      it('menu open', async () => {
        await page().getByTestId('menu-button').click();
        expect(await problemsOf('menu open')).toEqual(none);
        expect(await smallTargetsOf(page())).toEqual([]);
      });
    }
    it("a run's page once it has finished", async () => {
      await page().goto(`${hosting}/analyses`);
      await page().getByRole('button', { name: 'Start analysis' }).click();
      await expect.poll(() => page().getByTestId('run-state').textContent(), { timeout: 30_000 }).toMatch(/^\s*Completed\./);
      expect(await problemsOf('analysis run')).toEqual(none);
    });
  });
}

describe(`the web app on a phone and a desktop, ${mode} mode`, () => {
  it('has no horizontal page scroll on any main view at any width from 320 to 1440 px', async () => {
    const { page, close } = await openSignedIn({ ...phone, width: 320 });
    // Every 32 px, and a pixel either side of each layout breakpoint (40, 52, 56 and 64 rem): between
    // two breakpoints the same rules apply, and the narrowest width is where a page overflows first.
    const steps = Array.from({ length: 36 }, (_, index) => 320 + index * 32);
    const breakpoints = [640, 832, 896, 1024].flatMap((width) => [width - 1, width, width + 1]);
    const widths = [...new Set([...steps, ...breakpoints, 1440])].sort((a, b) => a - b);
    const tooWide: string[] = [];
    for (const view of views) {
      await page.setViewportSize({ width: 320, height: 800 });
      await page.goto(`${hosting}${view.path}`);
      await view.ready(page);
      for (const width of widths) {
        await page.setViewportSize({ width, height: 800 });
        const overflow = await overflowOf(page);
        if (overflow !== 'fits') tooWide.push(`${view.name} at ${width} px: ${overflow}`);
      }
    }
    expect(tooWide).toEqual([]);
    await close();
  }, 120_000);

  it('folds the navigation into a menu on a phone: the button says whether it is open, focus moves in, Escape closes it, a link closes it', async () => {
    const { page, close } = await openSignedIn(phone);
    await page.goto(`${hosting}/controls`);
    await page.getByTestId('control-count').waitFor(settles);
    const button = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());

    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await button.getAttribute('aria-controls')).toBe('site-menu');
    expect(await nav.isVisible()).toBe(false);

    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await nav.isVisible()).toBe(true);
    expect(await focused()).toBe('Reports');
    expect(await nav.getByRole('link', { name: 'Controls' }).getAttribute('aria-current')).toBe('page');

    await page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);
    expect(await focused()).toBe('Menu');

    // Keyboard only: Enter opens it, Tab walks the links, a link opens its page and folds the menu.
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Controls');
    await nav.getByRole('link', { name: 'Analyses' }).click();
    await expect.poll(() => headingOf(page), settles).toBe('Analyses');
    expect(new URL(page.url()).pathname).toBe('/analyses');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);

    // A tap outside the open menu closes it too.
    await button.click();
    await page.getByRole('heading', { level: 1 }).click();
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    // On a desktop the navigation is always there and the menu button is not.
    await page.setViewportSize({ width: desktop.width, height: desktop.height });
    expect(await nav.isVisible()).toBe(true);
    expect(await button.isVisible()).toBe(false);
    await close();
  });
});
