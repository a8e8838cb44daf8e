/**
 * The analyses pages in a real browser: start a run, watch it to the end through a stream the
 * test cuts once mid-event, and find it among past runs. The page must rebuild exactly the
 * run's stored events: every control once, in order, and the one ending.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import {
  cutTheStreamOnce,
  expectResumedAfterTheCut,
  headingOf,
  hosting,
  mode,
  openAt,
  openPage,
  screenshot,
  settles,
  signIn,
  useBrowser,
} from '../support/browser.ts';

const browser = useBrowser();

interface StoredEvent {
  id: number;
  type: string;
  data: { controlId?: string; total?: number; summary?: { score: number } };
}

describe(`the analyses pages, ${mode} mode`, () => {
  it('starts a run and follows it to the end across a cut connection, showing each control once', async () => {
    const { page, problems, close } = await openPage(browser());
    const cut = await cutTheStreamOnce(page);
    await page.goto(`${hosting}/analyses`);
    if (mode === 'protected') {
      await expect.poll(() => headingOf(page), settles).toBe('Sign in to continue');
      await signIn(page, 'runner@example.com');
    }
    await expect.poll(() => headingOf(page), settles).toBe('Analyses');
    await page.getByRole('button', { name: 'Start analysis' }).click();
    await page.waitForURL(/\/analyses\/an-\d{17}-[0-9a-f]{8}$/, settles);
    const id = new URL(page.url()).pathname.split('/').at(-1)!;

    await expect.poll(() => page.getByTestId('run-state').textContent(), { timeout: 30_000 }).toMatch(/^\s*Completed\./);
    const stored = await api.json<{ events: StoredEvent[]; ended: boolean }>(`/api/analyses/${id}/events`, {
      headers: { Accept: 'application/json' },
    });
    expect(stored.ended).toBe(true);
    const controls = stored.events.filter((event) => event.type === 'control.evaluated').map((event) => event.data.controlId);
    const total = stored.events[0]!.data.total!;
    expect(controls).toHaveLength(total);

    // The page shows exactly the stored run: every control once, in order, and its score.
    const rows = await page.getByTestId('results').locator('tbody tr td:nth-child(2) a').allTextContents();
    expect(rows).toEqual(controls);
    expect(await page.getByTestId('progress-text').textContent()).toBe(`${total} of ${total} controls (100%)`);
    const completed = stored.events.at(-1)!;
    expect(completed.type).toBe('run.completed');
    expect(await page.getByTestId('run-state').textContent()).toContain(`Score ${completed.data.summary!.score.toFixed(1)}`);

    // The stream was cut once mid-event, and the client resumed after the last whole event.
    expectResumedAfterTheCut(cut);
    await screenshot(page, 'analysis');

    // The run is listed among past runs, and its link comes back to it.
    await page.getByRole('link', { name: '← All runs' }).click();
    await expect.poll(() => page.locator(`a[href="/analyses/${id}"]`).count(), settles).toBe(1);
    expect(await page.getByTestId('runs').locator('tbody tr').first().locator('td').nth(2).textContent()).toBe('Succeeded');
    await screenshot(page, 'analyses');
    expect(problems).toEqual([]);
    await close();
  });

  it('names a control id that is not one next to the field, without calling the API', async () => {
    const { page, problems, close } = await openAt(browser(), '/analyses', 'runner@example.com');
    await expect.poll(() => headingOf(page), settles).toBe('Analyses');
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/analyses')) posted += 1;
    });
    await page.getByLabel('Only these:').check();
    await page.getByLabel('Control ids').fill('IAM-01, nope');
    await page.getByRole('button', { name: 'Start analysis' }).click();
    expect(await page.locator('#controls-problem').textContent()).toBe('Not control ids: nope.');
    expect(await page.getByLabel('Control ids').getAttribute('aria-invalid')).toBe('true');

    // An id the catalog lacks is the server's to judge; its problem lands on the same field.
    await page.getByLabel('Control ids').fill('ZZZ-99');
    await page.getByRole('button', { name: 'Start analysis' }).click();
    await expect.poll(() => page.locator('#controls-problem').textContent(), settles).toMatch(/ZZZ-99/);
    expect(posted).toBe(1);
    expect(problems.filter((problem) => !problem.includes('400'))).toEqual([]);
    await close();
  });
});
