/**
 * The Sources pages in a real browser against the emulators: a collector's run, opened and
 * completed through the API, shows as its source's newest run on /sources (complete, with its
 * counts), and the source's link opens /sources/<source> listing that run. The source's name has
 * a space, so its page's address is encoded and decoded on the way. In both modes, signed in
 * when the server requires it.
 */
import { describe, expect, it } from 'vitest';
import type { CollectionRun } from '../../hosting/src/lib/api-types.ts';
import { sourcePath } from '../../hosting/src/lib/collection-runs.ts';
import { api } from '../support/api.ts';
import { headingOf, mode, openAt, screenshot, settles, useBrowser } from '../support/browser.ts';

const browser = useBrowser();

// Digits sort before letters, so the source is on the first page however many others there are.
const source = `0 web sources ${mode}`;
const person = 'sources-web@example.com';

describe(`sources pages, ${mode} mode`, () => {
  it('shows a completed run as its source’s newest, and the source’s page lists it', async () => {
    const opened = await api.json<CollectionRun>('/api/runs', {
      method: 'POST',
      body: { source, kinds: ['idp.user'] },
      status: 201,
    });
    const run = await api.post<CollectionRun>(`/api/runs/${opened.id}/complete`, { counts: { 'idp.user': 0 } });
    expect(run.status).toBe('complete');

    const { page, problems, close } = await openAt(browser(), '/sources', person);
    const row = page.getByTestId('source-row').filter({ has: page.getByRole('link', { name: source, exact: true }) });
    await row.waitFor(settles);
    expect(await headingOf(page)).toBe('Sources');
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sources' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await row.getByTestId('run-status').textContent()).toBe('Complete');
    expect(await row.locator('td[data-label="Declared"]').textContent()).toBe('idp.user 0');
    expect(await row.locator('td[data-label="Received"]').textContent()).toBe('idp.user 0');
    await screenshot(page, 'sources');

    await row.getByRole('link', { name: source, exact: true }).click();
    const runRow = page.locator(`[data-testid="run-row"][data-run="${run.id}"]`);
    await runRow.waitFor(settles);
    expect(new URL(page.url()).pathname).toBe(sourcePath(source));
    expect(await headingOf(page)).toBe(source);
    expect(await page.getByTestId('run-row').count()).toBe(1);
    expect(await runRow.getByTestId('run-status').textContent()).toBe('Complete');
    expect(await runRow.locator('td[data-label="Kinds"]').textContent()).toBe('idp.user');
    expect(problems).toEqual([]);
    await close();
  });
});
