/**
 * The framework pages in a real browser against the emulators, on the demo's reports: the list
 * shows each framework's share, counts and coverage as `GET /api/frameworks` answers them; a
 * framework's page lists its requirements with the statuses `GET /api/frameworks/{framework}`
 * gives them and their controls, filters them by status from the address, groups its gaps and
 * leads to a control's page; the dashboard shows the shares its report carries and links to each
 * framework for that day; an unknown framework's page says what the API answered. In protected
 * mode the same, signed in.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { frameworkIds } from '@evident/contract';
import type { FrameworkDetail, FrameworkList, Report } from '../../hosting/src/lib/api-types.ts';
import { longDate, statusLabel } from '../../hosting/src/lib/format.ts';
import {
  coverageText,
  frameworkNames,
  gapGroups,
  inScopeText,
  requirementStatusLabel,
  requirementStatusOrder,
  scopeText,
  shareText,
} from '../../hosting/src/lib/frameworks.ts';
import { headingOf, mode, openAt, screenshot, settles, useBrowser } from '../support/browser.ts';
import { api } from '../support/api.ts';

const browser = useBrowser();

/** What the requirements table shows, row by row. */
const requirementRows = (page: Page) =>
  page.getByTestId('requirement-row').evaluateAll((rows) =>
    rows.map((row) => ({
      id: row.querySelector('td strong')?.textContent,
      text: row.querySelector('td')?.textContent?.trim(),
      status: row.querySelector('[data-testid=requirement-status]')?.textContent?.trim(),
      controls: Array.from(row.querySelectorAll('li')).map((item) => ({
        href: item.querySelector('a')?.getAttribute('href'),
        status: item.querySelector('span')?.textContent,
      })),
    })),
  );

/** The rows the table must show for `requirements`, as `requirementRows` reads them. */
const expectedRows = (requirements: FrameworkDetail['requirements']) =>
  requirements.map((requirement) => ({
    id: requirement.id,
    text: requirement.title ? `${requirement.id} ${requirement.title}` : requirement.id,
    status: requirementStatusLabel[requirement.status],
    controls: requirement.controls.map((control) => ({ href: `/controls/${control.id}`, status: statusLabel[control.status] })),
  }));

