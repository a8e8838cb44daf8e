/**
 * Owners, due dates and the OSCAL exports of API 1.5.0 in a real browser against the emulators,
 * on the demo's reports: the dashboard lists the open work with each control's status, owner and
 * due date as the API's report gives them, overdue first, and counts the overdue; a report made
 * before due dates shows none of it; the controls list's owner and due columns match
 * `GET /api/controls` and its overdue filter lives in the address; a control's page names its
 * owner, and while it is open since when and by when; the POA&M and the component definition
 * download as the API serves them. The demo leaves nothing overdue (its critical controls are
 * fixed within their week), so the overdue cases alter one API answer in the browser. Last, the
 * dashboard's first view fetches no other page's code. In protected mode the same, signed in.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ControlDetail, ControlList, Report } from '../../hosting/src/lib/api-types.ts';
import { dueText, moreText, openWork, openWorkShown } from '../../hosting/src/lib/due-dates.ts';
import { longDate, statusLabel } from '../../hosting/src/lib/format.ts';
import { headingOf, hosting, mode, openAt, openPage, screenshot, settles, useBrowser, visit } from '../support/browser.ts';
import { api } from '../support/api.ts';

const browser = useBrowser();

const oneLine = (text: string | null | undefined) => text?.replace(/\s+/g, ' ').trim();

/** What the dashboard's open-work table shows, row by row. */
const openWorkRows = (page: Page) =>
  page.getByTestId('open-work-row').evaluateAll((rows) =>
    rows.map((row) => {
      const cells = Array.from(row.querySelectorAll('td'), (cell) => cell.textContent?.replace(/\s+/g, ' ').trim());
      return {
        href: row.querySelector('a')?.getAttribute('href'),
        control: cells[0],
        status: cells[1],
        owner: cells[2],
        due: cells[3],
        overdue: row.querySelector('td:last-child')?.classList.contains('overdue') ?? false,
      };
    }),
  );

/** The rows the dashboard must show for `report`, as `openWorkRows` reads them. */
const expectedOpenWork = (report: Report) =>
  openWork(report.controls)
    .slice(0, openWorkShown)
    .map((control) => ({
      href: `/controls/${control.id}`,
      control: `${control.id} ${control.title}`,
      status: statusLabel[control.status],
      owner: control.owner,
      due: `${control.dueDate}, ${dueText(control.dueDate, report.date)}`,
      overdue: control.overdue === true,
    }));

/** Overdue rows first, then by due date: checked on the page's own order, not by re-sorting. */
function expectActOrder(rows: { due?: string; overdue: boolean }[]): void {
  const firstOnTime = rows.findIndex((row) => !row.overdue);
  if (firstOnTime >= 0) expect(rows.slice(firstOnTime).every((row) => !row.overdue)).toBe(true);
  for (const group of [rows.filter((row) => row.overdue), rows.filter((row) => !row.overdue)]) {
    const dates = group.map((row) => row.due!.slice(0, 10));
    expect(dates).toEqual([...dates].sort());
  }
}

/** Serves the browser today's report as `change` makes it, instead of as the API stores it. */
async function alterToday(page: Page, change: (report: Report) => Report): Promise<void> {
  await page.route(`${hosting}/api/report/today`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: change((await response.json()) as Report) });
  });
}

