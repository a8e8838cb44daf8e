/**
 * A control's Population & sample panel in a real browser, on the demo's data, whose collectors
 * send through collection runs (one day with an abandoned run, one with a drop): the population
 * each kind of a control's checks ran on in the newest report — subjects, the SHA-256 shortened
 * and whole, each complete run with its source's page — and, for a control the report fails on
 * completeness, each such finding with its reason in words, its source and run, and the subjects
 * a reconciliation left uncovered. Everything shown is compared with what the API gives for the
 * control. In both modes, signed in when the server requires it.
 */
import { readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { components } from '../../functions/src/generated/api-types.ts';
import { sourcePath } from '../../hosting/src/lib/collection-runs.ts';
import { completenessReasonText, shortHash, uncoveredText } from '../../hosting/src/lib/populations.ts';
import { api } from '../support/api.ts';
import { mode, openAt, screenshot, settles, useBrowser } from '../support/browser.ts';

type ControlDetail = components['schemas']['ControlDetail'];
type Report = components['schemas']['Report'];

const browser = useBrowser();
const person = 'population-web@example.com';
const words = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The newest report's controls: the one the control pages show a result from. */
async function newestControls(): Promise<Report['controls']> {
  const list = await api.get<{ reports: { date: string }[] }>('/api/report');
  return (await api.get<Report>(`/api/report/${list.reports.at(-1)!.date}`)).controls;
}

/** The panel's population rows, kind by kind: kind, subjects, short hash, whole hash, and each run's link and text. */
const populationRows = (panel: Locator) =>
  panel.getByTestId('population-kind').evaluateAll((rows) =>
    rows.map((row) => ({
      kind: row.getAttribute('data-kind'),
      count: row.querySelector('[data-testid="population-count"]')?.textContent,
      short: row.querySelector('[data-testid="population-hash"]')?.textContent,
      whole: row.querySelector('[data-testid="population-hash-full"]')?.textContent,
      runs: Array.from(row.querySelectorAll('[data-testid="population-run"]')).map((run) => ({
        runId: run.getAttribute('data-run'),
        href: run.querySelector('a')?.getAttribute('href'),
        source: run.querySelector('a')?.textContent,
        code: run.querySelector('code')?.textContent,
      })),
    })),
  );

describe(`a control's population, ${mode} mode`, () => {
  it('lists the population each kind of its checks ran on, with its runs, as the API gives it', async () => {
    const controls = await newestControls();
    const tested = controls.find((control) => (control.populations ?? []).some((population) => population.runs.length > 0));
    expect(tested, 'a control of the newest report ran on a population of complete runs').toBeDefined();
    const detail = await api.get<ControlDetail>(`/api/controls/${tested!.id}`);
    const populations = detail.result!.populations!;

    const { page, problems, close } = await openAt(browser(), `/controls/${detail.id}`, person);
    const panel = page.getByTestId('control-population');
    await panel.getByTestId('population-kind').first().waitFor(settles);
    // One area: the population first, then the sample, under the panel's one heading.
    const area = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Population & sample' }) });
    // The sample loads on its own request, after the population the control's detail carries.
    await expect
      .poll(
        async () => [await area.getByTestId('control-population').count(), await area.getByTestId('sample-summary').count()],
        settles,
      )
      .toEqual([1, 1]);
    expect(words(await panel.getByRole('heading', { level: 3 }).first().textContent())).toBe(
      `Population tested on ${detail.latest!.date}`,
    );
    expect(await populationRows(panel)).toEqual(
      populations.map((population) => ({
        kind: population.kind,
        count: population.count.toLocaleString('en'),
        short: `${shortHash(population.sha256)}…`,
        whole: population.sha256,
        runs: population.runs.map((run) => ({
          runId: run.runId,
          href: sourcePath(run.source),
          source: run.source,
          code: run.runId,
        })),
      })),
    );
    // The whole hash opens from its short form.
    const firstHash = panel.getByTestId('population-hash').first();
    await firstHash.click();
    expect(await panel.getByTestId('population-hash-full').first().isVisible()).toBe(true);
    await screenshot(page, 'control-population');

    // A sample of subjects with the auditor's seed downloads as the API draws it.
    const kind = populations[0]!.kind;
    await panel.getByLabel('Seed for a sample of subjects').fill('auditor-fy2026');
    const expectedCsv = await api.response(
      `/api/controls/${detail.id}/population/sample.csv?date=${detail.latest!.date}&kind=${kind}&seed=auditor-fy2026`,
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByTestId('population-download-sample').first().click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${detail.id}-${detail.latest!.date}-${kind}-sample.csv`);
    expect(readFileSync((await download.path())!, 'utf8')).toBe(await expectedCsv.text());

    // A run's source opens its page.
    const firstRun = populations.find((population) => population.runs.length > 0)!.runs[0]!;
    await panel
      .locator(`[data-testid="population-run"][data-run="${firstRun.runId}"]`)
      .first()
      .getByRole('link', { name: firstRun.source, exact: true })
      .click();
    await page.waitForURL((url) => url.pathname === sourcePath(firstRun.source), settles);
    expect(problems).toEqual([]);
    await close();
  });

  it('shows each completeness finding apart, with its reason in words, its source and run, and the subjects left uncovered', async () => {
    const controls = await newestControls();
    const failed = controls.find((control) => control.findings.some((finding) => finding.completeness));
    expect(failed, 'the newest report fails a control on completeness').toBeDefined();
    const detail = await api.get<ControlDetail>(`/api/controls/${failed!.id}`);
    const issues = detail.result!.findings.filter((finding) => finding.completeness);

    const { page, problems, close } = await openAt(browser(), `/controls/${detail.id}`, person);
    const shown = page.getByTestId('completeness-finding');
    await shown.first().waitFor(settles);
    expect(await shown.count()).toBe(issues.length);
    for (const [index, finding] of issues.entries()) {
      const issue = finding.completeness!;
      const item = shown.nth(index);
      expect(await item.getAttribute('data-reason')).toBe(issue.reason);
      const text = words(await item.textContent());
      expect(text.startsWith(`${completenessReasonText[issue.reason]}. ${words(finding.message)}`)).toBe(true);
      if (issue.source) {
        const source = item.getByTestId('completeness-source');
        expect(words(await source.textContent())).toBe(`Source ${issue.source}${issue.runId ? `, run ${issue.runId}` : ''}`);
        expect(await source.getByRole('link').getAttribute('href')).toBe(sourcePath(issue.source));
      } else {
        expect(await item.getByTestId('completeness-source').count()).toBe(0);
      }
      if (issue.uncovered) {
        expect(await item.getByTestId('completeness-uncovered').textContent()).toBe(uncoveredText(issue.uncovered));
        expect(await item.getByTestId('uncovered-subject').allTextContents()).toEqual(issue.uncovered.subjects);
      } else {
        expect(await item.getByTestId('completeness-uncovered').count()).toBe(0);
      }
    }
    await screenshot(page, 'control-completeness');
    expect(problems).toEqual([]);
    await close();
  });
});
