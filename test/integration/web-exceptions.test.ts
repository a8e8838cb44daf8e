/**
 * Accepting a risk in a real browser against the emulators, four eyes: on a demo control failing
 * for one subject, the control page's form requests an exception the API then lists, awaiting
 * approval, with that subject, justification, expiry and the signed-in requester, and shows the
 * server's field error for an expiry that is not after today; in protected mode the requester's
 * own Approve is refused in the server's words. The exceptions page lists another person's
 * request under "Awaiting approval" and approves it there (in public mode next to a note that
 * the server cannot tell people apart, and the review says it is not independent); it lists one
 * expiring within 30 days under "Expiring soon", revokes one (the API then says revoked) and
 * shows the 409 detail when asked to revoke one already revoked elsewhere. Every exception made
 * here is revoked after. Runs in both modes (scripts/test.ts `modeSuites`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Exception, ExceptionList, Report } from '../../hosting/src/lib/api-types.ts';
import { addDays } from '../../hosting/src/lib/due-dates.ts';
import { headingOf, mode, openAt, screenshot, settles, useBrowser } from '../support/browser.ts';
import { anotherPerson } from '../support/another-person.ts';
import { api } from '../support/api.ts';

const browser = useBrowser();

/** Every exception this file made, revoked after it (a second revocation's 409 is fine). */
const made = new Set<string>();
afterAll(async () => {
  for (const id of made) await api.call(`/api/exceptions/${id}/revoke`, { method: 'POST', body: {} });
});

/**
 * The `nth` control of today's report (in id order) that fails for one subject, with that subject.
 * The first two tests request 3 exceptions for the first one, as many as a subject may have, so
 * the third takes the next.
 */
async function failingSubject(nth = 0): Promise<{ controlId: string; subject: string }> {
  const report = await api.get<Report>('/api/report/today');
  const failing = report.controls.flatMap((control) => {
    const finding = control.findings.find((candidate) => candidate.outcome === 'fail' && candidate.subject !== undefined);
    return finding ? [{ controlId: control.id, subject: finding.subject! }] : [];
  });
  if (!failing[nth]) throw new Error(`No demo control number ${nth + 1} fails for one subject`);
  return failing[nth];
}