/** The report as it would read if its least urgent open control had been due `days` days before its day. */
function withOneOverdue(report: Report, days: number): { report: Report; id: string } {
  const last = openWork(report.controls).at(-1)!;
  const due = new Date(Date.parse(`${report.date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
  const controls = report.controls.map((control) =>
    control.id === last.id ? { ...control, openSince: due, dueDate: due, overdue: true } : control,
  );
  return { report: { ...report, summary: { ...report.summary, overdue: 1 }, controls }, id: last.id };
}

/** The report as one made before API 1.5.0 reads: no owners, due dates or overdue count. */
function beforeDueDates(report: Report): Report {
  const { overdue: _overdue, ...summary } = report.summary;
  const controls = report.controls.map(
    ({ owner: _owner, openSince: _since, dueDate: _due, overdue: _late, ...control }) => control,
  );
  return { ...report, summary, controls };
}

describe(`owners and due dates in the web app, ${mode} mode`, () => {
  it("lists today's open work with the owners and due dates of the API's report, overdue first, and counts the overdue", async () => {
    const { page, problems, close } = await openAt(browser(), '/', 'open-work@example.com');
    const card = page.getByTestId('open-work');
    await card.waitFor(settles);
    const report = await api.get<Report>('/api/report/today');
    const open = openWork(report.controls);
    expect(open.length).toBeGreaterThan(0);
    expect(await openWorkRows(page)).toEqual(expectedOpenWork(report));
    expectActOrder(await openWorkRows(page));
    expect(await page.getByTestId('count-overdue').textContent()).toBe(String(report.summary.overdue));
    // The rest are in the controls list, which the card links to.
    const more = moreText(open.length);
    expect(oneLine(await card.locator('p').last().textContent())).toBe(
      `${more ? `${more}. ` : ''}Every control's owner and latest due date`,
    );
    expect(await card.getByRole('link', { name: "Every control's owner and latest due date" }).getAttribute('href')).toBe(
      '/controls',
    );
    await screenshot(page, 'dashboard-open-work');

    // A past day's open work is counted from that day, not from today.
    const history = await api.get<{ reports: { date: string }[] }>('/api/report');
    const yesterday = history.reports.at(-2)!.date;
    await page.getByRole('link', { name: `← ${yesterday}` }).click();
    await expect.poll(() => headingOf(page), settles).toBe(longDate(yesterday));
    await card.waitFor(settles);
    expect(await openWorkRows(page)).toEqual(expectedOpenWork(await api.get<Report>(`/api/report/${yesterday}`)));
    expect(problems).toEqual([]);
    await close();
  });

  it('puts an overdue control first, says by how many days, and counts it', async () => {
    const report = await api.get<Report>('/api/report/today');
    const altered = withOneOverdue(report, 3);
    const opened = await openPage(browser());
    await alterToday(opened.page, () => altered.report);
    await visit(opened.page, '/', 'overdue@example.com');
    const { page, problems, close } = opened;
    await page.getByTestId('open-work').waitFor(settles);
    const rows = await openWorkRows(page);
    expect(rows).toEqual(expectedOpenWork(altered.report));
    expect(rows[0]).toMatchObject({ href: `/controls/${altered.id}`, overdue: true });
    expect(rows[0]!.due).toMatch(/, 3 days overdue$/);
    expect(rows.slice(1).every((row) => !row.overdue)).toBe(true);
    expectActOrder(rows);
    expect(await page.getByTestId('count-overdue').textContent()).toBe('1');
    await screenshot(page, 'dashboard-overdue');
    expect(problems).toEqual([]);
    await close();
  });

  it('shows no open work and no overdue count for a report made before due dates', async () => {
    const opened = await openPage(browser());
    await alterToday(opened.page, beforeDueDates);
    await visit(opened.page, '/', 'old-report@example.com');
    const { page, problems, close } = opened;
    await page.getByTestId('score').waitFor(settles);
    expect(await page.getByTestId('open-work').count()).toBe(0);
    expect(await page.getByTestId('count-overdue').count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });

  it('gives each control the owner and due date GET /api/controls gives, and keeps the overdue filter in the address', async () => {
    const opened = await openPage(browser());
    // One control made overdue in the browser's copy of the list, so the filter has one to keep.
    const list = await api.get<ControlList>('/api/controls');
    const late = list.controls.find((control) => control.latest?.dueDate)!;
    await opened.page.route(`${hosting}/api/controls`, async (route) => {
      const response = await route.fetch();
      const answer = (await response.json()) as ControlList;
      const controls = answer.controls.map((control) =>
        control.id === late.id ? { ...control, latest: { ...control.latest!, overdue: true } } : control,
      );
      await route.fulfill({ response, json: { ...answer, controls } });
    });
    await visit(opened.page, '/controls', 'controls-owners@example.com');
    const { page, problems, close } = opened;
    await page.getByTestId('control-row').first().waitFor(settles);

    const rows = () =>
      page.getByTestId('control-row').evaluateAll((items) =>
        items.map((row) => ({
          id: row.querySelector('strong')?.textContent,
          owner: row.querySelector('[data-testid=control-owner]')?.textContent,
          due: row.querySelector('[data-testid=control-due]')?.textContent?.replace(/\s+/g, ' ').trim(),
          overdue: row.querySelector('[data-testid=control-due]')?.classList.contains('overdue'),
        })),
      );
    const expected = list.controls.map((control) => ({
      id: control.id,
      owner: control.owner,
      due: control.latest?.dueDate ? `${control.latest.dueDate}, ${dueText(control.latest.dueDate, control.latest.date)}` : '—',
      overdue: control.id === late.id,
    }));
    expect(await rows()).toEqual(expected);
    // On a phone each cell is labelled with its column.
    expect(
      await page
        .getByTestId('control-row')
        .first()
        .locator('td[data-label]')
        .evaluateAll((cells) => cells.map((cell) => cell.dataset['label'])),
    ).toEqual(['Family', 'Severity', 'Status', 'Owner', 'Due']);

    await page.getByLabel('Overdue only').check();
    await expect.poll(() => page.getByTestId('control-row').count(), settles).toBe(1);
    expect(await rows()).toEqual(expected.filter((row) => row.id === late.id));
    expect(new URL(page.url()).search).toBe('?overdue=true');
    await page.reload();
    await page.getByTestId('control-row').first().waitFor(settles);
    expect(await page.getByLabel('Overdue only').isChecked()).toBe(true);
    expect(await rows()).toEqual(expected.filter((row) => row.id === late.id));
    // With a filter the API applies as well, the address keeps both.
    await page.getByLabel('Status').selectOption('passing');
    await page.getByTestId('no-controls').waitFor(settles);
    expect(new URL(page.url()).search).toBe('?status=passing&overdue=true');
    expect(problems).toEqual([]);
    await close();
  });

  it("names an open control's owner, since when it is open and by when it is due, and only the owner of a passing one", async () => {
    const list = await api.get<ControlList>('/api/controls');
    const open = list.controls.find((control) => control.latest?.dueDate)!;
    const passing = list.controls.find((control) => control.latest?.status === 'passing')!;
    const { page, problems, close } = await openAt(browser(), `/controls/${open.id}`, 'control-owner@example.com');
    const detail = await api.get<ControlDetail>(`/api/controls/${open.id}`);
    await expect.poll(() => headingOf(page), settles).toBe(`${detail.id} ${detail.title}`);
    const followUp = page.getByTestId('control-follow-up');
    expect(await followUp.getByTestId('control-owner').textContent()).toBe(detail.owner);
    expect(await followUp.getByTestId('control-open-since').textContent()).toBe(detail.result!.openSince);
    expect(await followUp.getByTestId('control-due-date').textContent()).toBe(detail.latest!.dueDate);
    expect(await followUp.getByTestId('control-due').textContent()).toBe(dueText(detail.latest!.dueDate!, detail.latest!.date));
    expect(oneLine(await followUp.textContent())).toBe(
      `Owner: ${detail.owner} · open since ${detail.result!.openSince} · due ${detail.latest!.dueDate}, ${dueText(detail.latest!.dueDate!, detail.latest!.date)}`,
    );
    await screenshot(page, 'control-owner-open');

    await page.goto(`${hosting}/controls/${passing.id}`);
    const passed = await api.get<ControlDetail>(`/api/controls/${passing.id}`);
    await expect.poll(() => headingOf(page), settles).toBe(`${passed.id} ${passed.title}`);
    expect(oneLine(await followUp.textContent())).toBe(`Owner: ${passed.owner}`);
    expect(await followUp.locator('time').count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });
});