describe(`framework pages, ${mode} mode`, () => {
  it('lists each framework with the share, counts and coverage GET /api/frameworks gives, in its order', async () => {
    const { page, problems, close } = await openAt(browser(), '/frameworks', 'frameworks@example.com');
    await page.getByTestId('framework-soc2').waitFor(settles);
    const list = await api.get<FrameworkList>('/api/frameworks');
    expect(list.frameworks.map((framework) => framework.framework)).toEqual([...frameworkIds]);
    expect(await headingOf(page)).toBe('Frameworks');
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Frameworks' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await page.getByTestId('frameworks-date').textContent()).toContain(longDate(list.date));
    const cards = page.locator('[data-testid^="framework-"]:is(li)');
    expect(await cards.evaluateAll((items) => items.map((item) => item.dataset['testid']))).toEqual(
      list.frameworks.map((framework) => `framework-${framework.framework}`),
    );
    for (const framework of list.frameworks) {
      const card = page.getByTestId(`framework-${framework.framework}`);
      const link = card.getByRole('heading', { level: 2 }).getByRole('link');
      expect([await link.textContent(), await link.getAttribute('href')]).toEqual([
        framework.name,
        `/frameworks/${framework.framework}`,
      ]);
      expect(await card.getByTestId('framework-share').textContent()).toBe(shareText(framework.share));
      expect(await card.getByTestId('framework-met').textContent()).toBe(inScopeText(framework));
      expect(await card.getByTestId('framework-scope').textContent()).toBe(scopeText(framework.scope));
      expect(await card.getByTestId('framework-coverage').textContent()).toBe(coverageText(framework));
      for (const status of requirementStatusOrder) {
        expect(await card.getByTestId(`framework-count-${status}`).textContent()).toBe(String(framework.counts[status]));
      }
    }
    await screenshot(page, 'frameworks');
    expect(problems).toEqual([]);
    await close();
  });

  it("groups NIST's gaps by control family, in the baseline's order, each with its title", async () => {
    const { page, problems, close } = await openAt(browser(), '/frameworks/nist80053', 'nist@example.com');
    await page.getByTestId('requirement-row').first().waitFor(settles);
    const detail = await api.get<FrameworkDetail>('/api/frameworks/nist80053');
    expect(detail.gaps.length).toBeGreaterThan(0);
    const groups = gapGroups('nist80053', detail.gaps);
    await page.getByTestId('gaps').locator('summary').click();
    expect(await page.getByTestId('gaps').locator('dt').allTextContents()).toEqual(
      groups.map(({ group, gaps }) => `${group} (${gaps.length})`),
    );
    expect(await page.getByTestId('gap').evaluateAll((items) => items.map((item) => item.textContent?.trim()))).toEqual(
      detail.gaps.map((gap) => (gap.title ? `${gap.id} ${gap.title}` : gap.id)),
    );
    expect(problems).toEqual([]);
    await close();
  });

  it("shows SOC 2's requirements with the statuses the API gives, filters them by status, groups its gaps and leads to a control", async () => {
    const { page, problems, close } = await openAt(browser(), '/frameworks', 'soc2@example.com');
    await page.getByTestId('framework-soc2').getByRole('link').click();
    await page.getByTestId('requirement-row').first().waitFor(settles);
    expect(new URL(page.url()).pathname).toBe('/frameworks/soc2');
    const detail = await api.get<FrameworkDetail>('/api/frameworks/soc2');
    expect(await headingOf(page)).toBe(detail.name);
    expect(await page.getByTestId('framework-share').textContent()).toBe(shareText(detail.share));
    expect(await page.getByTestId('framework-met').textContent()).toBe(inScopeText(detail));
    expect(await page.getByTestId('framework-scope').textContent()).toBe(
      `${scopeText(detail.scope)} Change the scope in Settings.`,
    );
    // Every requirement no control covers says so in its row.
    expect(await page.getByTestId('uncovered').count()).toBe(detail.gaps.length);
    expect(await page.getByTestId('framework-coverage').textContent()).toBe(
      coverageText({ ...detail, gaps: detail.gaps.length }),
    );
    expect(await requirementRows(page)).toEqual(expectedRows(detail.requirements));
    // The trend's table for screen readers has a row per day with a share.
    expect(await page.locator('figcaption tbody tr').count()).toBe(detail.trend.filter((day) => day.share !== null).length);

    // SOC 2's common criteria are all covered: with the demo's scope there is no gap to list
    // (a wider scope adds some; the gaps' grouping is checked on NIST below).
    expect(await page.getByTestId('gaps').count()).toBe(detail.gaps.length > 0 ? 1 : 0);
    await screenshot(page, 'framework-soc2');

    // A status the framework has some requirements in, but not all: the filter shows those only,
    // says how many, keeps itself in the address, and survives a reload.
    const status = requirementStatusOrder.find(
      (candidate) => detail.counts[candidate] > 0 && detail.counts[candidate] < detail.requirements.length,
    )!;
    expect(status).toBeDefined();
    const filtered = detail.requirements.filter((requirement) => requirement.status === status);
    await page.getByLabel('Status').selectOption(status);
    await expect.poll(() => page.getByTestId('requirement-row').count(), settles).toBe(filtered.length);
    expect(await requirementRows(page)).toEqual(expectedRows(filtered));
    expect(await page.getByTestId('requirement-count').textContent()).toBe(
      `${filtered.length} of ${detail.requirements.length} requirements`,
    );
    expect(new URL(page.url()).search).toBe(`?status=${status}`);
    await page.reload();
    await page.getByTestId('requirement-row').first().waitFor(settles);
    expect(await page.getByLabel('Status').inputValue()).toBe(status);
    expect(await requirementRows(page)).toEqual(expectedRows(filtered));

    // A control's link opens the control's page.
    const control = filtered.find((requirement) => requirement.controls.length > 0)!.controls[0]!;
    await page
      .getByRole('link', { name: `${control.id} ${control.title}` })
      .first()
      .click();
    await expect.poll(() => headingOf(page), settles).toBe(`${control.id} ${control.title}`);
    expect(new URL(page.url()).pathname).toBe(`/controls/${control.id}`);
    expect(problems).toEqual([]);
    await close();
  });

  it("shows each framework's share on the dashboard, linking to its page for the report's day", async () => {
    const { page, problems, close } = await openAt(browser(), '/', 'dashboard-readiness@example.com');
    const readiness = page.getByTestId('readiness');
    await readiness.waitFor(settles);
    const report = await api.get<Report>('/api/report/today');
    for (const framework of frameworkIds) {
      expect(await readiness.getByTestId(`readiness-${framework}`).textContent()).toBe(
        shareText(report.summary.readiness![framework]!),
      );
    }
    expect(await readiness.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(
      frameworkIds.map((framework) => `/frameworks/${framework}`),
    );
    await screenshot(page, 'dashboard-readiness');

    // A past day's dashboard links to that day's readiness, which the framework page then shows.
    const history = await api.get<{ reports: { date: string }[] }>('/api/report');
    const yesterday = history.reports.at(-2)!.date;
    await page.getByRole('link', { name: `← ${yesterday}` }).click();
    await expect.poll(() => headingOf(page), settles).toBe(longDate(yesterday));
    const past = await api.get<FrameworkDetail>(`/api/frameworks/iso27001?date=${yesterday}`);
    const link = readiness.getByRole('link', { name: frameworkNames.iso27001 });
    expect(await link.getAttribute('href')).toBe(`/frameworks/iso27001?date=${yesterday}`);
    await link.click();
    await expect.poll(() => headingOf(page), settles).toBe(past.name);
    await page.getByTestId('requirement-row').first().waitFor(settles);
    expect(await page.getByText('met in the report of').textContent()).toBe(`met in the report of ${longDate(yesterday)}`);
    expect(await page.getByTestId('framework-share').textContent()).toBe(shareText(past.share));
    expect(await requirementRows(page)).toEqual(expectedRows(past.requirements));
    // Back to the list keeps the day.
    await page.getByRole('link', { name: '← All frameworks' }).click();
    await expect.poll(() => page.getByTestId('frameworks-date').textContent(), settles).toContain(longDate(yesterday));
    expect(new URL(page.url()).search).toBe(`?date=${yesterday}`);
    expect(problems).toEqual([]);
    await close();
  });

  it('says what the API answers for a framework Evident does not assess', async () => {
    const answer = await api.call<{ code: string; detail: string }>('/api/frameworks/hipaa');
    expect(answer.status).toBe(404);
    const problem = answer.body;
    expect(problem.code).toBe('framework_not_found');
    const { page, problems, close } = await openAt(browser(), '/frameworks/hipaa', 'unknown-framework@example.com');
    await expect.poll(() => page.getByTestId('framework-problem').textContent(), settles).toBe(problem.detail);
    expect(await headingOf(page)).toBe('hipaa');
    expect(await page.getByTestId('framework-problem').getAttribute('role')).toBe('alert');
    // The browser logs the 404 it fetched; nothing else may go wrong.
    expect(problems.filter((line) => !line.includes('status of 404'))).toEqual([]);
    await close();
  });
});