describe(`accepting a risk in the web app, ${mode} mode`, () => {
  it("requests an exception from the control page's form, showing the server's field error first", async () => {
    const { controlId, subject } = await failingSubject();
    const { today } = await api.get<ExceptionList>('/api/exceptions');
    const email = 'requester@example.com';
    const { page, problems, close } = await openAt(browser(), `/controls/${controlId}`, email);
    const section = page.getByTestId('control-exceptions');
    const form = section.getByRole('form', { name: 'Request an exception' });
    await form.waitFor(settles);
    expect(await headingOf(page)).toMatch(new RegExp(`^${controlId} `));
    // The date input offers tomorrow to a year ahead, from the list's day.
    await expect.poll(() => form.getByLabel('Expiry date').getAttribute('min'), settles).toBe(addDays(today, 1));
    expect(await form.getByLabel('Expiry date').getAttribute('max')).toBe(addDays(today, 366));
    expect(await form.getByLabel('Subject').locator('option').allTextContents()).toContain(subject);

    // An expiry that is not after today: the server says why, under the field.
    const justification = `Accepted while the vendor ships a fix (${mode}).`;
    const refused = await api.call<{ errors: { pointer?: string; message: string }[] }>('/api/exceptions', {
      body: { controlId, subject, justification, expiresOn: today },
    });
    expect(refused.status).toBe(400);
    const message = refused.body.errors.find((error) => error.pointer === '/expiresOn')!.message;
    await form.getByLabel('Subject').selectOption(subject);
    await form.getByLabel('Justification').fill(justification);
    await form.getByLabel('Expiry date').fill(today);
    await form.getByRole('button', { name: 'Request the exception' }).click();
    await expect
      .poll(() => section.getByTestId('exception-expiresOn-error').textContent(), settles)
      .toBe(`Expiry date ${message}`);
    expect(await form.getByLabel('Expiry date').getAttribute('aria-invalid')).toBe('true');
    expect(await section.getByTestId('exception-problem').getAttribute('role')).toBe('alert');

    // A valid one is requested, said to count once another person approves it, and listed on the page.
    const expiresOn = addDays(today, 10);
    await form.getByLabel('Expiry date').fill(expiresOn);
    await form.getByRole('button', { name: 'Request the exception' }).click();
    await expect.poll(() => section.getByTestId('exception-created').textContent(), settles).toContain('someone other than you');
    expect(await section.getByTestId('exception-expiresOn-error').count()).toBe(0);
    const listed = await api.get<ExceptionList>(`/api/exceptions?control=${controlId}&state=requested`);
    const created = listed.items.find((item) => item.justification === justification)!;
    expect(created).toBeDefined();
    made.add(created.id);
    expect(created).toMatchObject({ controlId, subject, justification, expiresOn, state: 'requested', review: null });
    if (mode === 'protected') expect(created.requestedBy.email).toBe(email);
    else expect(created.requestedBy.uid).toBe('anonymous');
    const item = section.locator(`[data-exception="${created.id}"]`);
    await item.waitFor(settles);
    expect(await item.getByTestId('exception-subject').textContent()).toBe(subject);
    expect(await item.getByTestId('exception-justification').textContent()).toBe(justification);
    expect((await item.getByTestId('exception-expiry').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      `until ${expiresOn}, expires in 10 days`,
    );
    expect(await item.getByTestId('exception-awaiting').textContent()).toBe('awaiting approval');
    await screenshot(page, 'control-exceptions');
    if (mode === 'protected') {
      // One's own request: the server refuses the approval, and the page says so in its words.
      await item.getByRole('button', { name: 'Approve' }).click();
      await item.getByRole('button', { name: 'Confirm approval' }).click();
      await expect
        .poll(() => item.getByTestId('review-problem').textContent(), settles)
        .toBe(
          `The exception could not be approved. You requested the exception ${created.id}; another person approves or refuses it.`,
        );
    }
    // The browser logs the 400 (and the 403) it fetched; nothing else may go wrong.
    expect(problems.filter((line) => !line.includes('status of 400') && !line.includes('status of 403'))).toEqual([]);
    await close();
  });

  it("approves another person's request on the exceptions page, saying in public mode that it is not independent", async () => {
    const { controlId, subject } = await failingSubject();
    const { today } = await api.get<ExceptionList>('/api/exceptions');
    const asked = await api.post<Exception>(
      '/api/exceptions',
      { controlId, subject, justification: `Awaiting approval in the page test (${mode}).`, expiresOn: addDays(today, 20) },
      201,
    );
    made.add(asked.id);
    const { page, problems, close } = await openAt(browser(), '/exceptions', 'approver@example.com');
    const item = page.getByTestId('exceptions-requested').locator(`[data-exception="${asked.id}"]`);
    await item.waitFor(settles);
    const note = item.getByTestId('review-note');
    if (mode === 'public') expect(await note.textContent()).toContain('An approval here is recorded as not independent.');
    else expect(await note.count()).toBe(0);
    await item.getByRole('button', { name: 'Approve' }).click();
    await item.getByLabel('Comment').fill('Agreed.');
    await item.getByRole('button', { name: 'Confirm approval' }).click();
    const activeItem = page.getByTestId('exceptions-active').locator(`[data-exception="${asked.id}"]`);
    await activeItem.waitFor(settles);
    const approved = await api.get<Exception>(`/api/exceptions/${asked.id}`);
    expect(approved).toMatchObject({
      state: 'active',
      review: { decision: 'approved', comment: 'Agreed.', independent: mode === 'protected' },
    });
    if (mode === 'protected') expect(approved.review!.by.email).toBe('approver@example.com');
    expect(await activeItem.getByTestId('exception-reviewed').textContent()).toBe(
      `Approved by ${approved.review!.by.email ?? approved.review!.by.uid}: Agreed.`,
    );
    expect(await activeItem.getByTestId('exception-caveat').count()).toBe(mode === 'public' ? 1 : 0);
    expect(await page.getByTestId('exceptions-requested').locator(`[data-exception="${asked.id}"]`).count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });

  it('lists one expiring soon on the exceptions page, revokes it there, and shows the 409 for one revoked elsewhere', async () => {
    const { controlId, subject } = await failingSubject(1);
    const { today } = await api.get<ExceptionList>('/api/exceptions');
    const create = async (body: { subject: string | null; expiresOn: string }) => {
      const exception = await api.post<Exception>(
        '/api/exceptions',
        { controlId, justification: `Accepted for the page test (${mode}).`, ...body },
        201,
      );
      made.add(exception.id);
      return exception;
    };
    const soon = await create({ subject, expiresOn: addDays(today, 5) });
    const later = await create({ subject: null, expiresOn: addDays(today, 90) });
    const other = await anotherPerson();
    for (const { id } of [soon, later]) {
      await api.json<Exception>(`/api/exceptions/${id}/approve`, { method: 'POST', body: {}, headers: other.headers });
    }

    const { page, problems, close } = await openAt(browser(), '/exceptions', 'exceptions-page@example.com');
    const soonSection = page.getByTestId('exceptions-soon');
    const activeSection = page.getByTestId('exceptions-active');
    // Each section reads its own page of exceptions: both are waited for.
    await soonSection.locator(`[data-exception="${soon.id}"]`).waitFor(settles);
    await activeSection.locator(`[data-exception="${later.id}"]`).waitFor(settles);
    expect(await headingOf(page)).toBe('Exceptions');
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exceptions' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await soonSection.locator(`[data-exception="${later.id}"]`).count()).toBe(0);
    expect(await activeSection.locator(`[data-exception="${later.id}"]`).count()).toBe(1);
    const soonItem = soonSection.locator(`[data-exception="${soon.id}"]`);
    expect(await soonItem.getByTestId('exception-control').getAttribute('href')).toBe(`/controls/${controlId}`);
    expect(await soonItem.getByTestId('exception-expiry').textContent()).toContain('expires in 5 days');
    await screenshot(page, 'exceptions');

    // Revoked from the page, with a reason: the API says revoked, and the lists drop it.
    await soonItem.getByRole('button', { name: 'Revoke' }).click();
    await soonItem.getByLabel('Reason').fill('Fixed upstream.');
    await soonItem.getByRole('button', { name: 'Confirm revocation' }).click();
    await expect.poll(() => page.locator(`[data-exception="${soon.id}"]`).count(), settles).toBe(0);
    const revoked = await api.get<Exception>(`/api/exceptions/${soon.id}`);
    expect(revoked).toMatchObject({ state: 'revoked', revoked: { reason: 'Fixed upstream.' } });

    // Revoked through the API while the page still shows it: the page says what the server answers.
    await api.post<Exception>(`/api/exceptions/${later.id}/revoke`);
    const again = await api.post<{ code: string; detail: string }>(`/api/exceptions/${later.id}/revoke`, {}, 409);
    expect(again.code).toBe('exception_revoked');
    const laterItem = activeSection.locator(`[data-exception="${later.id}"]`);
    await laterItem.getByRole('button', { name: 'Revoke' }).click();
    await laterItem.getByRole('button', { name: 'Confirm revocation' }).click();
    await expect
      .poll(() => laterItem.getByTestId('revoke-problem').textContent(), settles)
      .toBe(`The exception could not be revoked. ${again.detail}`);

    // Showing all: both are listed as revoked.
    await page.getByTestId('show-all').click();
    const ended = page.getByTestId('exceptions-ended');
    await ended.locator(`[data-exception="${later.id}"]`).waitFor(settles);
    expect(new URL(page.url()).search).toBe('?state=all');
    for (const id of [soon.id, later.id]) {
      const expiry = await ended.locator(`[data-exception="${id}"]`).getByTestId('exception-expiry').textContent();
      expect(expiry?.trim()).toBe('revoked');
    }
    expect(problems.filter((line) => !line.includes('status of 409'))).toEqual([]);
    await close();
  });
});