describe(`evidence going stale, ${mode} mode`, () => {
  it("lists on a control's page the evidence its result says goes stale, each with the day, soonest first", async () => {
    // Today's report says which results have evidence going stale; the page shows its control's detail.
    const report = await api.get<Report>('/api/report/today');
    const id = report.controls.find((control) => (control.expiring?.length ?? 0) > 0)!.id;
    const relying = await api.get<ControlDetail>(`/api/controls/${id}`);
    const expiring = relying.result!.expiring!;
    expect(expiring.length).toBeGreaterThan(0);
    expect([...expiring].sort((a, b) => (a.staleAt < b.staleAt ? -1 : 1))).toEqual(expiring);
    const { page, problems, close } = await openAt(browser(), `/controls/${relying.id}`, 'going-stale@example.com');
    await expect.poll(() => headingOf(page), settles).toBe(`${relying.id} ${relying.title}`);
    const items = page.getByTestId('expiring-evidence').locator('li');
    expect(await items.count()).toBe(expiring.length);
    expect(await items.first().textContent()).toContain(expiring[0]!.subject);
    expect(await items.first().locator('time').getAttribute('datetime')).toBe(expiring[0]!.staleAt);
    await screenshot(page, 'control-going-stale');
    expect(problems).toEqual([]);
    await close();
  });
});

