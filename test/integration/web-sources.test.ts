/**
 * The Sources pages in a real browser against the emulators: a collector's run, opened and
 * completed through the API, shows as its source's newest run on /sources (complete, with its
 * counts), and the source's link opens /sources/<source> listing that run, with its population
 * charted. The source's name has a space, so its page's address is encoded and decoded on the
 * way. A drop shows on the run and on the chart until it is acknowledged; the dashboard names a
 * source whose newest run is incomplete or whose drop awaits acknowledgment. In both modes,
 * signed in when the server requires it.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CollectionRun } from '../../hosting/src/lib/api-types.ts';
import { sourcePath } from '../../hosting/src/lib/collection-runs.ts';
import { api } from '../support/api.ts';
import { headingOf, mode, openAt, screenshot, settles, useBrowser } from '../support/browser.ts';

const browser = useBrowser();

/** A kind's population chart on a source's page. */
const chartOf = (page: Page, kind: string) => page.locator(`[data-testid="population-chart"][data-kind="${kind}"]`);
/** The chart's table for screen readers, row by row: run id, subjects and drop (the time, in the browser's zone, left out). */
const chartRows = (chart: Locator) =>
  chart
    .getByTestId('population-table')
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        Array.from(row.querySelectorAll('td'))
          .slice(1)
          .map((cell) => cell.textContent ?? ''),
      ),
    );
const words = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Users of a source, as a collector sends them. */
const usersOf = (source: string, names: string[]) =>
  names.map((name) => ({
    kind: 'idp.user',
    source,
    subject: `${name}@example.com`,
    collectedAt: new Date().toISOString(),
    data: { email: `${name}@example.com`, active: true, mfaEnabled: true, admin: false, employmentStatus: 'active' },
  }));

