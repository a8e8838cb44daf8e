/**
 * The auditor's request list in a real browser against the emulators: a CSV file chosen in the
 * Requests page's file input is imported and its requests listed with their control, period and
 * status; a file with an unknown control is refused with its line and column shown and nothing
 * listed; a request is answered with an evidence item by id, returned with a comment, answered
 * again and accepted, its history showing each step with who took it; the API then says the same.
 * Runs in both modes (scripts/test.ts `modeSuites`): who is recorded differs by mode.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditRequest, Report } from '../../hosting/src/lib/api-types.ts';
import { headingOf, mode, openAt, screenshot, settles, useBrowser } from '../support/browser.ts';
import { api } from '../support/api.ts';

const browser = useBrowser();

describe(`the Requests page, ${mode} mode`, () => {
  it('imports a CSV list, refuses a bad one with its line and column, and answers, returns and accepts a request', async () => {
    const report = await api.get<Report>('/api/report/today');
    const control = report.controls.find((result) => result.evidence.length > 0)!;
    const tag = randomUUID().slice(0, 8);
    const id = `PBC-3${tag}`;
    const email = 'auditor@example.com';
    const { page, problems, close } = await openAt(browser(), '/requests', email);
    await page.getByTestId('requests-import').waitFor(settles);
    expect(await headingOf(page)).toBe('Requests');

    // A bad list: refused whole, the fault shown with its line and column.
    const bad = `control,from,to,description\nZZZ-99,${report.date},${report.date},Unknown ${tag}\n`;
    await page.getByTestId('requests-file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByTestId('requests-import-button').click();
    await expect
      .poll(() => page.getByTestId('requests-import-faults').textContent(), settles)
      .toBe('Line 2, column control: row 1: "ZZZ-99" names no control in the catalog');

    const good = `id,control,from,to,description\n${id},${control.id},${report.date},${report.date},Browser request ${tag}\n`;
    await page.getByTestId('requests-file').setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await page.getByTestId('requests-import-button').click();
    await expect
      .poll(() => page.getByTestId('requests-import-outcome').textContent(), settles)
      .toBe('Imported 1 new, 0 already in the list.');
    const item = page.locator(`[data-id="${id}"]`);
    await item.waitFor(settles);
    expect(await item.getByTestId('request-period').textContent()).toBe(`${report.date} to ${report.date}`);
    expect(await item.getByTestId('request-status').textContent()).toBe('Open');

    // Answered with an evidence item by id, returned with a comment, answered again, accepted.
    await item.getByTestId('request-answer-ref').fill(control.evidence[0]!);
    await item.getByTestId('request-answer-add').click();
    await expect.poll(() => item.getByTestId('request-status').textContent(), settles).toBe('Answered, awaiting the auditor');
    await item.getByRole('button', { name: 'Return' }).click();
    await item.getByTestId('request-comment').fill('Show the whole year');
    await item.getByTestId('request-decide').click();
    await expect.poll(() => item.getByTestId('request-status').textContent(), settles).toBe('Returned');
    await item.getByTestId('request-answer-ref').fill(control.evidence[0]!);
    await item.getByRole('textbox', { name: 'Note' }).fill('The whole year');
    await item.getByTestId('request-answer-add').click();
    await expect.poll(() => item.getByTestId('request-status').textContent(), settles).toBe('Answered, awaiting the auditor');
    await item.getByRole('button', { name: 'Accept' }).click();
    await item.getByTestId('request-decide').click();
    await expect.poll(() => item.getByTestId('request-status').textContent(), settles).toBe('Accepted');
    const who = mode === 'protected' ? email : 'anonymous';
    await item.getByText(/^History/).click();
    const steps = await item.getByTestId('request-history').locator('li').allTextContents();
    expect(steps.map((step) => step.replace(/^.* UTC · /, ''))).toEqual([
      `created by ${who}`,
      `answered by ${who}`,
      `returned by ${who}: Show the whole year`,
      `answered by ${who}`,
      `accepted by ${who}`,
    ]);
    await screenshot(page, 'requests');

    const stored = await api.get<AuditRequest>(`/api/requests/${id}`);
    expect([stored.status, stored.answers]).toEqual([
      'accepted',
      [{ kind: 'evidence', ref: control.evidence[0]!, note: 'The whole year' }],
    ]);
    // The browser logs the 400 of the refused list; nothing else may go wrong.
    expect(problems.filter((line) => !line.includes('status of 400'))).toEqual([]);
    await close();
  });
});
