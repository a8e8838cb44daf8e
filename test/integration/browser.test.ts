/**
 * The web app shell and the Swagger explorer in a real browser (Debian's Chromium driven by
 * playwright-core), under the site's real Content-Security-Policy from Hosting. Screenshots
 * land in test-results/ when asked for (EVIDENT_SCREENSHOTS=1).
 */
import { describe, expect, it } from 'vitest';
import { signUp } from '../support/emulator.ts';
import { hosting, mode, openPage as openIn, screenshot, settles, useBrowser } from '../support/browser.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../scripts/lib/paths.ts';

const browser = useBrowser();
const openPage = () => openIn(browser());

describe(`in a browser, ${mode} mode`, () => {
  it('the web app reads /api/auth/config and shows the mode', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hosting}/`);
    // Generous: the first request may start the auth function cold in the emulator.
    await expect
      .poll(() => page.getByTestId('mode').textContent(), settles)
      .toBe(mode === 'protected' ? 'Protected mode' : 'Public mode');
    // The footer shows the version the server announces, the description's.
    const { version } = JSON.parse(readFileSync(join(paths.root, 'package.json'), 'utf8')) as { version: string };
    expect(await page.getByTestId('api-version').textContent()).toBe(`Evident API ${version}`);
    await screenshot(page, 'shell');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the dashboard shows today's report as the API serves it (or, in protected mode, asks to sign in)", async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hosting}/`);
    if (mode === 'public') {
      const today = (await (await fetch(`${hosting}/api/report/today`)).json()) as {
        summary: { score: number; counts: Record<string, number> };
      };
      await expect.poll(() => page.getByTestId('score').textContent(), settles).toBe(today.summary.score.toFixed(1));
      for (const [status, count] of Object.entries(today.summary.counts)) {
        expect(await page.getByTestId(`count-${status}`).textContent()).toBe(String(count));
      }
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe("Today's assessment");
    } else {
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), settles).toBe('Sign in to continue');
      // The local build signs in on the auth emulator.
      await page.getByRole('form', { name: 'Sign in on the local auth emulator' }).waitFor(settles);
    }
    await screenshot(page, 'dashboard');
    // No protected call is made without a session, so no 401 either.
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a day without a report says so, and an unknown path is a page-not-found page', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hosting}/reports/2001-01-01`);
    const expected =
      mode === 'public' ? 'There is no report for 2001-01-01. GET /api/report lists the days that have one.' : undefined;
    if (expected) await expect.poll(() => page.getByRole('alert').first().textContent(), settles).toBe(expected);
    else await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), settles).toBe('Sign in to continue');
    await page.goto(`${hosting}/no/such/page`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), settles).toBe('Page not found');
    expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
    await page.context().close();
  });

  it('the controls page filters by status, family and framework as the API does, and opens a control', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hosting}/controls?framework=CC6.1`);
    if (mode === 'protected') {
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), settles).toBe('Sign in to continue');
      expect(problems).toEqual([]);
      await page.context().close();
      return;
    }
    const countOf = async (query: string) =>
      ((await (await fetch(`${hosting}/api/controls${query}`)).json()) as { controls: unknown[] }).controls.length;
    const shown = async () =>
      (await page.getByTestId('no-controls').count()) > 0 ? '0 controls' : page.getByTestId('control-count').textContent();
    // A deep link keeps its filter.
    await expect.poll(shown, settles).toBe(`${await countOf('?framework=CC6.1')} controls`);
    await page.getByLabel('Framework requirement').fill('');
    await expect.poll(shown, settles).toBe(`${await countOf('')} controls`);
    await page.getByLabel('Family').selectOption('identity-and-access');
    await expect.poll(shown, settles).toBe(`${await countOf('?family=identity-and-access')} controls`);
    expect(new URL(page.url()).search).toBe('?family=identity-and-access');
    // Statuses move with today's report (other tests publish to it), so the count is checked
    // against the very answer the page received.
    const [answer] = await Promise.all([
      page.waitForResponse((response) => /\/api\/controls\?.*status=missing/.test(response.url())),
      page.getByLabel('Status').selectOption('missing'),
    ]);
    const missing = (await answer.json()) as { controls: { family: string; latest: { status: string } | null }[] };
    expect(
      missing.controls.every((control) => control.family === 'identity-and-access' && control.latest?.status === 'missing'),
    ).toBe(true);
    await expect.poll(shown, settles).toBe(`${missing.controls.length} controls`);
    await page.getByLabel('Status').selectOption('');

    await page.getByRole('link', { name: /^IAM-01 / }).click();
    const control = (await (await fetch(`${hosting}/api/controls/IAM-01`)).json()) as {
      title: string;
      latest: { status: string } | null;
    };
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), settles).toBe(`IAM-01 ${control.title}`);
    expect((await page.getByTestId('objective').textContent())!.length).toBeGreaterThan(20);
    await screenshot(page, 'control');
    await page.goBack();
    await expect.poll(shown, settles).toBe(`${await countOf('?family=identity-and-access')} controls`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the Content-Security-Policy is in force: an injected inline script is blocked and reported', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hosting}/`);
    const violation = 'CSP violation: script-src-elem blocked inline';
    const reported = page.waitForEvent('console', {
      predicate: (message) => message.text() === violation,
      ...settles,
    });
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injectedScriptRan = true;';
      document.head.append(script);
      // An inline script that is allowed runs as it is inserted: by now it has run or never will.
      return (window as { injectedScriptRan?: boolean }).injectedScriptRan === true;
    });
    expect(ran).toBe(false);
    await reported;
    expect(problems).toContain(`console: ${violation}`);
    await page.context().close();
  });

  it('the theme follows the system until chosen, and the choice survives a reload', async () => {
    const { page, problems } = await openIn(browser(), { colorScheme: 'dark' });
    await page.goto(`${hosting}/`);
    await expect.poll(() => page.getByTestId('mode').count(), settles).toBe(1);
    // The page's resolved background: --bg's dark #0f1217 or light #f7f8fa.
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(await background()).toBe('rgb(15, 18, 23)');
    await page.getByLabel('Theme').selectOption('light');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(await background()).toBe('rgb(247, 248, 250)');
    await page.reload();
    await expect.poll(() => page.getByTestId('mode').count(), settles).toBe(1);
    expect(await background()).toBe('rgb(247, 248, 250)');
    expect(await page.getByLabel('Theme').inputValue()).toBe('light');
    await page.getByLabel('Theme').selectOption('system');
    expect(await background()).toBe('rgb(15, 18, 23)');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a deep link loads the web app too', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hosting}/reports/2026-11-21`);
    await expect.poll(() => page.getByTestId('mode').count(), settles).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the Swagger explorer lists every operation and runs one, under the CSP', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hosting}/api/swagger`);
    await page.locator('.opblock').first().waitFor();
    const spec = (await (await fetch(`${hosting}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    // A path item holds its operations beside fields of its own (a description): count the operations.
    const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
    const operationCount = Object.values(spec.paths).flatMap((item) =>
      Object.keys(item).filter((key) => methods.has(key)),
    ).length;
    expect(await page.locator('.opblock').count()).toBe(operationCount);

    const config = page.locator('#operations-auth-getAuthConfig');
    await config.locator('.opblock-summary').click();
    await config.locator('button.try-out__btn').click();
    await config.locator('button.execute').click();
    await expect
      .poll(() => config.locator('.live-responses-table tbody .response-col_status').first().textContent(), settles)
      .toBe('200');
    expect(await config.locator('.live-responses-table tbody .microlight').first().textContent()).toContain(
      `"authRequired": ${mode === 'protected'}`,
    );
    await screenshot(page, 'swagger');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the Swagger explorer sends a pasted ID token, keeps it out of storage and forgets it on reload', async () => {
    const user = await signUp();
    const { page, problems } = await openPage();
    await page.goto(`${hosting}/api/swagger`);
    await page.locator('button.authorize').first().click();
    await page.locator('input[aria-label="auth-bearer-value"]').fill(user.idToken);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const callMe = async (status = '200') => {
      const me = page.locator('#operations-auth-getCaller');
      // deepLinking reopens the last operation after a reload; only open and try out what is not.
      if (!(await me.locator('.opblock-body').isVisible())) await me.locator('.opblock-summary').click();
      if (!(await me.locator('button.execute').isVisible())) await me.locator('button.try-out__btn').click();
      await me.locator('button.execute').click();
      await expect
        .poll(() => me.locator('.live-responses-table tbody .response-col_status').first().textContent(), settles)
        .toBe(status);
      return me.locator('.live-responses-table tbody .microlight').first().textContent();
    };
    expect(await callMe()).toContain(`"uid": "${user.uid}"`);
    const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]));
    expect(stored.includes(user.idToken)).toBe(false);

    await page.reload();
    // deepLinking reopens the operation from the address after the list shows: wait for it, or a
    // click on its summary can land first and the reopening closes it again.
    await page.locator('#operations-auth-getCaller .opblock-body').waitFor(settles);
    expect(await callMe(mode === 'protected' ? '401' : '200')).toContain(
      mode === 'protected' ? '"code": "unauthenticated"' : '"authenticated": false',
    );
    // The browser logs the 401 it was asked to make; nothing else may go wrong.
    expect(problems.filter((problem) => !problem.includes('status of 401'))).toEqual([]);
    await page.context().close();
  });
});
