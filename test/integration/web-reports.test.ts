/**
 * Report pages in a real browser: from today's report to past days (the previous-day link and
 * the date picker), the JSON and OSCAL downloads (authorised like any call, busy while under
 * way, deaf to a second click), and from a risky
 * control to its page. In protected mode the same after signing in.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { longDate } from '../../hosting/src/lib/format.ts';
import { api } from '../support/api.ts';
import { headingOf, hosting, mode, openAt, screenshot, settles, useBrowser } from '../support/browser.ts';

const browser = useBrowser();
const poll = settles;

describe(`report pages, ${mode} mode`, () => {
  it('goes to past days by link and by date picker, downloads JSON and OSCAL, and opens a risky control', async () => {
    const history = await api.get<{ today: string; reports: { date: string }[] }>('/api/report');
    const days = history.reports.map((entry) => entry.date);
    const yesterday = days.at(-2)!;
    const { page, problems, close } = await openAt(browser(), '/', 'reader@example.com');
    await expect.poll(() => headingOf(page), poll).toBe("Today's assessment");

    // The previous day, by its link.
    await page.getByRole('link', { name: `← ${yesterday}` }).click();
    await expect.poll(() => headingOf(page), poll).toBe(longDate(yesterday));
    expect(new URL(page.url()).pathname).toBe(`/reports/${yesterday}`);
    const report = await api.get<{ summary: { score: number } }>(`/api/report/${yesterday}`);
    await expect.poll(() => page.getByTestId('score').textContent(), poll).toBe(report.summary.score.toFixed(1));

    // The first day, by the date picker.
    await page.getByLabel('Report date').fill(days[0]!);
    await page.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => headingOf(page), poll).toBe(longDate(days[0]!));
    expect(await page.getByRole('link', { name: /^←/ }).count()).toBe(0);
    await screenshot(page, 'past-report');

    // Downloads carry what the API serves for that day.
    for (const [label, path, filename] of [
      ['JSON', `/api/report/${days[0]}`, `evident-${days[0]}.json`],
      ['OSCAL', `/api/report/${days[0]}/oscal`, `evident-${days[0]}.oscal.json`],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: label, exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(filename);
      expect(JSON.parse(readFileSync((await download.path())!, 'utf8'))).toEqual(await api.get(path));
    }

    // A download under way says so, and a second click meanwhile starts nothing.
    const held = `${hosting}/api/report/${days[0]}`;
    let asked = 0;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route(held, async (route) => {
      asked += 1;
      await answered;
      await route.continue();
    });
    const json = page.getByRole('button', { name: /^JSON/ });
    await json.click();
    await expect.poll(() => json.getAttribute('aria-busy'), poll).toBe('true');
    expect(await json.textContent()).toBe('JSON…');
    // Forced: Playwright would wait for an aria-disabled button; an impatient person does not.
    await json.click({ force: true });
    const [download] = await Promise.all([page.waitForEvent('download'), Promise.resolve().then(answer)]);
    expect(download.suggestedFilename()).toBe(`evident-${days[0]}.json`);
    await expect.poll(() => json.getAttribute('aria-busy'), poll).toBeNull();
    expect(await json.textContent()).toBe('JSON');
    expect(asked).toBe(1);
    await page.unroute(held);

    // Back to today, then a risky failing control's page.
    await page.goto(`${hosting}/`);
    const firstRisk = page.locator('.risks li').first().getByRole('link');
    await firstRisk.waitFor(poll);
    const id = (await firstRisk.textContent())!;
    await firstRisk.click();
    await expect.poll(() => headingOf(page), poll).toMatch(new RegExp(`^${id} `));
    expect(problems).toEqual([]);
    await close();
  });
});