/** A run of `names` of a source, sent and completed with `declared` (their number unless said). */
async function runOf(source: string, names: string[], declared = names.length): Promise<CollectionRun> {
  const opened = await api.json<CollectionRun>('/api/runs', {
    method: 'POST',
    body: { source, kinds: ['idp.user'] },
    status: 201,
  });
  if (names.length > 0) await api.post(`/api/evidence?run=${opened.id}`, { items: usersOf(source, names) }, 201);
  return api.post<CollectionRun>(`/api/runs/${opened.id}/complete`, { counts: { 'idp.user': declared } });
}

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

    // Its population of idp.user over 90 days: the one complete run, of no subject.
    const chart = chartOf(page, 'idp.user');
    await chart.getByTestId('population-summary').waitFor(settles);
    expect(await chart.getByRole('heading', { level: 3 }).textContent()).toBe('idp.user');
    expect(words(await chart.getByTestId('population-summary').textContent())).toMatch(
      /^0 subjects in the newest complete run, of .+; 1 complete run in the last 90 days, from 0 to 0 subjects\.$/,
    );
    expect(await chartRows(chart)).toEqual([[run.id, '0', '']]);
    expect(await chart.locator('svg circle').count()).toBe(1);
    expect(await chart.locator('svg').getAttribute('aria-hidden')).toBe('true');
    expect(problems).toEqual([]);
    await close();
  });

  it('shows a population that dropped on its run and its chart, and records who acknowledged it and why', async () => {
    const dropping = `1 web drops ${mode}`;
    const first = await runOf(dropping, ['ada', 'grace']);
    const dropped = await runOf(dropping, ['ada']);
    expect(dropped.drops?.map(({ kind, previousCount, count, percent }) => [kind, previousCount, count, percent])).toEqual([
      ['idp.user', 2, 1, 50],
    ]);

    const { page, problems, close } = await openAt(browser(), sourcePath(dropping), person);
    const drop = page.locator(`[data-testid="run-drops-row"][data-run="${dropped.id}"]`).getByTestId('run-drop');
    await drop.waitFor(settles);
    expect(await drop.textContent()).toContain('idp.user: 2 → 1 subjects (−50 %)');
    // The chart marks the run that dropped, awaiting acknowledgment, and lists both runs newest first.
    const chart = chartOf(page, 'idp.user');
    await chart.getByTestId('population-table').waitFor({ state: 'attached', ...settles });
    expect(await chartRows(chart)).toEqual([
      [dropped.id, '1', '−50 %, awaiting acknowledgment'],
      [first.id, '2', ''],
    ]);
    expect(words(await chart.getByTestId('population-summary').textContent())).toMatch(
      /^1 subject in the newest complete run, of .+; 2 complete runs in the last 90 days, from 1 to 2 subjects\.$/,
    );
    expect([await chart.locator('svg circle').count(), await chart.locator('svg circle.drop.pending').count()]).toEqual([2, 1]);
    await drop.getByLabel('Why the drop is expected').fill('Grace left the company this week.');
    await drop.getByRole('button', { name: 'Acknowledge' }).click();
    const acknowledged = drop.getByTestId('drop-acknowledged');
    await acknowledged.waitFor(settles);
    const who = mode === 'protected' ? person : 'anonymous';
    expect(await acknowledged.textContent()).toContain(`Acknowledged by ${who}`);
    expect(await acknowledged.textContent()).toContain('Grace left the company this week.');
    const run = await api.get<CollectionRun>(`/api/runs/${dropped.id}`);
    expect(run.drops?.[0]?.acknowledged?.reason).toBe('Grace left the company this week.');
    // The chart takes the acknowledgement without a reload.
    await expect
      .poll(() => chartRows(chart), settles)
      .toEqual([
        [dropped.id, '1', '−50 %, acknowledged'],
        [first.id, '2', ''],
      ]);
    expect([await chart.locator('svg circle.drop').count(), await chart.locator('svg circle.pending').count()]).toEqual([1, 0]);
    await screenshot(page, 'source-drop');
    expect(problems).toEqual([]);
    await close();
  });

  it('names on the dashboard a source whose newest run is incomplete and one whose drop awaits acknowledgment, until each is dealt with', async () => {
    const incomplete = `2 web incomplete ${mode}`;
    const dropping = `3 web dashboard drop ${mode}`;
    // Stays incomplete: the notice shows it whenever it has loaded, so an alert's absence is read after that.
    const anchor = `4 web still incomplete ${mode}`;
    const short = await runOf(incomplete, [], 1);
    expect([short.status, short.incompleteReason]).toEqual(['incomplete', 'counts_disagree']);
    await runOf(anchor, [], 2);
    await runOf(dropping, ['ada', 'grace', 'alan']);
    const dropped = await runOf(dropping, ['ada']);
    expect(dropped.drops?.map((drop) => drop.kind)).toEqual(['idp.user']);

    const { page, problems, close } = await openAt(browser(), '/', person);
    const notice = page.getByTestId('collection-notice');
    const alertOf = (source: string) => notice.locator(`[data-testid="collection-alert"][data-source="${source}"]`);
    await alertOf(anchor).waitFor(settles);
    expect(await notice.getByRole('heading', { level: 2 }).textContent()).toBe('Collection');
    expect(words(await alertOf(incomplete).textContent())).toBe(`${incomplete}: its newest run is incomplete (counts disagree)`);
    expect(words(await alertOf(dropping).textContent())).toBe(`${dropping}: a drop of idp.user awaits acknowledgment`);
    expect(await alertOf(dropping).getByRole('link').getAttribute('href')).toBe(sourcePath(dropping));
    await screenshot(page, 'dashboard-collection');

    // The link opens the source's page.
    await alertOf(incomplete).getByRole('link', { name: incomplete, exact: true }).click();
    await page.getByTestId('run-row').first().waitFor(settles);
    expect([new URL(page.url()).pathname, await headingOf(page)]).toEqual([sourcePath(incomplete), incomplete]);

    // Acknowledged, the drop leaves the notice; a complete run makes the other source whole again.
    await api.post(`/api/runs/${dropped.id}/drops/idp.user/acknowledge`, { reason: 'Two contractors left.' });
    await runOf(incomplete, []);
    await page.goto(new URL('/', page.url()).href);
    await alertOf(anchor).waitFor(settles);
    expect([await alertOf(dropping).count(), await alertOf(incomplete).count()]).toEqual([0, 0]);
    expect(problems).toEqual([]);
    await close();
  });
});
