/**
 * The settings page in a real browser against the emulators: a person names an owner for a
 * control and changes the SOC 2 categories with a reason, saves, and sees the next version head
 * the history; a save from a page whose version is no longer the newest (someone saved through
 * the API meanwhile) is refused, says who saved which version, keeps every edit, and offers
 * their version. An analysis published for today then names the newest version and its owner,
 * the dashboard links to that version, and yesterday's report is unchanged. In protected mode
 * the same, signed in; in public mode the page says every change is recorded as anonymous.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { soc2Categories } from '@evident/contract';
import type { Report, ReportList, SettingsVersion } from '../../hosting/src/lib/api-types.ts';
import { settingsVersionPath, settingsVersionText } from '../../hosting/src/lib/settings-versions.ts';
import { api } from '../support/api.ts';
import { headingOf, mode, openAt, screenshot, settles, useBrowser } from '../support/browser.ts';
import { until } from '../support/until.ts';

const browser = useBrowser();

const person = 'settings-web@example.com';
const owner = { email: `owner-${mode}@example.com`, role: 'IT lead' };

let before: SettingsVersion;
let yesterday: { date: string; report: Report };

beforeAll(async () => {
  before = await api.get<SettingsVersion>('/api/settings');
  const { reports } = await api.get<ReportList>('/api/report');
  const date = reports.at(-2)!.date;
  yesterday = { date, report: await api.get<Report>(`/api/report/${date}`) };
});

// The settings as they were, saved again, so the suites after this one start from them.
afterAll(async () => {
  const newest = await api.get<SettingsVersion>('/api/settings');
  await api.json('/api/settings', {
    method: 'PUT',
    body: { basedOn: newest.version, reason: 'The browser test puts the settings back.', settings: before.settings },
  });
});

const saveThroughTheApi = (basedOn: number | null, reason: string, settings = before.settings) =>
  api.call<SettingsVersion & { detail?: string }>('/api/settings', { method: 'PUT', body: { basedOn, reason, settings } });

describe(`settings page, ${mode} mode`, () => {
  it('saves an owner and the SOC 2 categories as the next version, keeps edits through a conflict, and the next report uses it', async () => {
    const { page, problems, close } = await openAt(browser(), '/settings', person);
    const current = page.getByTestId('settings-current');
    await current.waitFor(settles);
    expect(await headingOf(page)).toBe('Settings');
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await page.getByTestId('settings-public-mode').count()).toBe(mode === 'public' ? 1 : 0);
    const first = (before.version ?? 0) + 1;
    if (before.version === null) expect(await current.textContent()).toBe('Defaults — nothing saved yet.');
    else expect(await current.textContent()).toMatch(new RegExp(`^Version ${before.version}, saved by `));

    // An owner for IAM-01 and Availability in (or out of) the audit, with why.
    await page.getByTestId('add-owner-controls').click();
    const row = page.getByTestId('owners-controls').getByTestId('owner-row').last();
    await row.getByLabel('Control', { exact: true }).selectOption('IAM-01');
    await row.getByLabel('E-mail address', { exact: true }).fill(owner.email);
    await row.getByLabel('Role', { exact: true }).fill(owner.role);
    const availability = !before.settings.scope.soc2.categories.includes('availability');
    await page.getByTestId('soc2-availability').setChecked(availability);
    const reason = 'Grace owns access reviews; Availability joins the audit.';
    await page.getByLabel('Why', { exact: true }).fill(reason);
    await page.getByTestId('save-settings').click();

    await expect
      .poll(() => page.getByTestId('settings-notice').textContent(), settles)
      .toBe(`Saved version ${first}. The next report or analysis uses it.`);
    await expect
      .poll(() => page.getByTestId('settings-version-row').first().locator('td').first().textContent(), settles)
      .toBe(`Version ${first}`);
    expect(await current.textContent()).toMatch(new RegExp(`^Version ${first}, saved by .*: ${reason}$`));
    const saved = await api.get<SettingsVersion>('/api/settings');
    const categories = soc2Categories.filter(
      (category) =>
        category === 'security' ||
        (category === 'availability' ? availability : before.settings.scope.soc2.categories.includes(category)),
    );
    expect(saved).toMatchObject({
      version: first,
      reason,
      savedBy: mode === 'protected' ? { email: person } : { uid: 'anonymous' },
      settings: {
        ...before.settings,
        owners: {
          ...before.settings.owners,
          controls: {
            ...before.settings.owners.controls,
            'IAM-01': [...(before.settings.owners.controls['IAM-01'] ?? []), owner],
          },
        },
        scope: { ...before.settings.scope, soc2: { ...before.settings.scope.soc2, categories } },
      },
    });
    await screenshot(page, 'settings');

    // Someone else saves meanwhile; this page's next save is refused and loses nothing.
    const theirs = await saveThroughTheApi(first, 'Another tab saves first.', saved.settings);
    expect(theirs.status).toBe(200);
    const newest = first + 1;
    const stale = await saveThroughTheApi(first, 'The same stale save, to read its words.', saved.settings);
    expect([stale.status, (stale.body as { code?: string }).code]).toEqual([409, 'settings_changed']);
    const edited = page.getByTestId('owners-controls').getByTestId('owner-row').last();
    await edited.getByLabel('Role', { exact: true }).fill('Security lead');
    await page.getByLabel('Why', { exact: true }).fill('Grace leads security now.');
    await page.getByTestId('save-settings').click();
    const conflict = page.getByTestId('settings-conflict');
    await conflict.waitFor(settles);
    expect(await conflict.getAttribute('role')).toBe('alert');
    expect(await conflict.textContent()).toContain(stale.body.detail!);
    expect(await edited.getByLabel('Role', { exact: true }).inputValue()).toBe('Security lead');
    expect(await edited.getByLabel('E-mail address', { exact: true }).inputValue()).toBe(owner.email);
    expect(await page.getByLabel('Why', { exact: true }).inputValue()).toBe('Grace leads security now.');
    expect((await api.get<SettingsVersion>('/api/settings')).version).toBe(newest);
    await screenshot(page, 'settings-conflict');

    // Their version replaces the edits, as the conflict said it would.
    await page.getByTestId('load-newest').click();
    await expect.poll(() => current.textContent(), settles).toMatch(new RegExp(`^Version ${newest}, saved by `));
    expect(await page.getByTestId('settings-conflict').count()).toBe(0);
    const reloaded = page.getByTestId('owners-controls').getByTestId('owner-row').last();
    expect(await reloaded.getByLabel('Role', { exact: true }).inputValue()).toBe(owner.role);

    // Today's report, published again, names the newest version and the owner; yesterday's is as it was.
    const started = await api.json<{ id: string }>('/api/analyses', { method: 'POST', body: { publish: true }, status: 202 });
    const report = await until(
      `today's report to be the one run ${started.id} published`,
      () => api.get<Report>('/api/report/today'),
      (body) => body.runId === started.id,
    );
    expect(report.settingsVersion).toBe(newest);
    expect(report.controls.find((control) => control.id === 'IAM-01')!.owners).toContainEqual(owner);
    expect(await api.get<Report>(`/api/report/${yesterday.date}`)).toEqual(yesterday.report);

    // The dashboard names the version its report used, and leads to it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    const link = page.getByTestId('report-settings');
    await link.waitFor(settles);
    expect([await link.textContent(), await link.getAttribute('href')]).toEqual([
      settingsVersionText(newest),
      settingsVersionPath(newest),
    ]);
    await link.click();
    await expect.poll(() => headingOf(page), settles).toBe(`Settings version ${newest}`);
    await page.getByTestId('settings-read-only').waitFor(settles);
    expect(await page.getByTestId('settings-read-only').textContent()).toContain(`IAM-01: ${owner.role} (${owner.email})`);

    // The control's page shows the owner as a person, with a mail link.
    await page.goto(new URL('/controls/IAM-01', page.url()).href);
    const people = page.getByTestId('control-owner').getByTestId('owner-person');
    await people.last().waitFor(settles);
    expect(await people.last().textContent()).toBe(`${owner.role}: ${owner.email}`);
    expect(await people.last().getByRole('link').getAttribute('href')).toBe(`mailto:${owner.email}`);

    // The refused save is the only failure the browser logs.
    expect(problems.filter((line) => !line.includes('status of 409'))).toEqual([]);
    await close();
  });

  it("yesterday's dashboard names the version its report was made with", async () => {
    const { page, problems, close } = await openAt(browser(), `/reports/${yesterday.date}`, person);
    const link = page.getByTestId('report-settings');
    if (yesterday.report.settingsVersion === undefined) {
      // A report made before settings existed names none.
      await page.getByTestId('score').waitFor(settles);
      expect(await link.count()).toBe(0);
    } else {
      await link.waitFor(settles);
      expect(await link.textContent()).toBe(settingsVersionText(yesterday.report.settingsVersion));
    }
    expect(problems).toEqual([]);
    await close();
  });
});
