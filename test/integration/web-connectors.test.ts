/**
 * The built-in connectors on the Sources page in a real browser against the emulators, the GitHub
 * connector enabled (`CONNECTORS`) and reading its stand-in with its settings saved: its card
 * says what it collects, which controls it feeds and how often it runs; "Run now" starts a run
 * whose progress shows live in place and ends with exactly what its stored events say (calls,
 * items, waits, and the counts per kind); its newest run then shows as complete, and its run
 * history opens its source's page listing that run. In both modes, signed in when the server
 * requires it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Connector, ConnectorRun, ConnectorRunEvent } from '../../hosting/src/lib/api-types.ts';
import { sourcePath } from '../../hosting/src/lib/collection-runs.ts';
import { foldConnectorEvent, initialConnectorProgress } from '../../hosting/src/lib/connector-progress.ts';
import { cadenceText, endingText, progressLines } from '../../hosting/src/lib/connectors.ts';
import { api } from '../support/api.ts';
import { connectStandIns } from '../support/connectors.ts';
import { headingOf, mode, openAt, screenshot, settles, useBrowser } from '../support/browser.ts';

const browser = useBrowser();
beforeAll(connectStandIns);
const words = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
const person = 'connectors-web@example.com';

describe(`connectors on the sources page, ${mode} mode`, () => {
  it('runs GitHub now, shows its progress in place to the counts its events stored, and lists the run under its source', async () => {
    const github = await api.get<Connector>('/api/connectors/github');
    expect([github.title, github.ready]).toEqual(['GitHub', true]);

    const { page, problems, close } = await openAt(browser(), '/sources', person);
    const card = page.locator('[data-testid="connector"][data-connector="github"]');
    await card.waitFor(settles);
    expect(await headingOf(page)).toBe('Sources');
    expect(await card.getByRole('heading', { level: 3 }).textContent()).toBe('GitHub');
    expect(words(await card.getByTestId('connector-kinds').textContent())).toBe(github.kinds.join(', '));
    expect(await card.getByTestId('connector-cadence').textContent()).toBe(cadenceText(github.cadenceHours));
    expect(await card.getByTestId('connector-needs').count()).toBe(0);
    // What it feeds: a link to each control, in the order the API lists them.
    const feeds = card.getByTestId('connector-feeds');
    await feeds.locator('summary').click();
    expect(await feeds.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(
      github.feeds.map((control) => `/controls/${control.id}`),
    );

    await card.getByRole('button', { name: 'Run now (GitHub)' }).click();
    const shown = card.getByTestId('connector-run');
    const state = card.getByTestId('connector-run-state');
    await expect.poll(() => state.textContent(), { timeout: 60_000 }).toMatch(/^\s*Succeeded\./);
    const id = (await shown.getAttribute('data-run'))!;
    expect(await card.getByRole('button', { name: 'Cancel run of GitHub' }).count()).toBe(0);

    // The page shows exactly the run's stored events: its totals and its counts per kind.
    const stored = await api.json<{ events: ConnectorRunEvent[]; ended: boolean }>(`/api/connectors/github/runs/${id}/events`, {
      headers: { Accept: 'application/json' },
    });
    expect(stored.ended).toBe(true);
    const progress = stored.events.reduce(foldConnectorEvent, initialConnectorProgress);
    expect(progress.ending?.type).toBe('run.completed');
    expect(words(await state.textContent())).toBe(
      `${endingText(progress.ending!).headline} ${endingText(progress.ending!).detail}`,
    );
    expect(await card.getByTestId('connector-run-progress').locator('li').allTextContents()).toEqual(
      progressLines(progress.totals),
    );
    const run = await api.get<ConnectorRun>(`/api/connectors/github/runs/${id}`);
    expect([run.state, run.run.status]).toEqual(['succeeded', 'complete']);

    // The connector is read again: its newest run is this one, complete, and Run now is back.
    expect((await api.get<Connector>('/api/connectors/github')).newestRun?.id).toBe(id);
    await expect.poll(() => card.getByTestId('run-status').textContent(), settles).toBe('Complete');
    expect(await card.getByRole('button', { name: 'Run now (GitHub)' }).count()).toBe(1);
    await screenshot(page, 'connectors');

    // Its run history is its source's page, which lists the run.
    await card.getByRole('link', { name: 'Run history of GitHub' }).click();
    await page.locator(`[data-testid="run-row"][data-run="${id}"]`).waitFor(settles);
    expect([new URL(page.url()).pathname, await headingOf(page)]).toEqual([sourcePath(github.source), github.source]);
    expect(problems).toEqual([]);
    await close();
  });
});
