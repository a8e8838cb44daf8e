/**
 * A control over a period through Hosting on the emulators, on the demo's two weeks of reports:
 * every day's status is the one that day's report gives the control, every change sits between
 * two reports that disagree, and a period it cannot read is refused with a 400 naming the part.
 * The control's page shows the same last 90 days in a real browser, and another period chosen
 * on it; its Population & sample panel draws the sample the API draws, and downloads it and its
 * population as the CSV the API serves.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../functions/src/assessment/model.ts';
import type { components } from '../../functions/src/generated/api-types.ts';
import type { ControlHistory } from '../../functions/src/reports/control-history.ts';
import { dayLabel, fixText, passingText, streakText } from '../../hosting/src/lib/control-timeline.ts';
import { openAt, screenshot, settles, useBrowser } from '../support/browser.ts';
import { api } from '../support/api.ts';
import { mode } from '../support/emulator.ts';
import { expectedProblem } from '../support/problems.ts';

const browser = useBrowser();

describe(`the history of a control, ${mode} mode`, () => {
  it("gives each day the status that day's report gives the control, and each change between reports that disagree", async () => {
    const list = await api.get<{ today: string; reports: { date: string }[] }>('/api/report');
    const first = list.reports[0]!.date;
    const history = await api.get<ControlHistory>(`/api/controls/IAM-08/history?from=${first}&to=${list.today}`);
    const reported = new Map<string, string>();
    for (const { date } of list.reports) {
      const report = await api.get<Report>(`/api/report/${date}`);
      reported.set(date, report.controls.find((control) => control.id === 'IAM-08')!.status);
    }
    expect(history.days.filter((day) => day.status !== null)).toEqual([...reported].map(([date, status]) => ({ date, status })));
    expect(history.summary.daysWithReport).toBe(reported.size);
    const dates = [...reported.keys()];
    for (const change of history.changes) {
      expect(change.to.status).toBe(reported.get(change.date));
      const before = dates[dates.indexOf(change.date) - 1];
      if (before) expect(change.from).toMatchObject({ date: before, status: reported.get(before) });
      else expect(change.from).toBeNull();
    }
    // A change wherever two reports in a row disagree, and nowhere else.
    const expected = dates.filter((date, index) => index === 0 || reported.get(date) !== reported.get(dates[index - 1]!));
    expect(history.changes.map((change) => change.date)).toEqual(expected);
  });

  it("shows the last 90 days on the control's page, a day per cell, the summary and every change, then a period chosen there", async () => {
    const history = await api.get<ControlHistory>('/api/controls/IAM-08/history');
    const { page, problems, close } = await openAt(browser(), '/controls/IAM-08', 'timeline@example.com');
    const strip = page.getByTestId('timeline-strip');
    await strip.waitFor(settles);
    expect(await strip.locator('span').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('title')))).toEqual(
      history.days.map(dayLabel),
    );
    expect(await strip.getAttribute('aria-label')).toBe(passingText(history));
    expect(await page.getByTestId('timeline-passing').textContent()).toBe(passingText(history));
    expect(await page.getByTestId('timeline-streak').textContent()).toBe(streakText(history.summary));
    expect(await page.getByTestId('timeline-fix').textContent()).toBe(fixText(history.summary));
    expect(await page.getByTestId('timeline-change').count()).toBe(history.changes.length);
    await screenshot(page, 'control-timeline');

    // The same days as CSV, through the authorised download.
    const csvPath = `/api/controls/IAM-08/history.csv?from=${history.from}&to=${history.to}`;
    const csv = await api.response(csvPath);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download these days as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`IAM-08-${history.from}-to-${history.to}.csv`);
    expect(readFileSync((await download.path())!, 'utf8')).toBe(await csv.text());

    // Another period, chosen on the page: its days, its summary and its CSV.
    const list = await api.get<{ reports: { date: string }[] }>('/api/report');
    const period = { from: list.reports[0]!.date, to: list.reports.at(-3)!.date };
    const chosen = await api.get<ControlHistory>(`/api/controls/IAM-08/history?from=${period.from}&to=${period.to}`);
    await page.getByLabel('From', { exact: true }).fill(period.from);
    await page.getByLabel('To', { exact: true }).fill(period.to);
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('timeline-heading').textContent(), settles)
      .toBe(`From ${period.from} to ${period.to}`);
    await expect
      .poll(() => strip.locator('span').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('title'))), settles)
      .toEqual(chosen.days.map(dayLabel));
    expect(await page.getByTestId('timeline-passing').textContent()).toBe(passingText(chosen));
    expect(await page.getByTestId('timeline-change').count()).toBe(chosen.changes.length);
    const [periodCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download these days as CSV' }).click(),
    ]);
    expect(periodCsv.suggestedFilename()).toBe(`IAM-08-${period.from}-to-${period.to}.csv`);
    expect(problems).toEqual([]);
    await close();
  });

  it("draws on the control's page the sample the API draws, then the auditor's own, and downloads it and its population", async () => {
    type ControlSample = components['schemas']['ControlSample'];
    const standard = await api.get<ControlSample>('/api/controls/IAM-08/sample');
    const { page, problems, close } = await openAt(browser(), '/controls/IAM-08', 'sample@example.com');
    await page.getByTestId('sample-summary').waitFor(settles);
    const sampled = () => page.getByTestId('sample-day').locator('a').allTextContents();
    expect(await sampled()).toEqual(standard.sample.map((day) => day.date));
    expect(await page.getByLabel('Sample size', { exact: true }).inputValue()).toBe(String(standard.size));
    expect(await page.getByLabel('Seed', { exact: true }).inputValue()).toBe(standard.seed);

    // The auditor's own size and seed: the days the API gives them, and both CSV files as it serves them.
    const query = `from=${standard.from}&to=${standard.to}&size=3&seed=auditor-seed`;
    const chosen = await api.get<ControlSample>(`/api/controls/IAM-08/sample?${query}`);
    expect(chosen.sample).toHaveLength(3);
    await page.getByLabel('Sample size', { exact: true }).fill('3');
    await page.getByLabel('Seed', { exact: true }).fill('auditor-seed');
    await page.getByRole('button', { name: 'Sample', exact: true }).click();
    await expect.poll(sampled, settles).toEqual(chosen.sample.map((day) => day.date));
    for (const rows of ['sample', 'population'] as const) {
      const csv = await api.response(`/api/controls/IAM-08/sample.csv?${query}&rows=${rows}`);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: `Download the ${rows} as CSV` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`IAM-08-${standard.from}-to-${standard.to}-${rows}.csv`);
      expect(readFileSync((await download.path())!, 'utf8')).toBe(await csv.text());
    }
    expect(problems).toEqual([]);
    await close();
  });

  it('refuses a period longer than a year with a 400 naming "from"', async () => {
    const path = '/api/controls/IAM-08/history?from=2024-01-01&to=2025-06-30';
    const answer = await api.call(path);
    expect(answer.status).toBe(400);
    const message = 'makes a period longer than 366 days';
    expect(answer.body).toEqual(
      expectedProblem(
        'invalid_request',
        `The query parameter "from" ${message}.`,
        '/api/controls/IAM-08/history',
        answer.headers.get('x-request-id')!,
        {
          errors: [{ in: 'query', name: 'from', message }],
        },
      ),
    );
  });
});
