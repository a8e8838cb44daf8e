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

  it('shows a population that dropped on its run, and records who acknowledged it and why', async () => {
    const dropping = `1 web drops ${mode}`;
    const user = (name: string) => ({
      kind: 'idp.user',
      source: dropping,
      subject: `${name}@example.com`,
      collectedAt: new Date().toISOString(),
      data: { email: `${name}@example.com`, active: true, mfaEnabled: true, admin: false, employmentStatus: 'active' },
    });
    const runOf = async (names: string[]) => {
      const opened = await api.json<CollectionRun>('/api/runs', {
        method: 'POST',
        body: { source: dropping, kinds: ['idp.user'] },
        status: 201,
      });
      await api.post(`/api/evidence?run=${opened.id}`, { items: names.map(user) }, 201);
      return api.post<CollectionRun>(`/api/runs/${opened.id}/complete`, { counts: { 'idp.user': names.length } });
    };
    await runOf(['ada', 'grace']);
    const dropped = await runOf(['ada']);
    expect(dropped.drops?.map(({ kind, previousCount, count, percent }) => [kind, previousCount, count, percent])).toEqual([
      ['idp.user', 2, 1, 50],
    ]);

    const { page, problems, close } = await openAt(browser(), sourcePath(dropping), person);
    const drop = page.locator(`[data-testid="run-drops-row"][data-run="${dropped.id}"]`).getByTestId('run-drop');
    await drop.waitFor(settles);
    expect(await drop.textContent()).toContain('idp.user: 2 → 1 subjects (−50 %)');
    await drop.getByLabel('Why the drop is expected').fill('Grace left the company this week.');
    await drop.getByRole('button', { name: 'Acknowledge' }).click();
    const acknowledged = drop.getByTestId('drop-acknowledged');
    await acknowledged.waitFor(settles);
    const who = mode === 'protected' ? person : 'anonymous';
    expect(await acknowledged.textContent()).toContain(`Acknowledged by ${who}`);
    expect(await acknowledged.textContent()).toContain('Grace left the company this week.');
    const run = await api.get<CollectionRun>(`/api/runs/${dropped.id}`);
    expect(run.drops?.[0]?.acknowledged?.reason).toBe('Grace left the company this week.');
    await screenshot(page, 'source-drop');
    expect(problems).toEqual([]);
    await close();
  });
});