describe(`the OSCAL downloads, ${mode} mode`, () => {
  it("downloads a day's POA&M from its report page as the API serves it", async () => {
    const history = await api.get<{ reports: { date: string }[] }>('/api/report');
    const day = history.reports.at(-2)!.date;
    const { page, problems, close } = await openAt(browser(), `/reports/${day}`, 'poam@example.com');
    await expect.poll(() => headingOf(page), settles).toBe(longDate(day));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'POA&M (OSCAL)', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`evident-poam-${day}.json`);
    const served = Buffer.from(await (await api.response(`/api/report/${day}/poam`)).arrayBuffer());
    expect(readFileSync((await download.path())!).equals(served)).toBe(true);
    expect(Object.keys(JSON.parse(served.toString('utf8')) as object)).toEqual(['plan-of-action-and-milestones']);
    expect(problems).toEqual([]);
    await close();
  });

  it('downloads the component definition from the controls page as the API serves it', async () => {
    const { page, problems, close } = await openAt(browser(), '/controls', 'component-definition@example.com');
    await page.getByTestId('control-count').waitFor(settles);
    // The document names the instant it is made, so the bytes to compare are those the API gave the page.
    const answered: Buffer[] = [];
    await page.route(`${hosting}/api/controls/oscal`, async (route) => {
      const response = await route.fetch();
      answered.push(await response.body());
      await route.fulfill({ response });
    });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Component definition (OSCAL)', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('evident-component-definition.json');
    const saved = readFileSync((await download.path())!);
    expect(answered).toHaveLength(1);
    expect(saved.equals(answered[0]!)).toBe(true);
    // And it is the catalog the API describes to anyone, but for that instant.
    type Definition = { 'component-definition': { metadata: Record<string, unknown> } };
    const undated = (document: Definition) => {
      const { 'last-modified': _made, ...metadata } = document['component-definition'].metadata;
      return { ...document['component-definition'], metadata };
    };
    expect(undated(JSON.parse(saved.toString('utf8')) as Definition)).toEqual(
      undated(await api.get<Definition>('/api/controls/oscal')),
    );
    expect(problems).toEqual([]);
    await close();
  });
});

describe(`the pages' code, ${mode} mode`, () => {
  it("fetches no other page's code for the dashboard, and the controls page's when it is first opened", async () => {
    const opened = await openPage(browser());
    const scripts: string[] = [];
    opened.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await visit(opened.page, '/', 'page-code@example.com');
    const { page, problems, close } = opened;
    await page.getByTestId('score').waitFor(settles);
    expect(scripts.filter((path) => /\/assets\/[A-Za-z]+View-/.test(path))).toEqual([]);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Controls' }).click();
    await page.getByTestId('control-count').waitFor(settles);
    expect(scripts.filter((path) => /\/assets\/ControlsView-/.test(path))).toHaveLength(1);
    // Back and forth: the code fetched once serves every later visit.
    await page.goBack();
    await page.getByTestId('score').waitFor(settles);
    await page.goForward();
    await page.getByTestId('control-count').waitFor(settles);
    expect(scripts.filter((path) => /\/assets\/ControlsView-/.test(path))).toHaveLength(1);
    expect(problems).toEqual([]);
    await close();
  });
});
