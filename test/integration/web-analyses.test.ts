/**
 * The analyses pages in a real browser: start a run, watch it to the end through a stream the
 * test cuts once mid-event, and find it among past runs. The page must rebuild exactly the
 * run's stored events: every control once, in order, and the one ending. From a control's page,
 * re-assess it, publish the result as a new version of today's report, and submit evidence for it.
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

  it('re-assesses a control from its page, publishes the result as a new version of today, and opens the form for its evidence', async () => {
    const { page, problems, close } = await openAt(browser(), '/controls/IAM-01', 'runner@example.com');
    await expect.poll(() => headingOf(page), settles).toMatch(/^IAM-01 /);
    const today = await api.json<{ today: string }>('/api/report');
    const versionsBefore = await api.json<{ items: unknown[] }>(`/api/report/${today.today}/versions?limit=200`);

    // Submit evidence for the control: the form starts with it.
    await page.getByRole('link', { name: 'Submit evidence for this control' }).click();
    await expect.poll(() => headingOf(page), settles).toBe('Submit evidence');
    expect(new URL(page.url()).search).toBe('?control=IAM-01');
    expect(await page.getByLabel('Controls', { exact: true }).inputValue()).toBe('IAM-01');
    await page.goBack();
    await expect.poll(() => headingOf(page), settles).toMatch(/^IAM-01 /);

    // Re-assess: the run's own page follows it live, and a one-control run never reads as a score.
    await page.getByRole('button', { name: 'Re-assess this control' }).click();
    await page.waitForURL(/\/analyses\/an-\d{17}-[0-9a-f]{8}$/, settles);
    const reassessed = new URL(page.url()).pathname;
    // The sentence after "Completed." waits for the run's scope, whichever of the stream and the run's record comes first.
    await expect.poll(() => page.getByTestId('run-state').textContent(), { timeout: 30_000 }).toMatch(/^\s*Completed\.\s+\S/);
    const finished = (await page.getByTestId('run-state').textContent())!;
    expect(finished).toMatch(/1 control re-assessed: [a-z ]+\. Today’s report is unchanged until it is published\./);
    expect(finished).not.toContain('Score');
    expect(await page.getByTestId('progress-text').textContent()).toBe('1 of 1 controls (100%)');

    // Publish it: a second run of the same control, which publishes into today's report.
    await page.getByRole('button', { name: "Publish as today's report" }).click();
    await page.waitForURL(
      (url) => /^\/analyses\/an-\d{17}-[0-9a-f]{8}$/.test(url.pathname) && url.pathname !== reassessed,
      settles,
    );
    await expect.poll(() => page.getByTestId('run-state').textContent(), { timeout: 30_000 }).toMatch(/^\s*Completed\.\s+\S/);
    expect(await page.getByTestId('run-state').textContent()).toContain(
      'published into today’s report, whose score is over every control.',
    );

    // Today's report lists one more version, the one shown last.
    await page.getByRole('link', { name: "See today's report" }).click();
    const count = versionsBefore.items.length + 1;
    await expect.poll(() => page.getByTestId('version-count').textContent(), settles).toBe(`${count} versions today`);
    await page.getByTestId('version-count').click();
    expect(await page.getByTestId('report-version').count()).toBe(count);
    expect(await page.getByTestId('report-version').last().textContent()).toMatch(/· shown$/);
    await screenshot(page, 'report-versions');

    expect(problems).toEqual([]);
    await close();
  });
});
