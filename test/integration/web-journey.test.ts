/**
 * A person's whole visit in protected mode, in a real browser against the emulators: the
 * protected pages ask to sign in; they sign in on the auth emulator, submit evidence with an
 * attachment, run an analysis and see it finish through a stream the test cuts once, read the
 * gated docs page, and sign out, after which the protected pages and the gated page are closed
 * again.
 */
import { describe, expect, it } from 'vitest';
import {
  cutTheStreamOnce,
  expectResumedAfterTheCut,
  headingOf,
  hosting,
  mode,
  openPage,
  screenshot,
  settles,
  signIn,
  useBrowser,
} from '../support/browser.ts';

const browser = useBrowser();
const poll = settles;

describe.runIf(mode === 'protected')('a visit in protected mode', () => {
  it('sign in, submit evidence with a file, run an analysis across a cut stream, read a gated page, sign out', async () => {
    const { page, problems, close } = await openPage(browser());
    const cut = await cutTheStreamOnce(page);
    const protectedCalls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/') && !path.startsWith('/api/auth/config') && !path.startsWith('/api/docs/'))
        protectedCalls.push(`${request.method()} ${path} ${request.headers().authorization ? 'bearer' : 'none'}`);
    });

    // Signed out, every protected page asks to sign in and makes no protected call.
    for (const path of ['/', '/controls', '/evidence', '/submit', '/analyses']) {
      await page.goto(`${hosting}${path}`);
      await expect.poll(() => headingOf(page), poll).toBe('Sign in to continue');
    }
    expect(protectedCalls).toEqual([]);

    await signIn(page, 'journey@example.com', 'Journey Person');
    await expect.poll(() => headingOf(page), poll).toBe('Analyses');

    // Submit evidence with an attachment.
    await page.getByRole('link', { name: 'Submit', exact: true }).click();
    await expect.poll(() => headingOf(page), poll).toBe('Submit evidence');
    await page.getByLabel('Controls', { exact: true }).fill('PPL-06');
    await page.getByLabel('Statement', { exact: true }).fill('The information security policy was approved on 2026-11-20.');
    await page.locator('input[type=file]').setInputFiles({
      name: 'policy-approval.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Approved by the board on 2026-11-20.'),
    });
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect.poll(() => page.getByTestId('created-id').textContent(), poll).toMatch(/^sub-[0-9a-z]{10,40}$/);
    expect(await page.getByTestId('created-files').textContent()).toBe('policy-approval.txt (36 B)');
    await screenshot(page, 'journey-submitted');

    // Run an analysis and watch it finish; the test cuts its stream once mid-event.
    await page.getByRole('link', { name: 'Analyses', exact: true }).click();
    await page.getByRole('button', { name: 'Start analysis' }).click();
    await page.waitForURL(/\/analyses\/an-\d{17}-[0-9a-f]{8}$/, poll);
    await expect.poll(() => page.getByTestId('run-state').textContent(), { timeout: 30_000 }).toMatch(/^\s*Completed\./);
    const total = Number(/^(\d+) of \1 controls \(100%\)$/.exec((await page.getByTestId('progress-text').textContent())!)![1]);
    expect(await page.getByTestId('results').locator('tbody tr').count()).toBe(total);
    expectResumedAfterTheCut(cut);

    // The gated docs page is there once signed in, and listed.
    await page.getByRole('link', { name: 'Docs', exact: true }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Assessment methodology' }).count(), poll).toBe(1);
    await page.getByRole('link', { name: 'Assessment methodology' }).click();
    await expect.poll(() => headingOf(page), poll).toBe('Assessment methodology');

    // Every protected call carried the bearer header.
    expect(protectedCalls.filter((call) => call.endsWith(' none'))).toEqual([]);

    // Sign out: the gated page and the protected pages close again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByTestId('doc-gated').textContent(), poll).toBe('This page is for signed-in people.');
    await page.goto(`${hosting}/analyses`);
    await expect.poll(() => headingOf(page), poll).toBe('Sign in to continue');
    await screenshot(page, 'journey-signed-out');
    expect(problems.filter((problem) => !/401/.test(problem))).toEqual([]);
    await close();
  });
});
