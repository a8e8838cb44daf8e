/**
 * The evidence pages of the web app in a real browser against the emulators: the browser shows
 * exactly what `GET /api/evidence` answers, filtered from the address and paged forward and
 * back; an item's page; the submit form uploads dropped or chosen files and shows what the
 * server stored, or its validation problems under the fields they are about; a recent submission
 * is rejected from the list with a reason. In protected mode every page is used signed in, so the
 * upload carries the token too.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import { headingOf, mode, openPage, screenshot, settles, useBrowser, visit } from '../support/browser.ts';

const browser = useBrowser();
const run = randomUUID().slice(0, 8);
const subjectA = `web-evidence-a-${run}.example.com`;
const subjectB = `web-evidence-b-${run}.example.com`;

interface EvidencePage {
  items: { id: string; subject: string; kind: string; source: string; collectedAt: string; data: Record<string, unknown> }[];
  hasMore: boolean;
  nextCursor?: string;
}

interface Submission {
  id: string;
  controls: string[];
  statement: string;
  evidenceId: string;
  submittedBy: { uid: string; email?: string };
  attachments: { name: string; mediaType: string; size: number; sha256: string; href: string }[];
}

beforeAll(async () => {
  // Five items, a minute apart, so there are pages to turn whatever else the store holds.
  const now = Date.now();
  const items = Array.from({ length: 5 }, (_, n) => ({
    id: `web-evidence-${run}-${n}`,
    kind: 'tls.endpoint',
    source: 'web-evidence-test',
    subject: n < 3 ? subjectA : subjectB,
    collectedAt: new Date(now - (n + 1) * 60_000).toISOString(),
    data: { minTlsVersion: '1.2', hsts: n % 2 === 0, certificateDaysLeft: 40 + n, weakCiphers: false },
  }));
  await api.post('/api/evidence', { items }, 201);
});

/** A page at a path, signed in first in protected mode. */
async function open(path: string) {
  const opened = await openPage(browser());
  const requests: Request[] = [];
  opened.page.on('request', (request) => requests.push(request));
  await visit(opened.page, path, `evidence-${randomUUID().slice(0, 8)}@example.com`);
  return { ...opened, requests };
}

const shownIds = (page: Page) =>
  page
    .getByTestId('evidence-row')
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
const hrefsOf = (body: EvidencePage) => body.items.map((item) => `/evidence/${item.id}`);
const cursorsIn = (page: Page) => new URL(page.url()).searchParams.getAll('cursor');
/** Chromium logs every 4xx answer to the console; the ones a test asks for are not faults. */
const unexpected = (problems: string[], status: number) => problems.filter((problem) => !problem.includes(`status of ${status}`));

describe(`the evidence browser, ${mode} mode`, () => {
  it('shows exactly what GET /api/evidence answers, and pages forward and back with the cursors in the address', async () => {
    const { page, problems, close } = await open('/evidence?limit=2');
    const first = await api.get<EvidencePage>('/api/evidence?limit=2');
    await expect.poll(() => shownIds(page), settles).toEqual(hrefsOf(first));
    expect(await headingOf(page)).toBe('Evidence');
    expect(await page.getByTestId('evidence-range').textContent()).toBe('Items 1–2, more on the next page');
    expect(new URL(page.url()).search).toBe('?limit=2');
    await screenshot(page, 'evidence');

    await page.getByRole('button', { name: 'Next page →' }).click();
    const second = await api.get<EvidencePage>(`/api/evidence?limit=2&cursor=${first.nextCursor!}`);
    await expect.poll(() => shownIds(page), settles).toEqual(hrefsOf(second));
    expect(cursorsIn(page)).toEqual([first.nextCursor]);
    expect(await page.getByTestId('evidence-range').textContent()).toBe('Items 3–4, more on the next page');

    await page.getByRole('button', { name: 'Next page →' }).click();
    const third = await api.get<EvidencePage>(`/api/evidence?limit=2&cursor=${second.nextCursor!}`);
    await expect.poll(() => shownIds(page), settles).toEqual(hrefsOf(third));
    expect(cursorsIn(page)).toEqual([first.nextCursor, second.nextCursor]);

    // A reload keeps the page, and "previous" still works from it.
    await page.reload();
    await expect.poll(() => shownIds(page), settles).toEqual(hrefsOf(third));
    await page.getByRole('button', { name: '← Previous page' }).click();
    await expect.poll(() => shownIds(page), settles).toEqual(hrefsOf(second));
    await page.getByRole('button', { name: '← Previous page' }).click();
    await expect.poll(() => shownIds(page), settles).toEqual(hrefsOf(first));
    expect(cursorsIn(page)).toEqual([]);
    expect(await page.getByRole('button', { name: '← Previous page' }).isDisabled()).toBe(true);
    expect(problems).toEqual([]);
    await close();
  });

  it('a filter deep link shows what the API answers for it, and a changed filter starts again from its first page', async () => {
    const { page, problems, close } = await open(`/evidence?kind=tls.endpoint&subject=${subjectA}&limit=2`);
    const filtered = await api.get<EvidencePage>(`/api/evidence?kind=tls.endpoint&subject=${subjectA}&limit=2`);
    expect(filtered.items.map((item) => item.id)).toEqual([`web-evidence-${run}-0`, `web-evidence-${run}-1`]);
    await expect.poll(() => shownIds(page), settles).toEqual(hrefsOf(filtered));
    expect(await page.getByLabel('Kind').inputValue()).toBe('tls.endpoint');
    expect(await page.getByLabel('Subject (exact)').inputValue()).toBe(subjectA);

    await page.getByRole('button', { name: 'Next page →' }).click();
    await expect.poll(() => shownIds(page), settles).toEqual([`/evidence/web-evidence-${run}-2`]);
    expect(await page.getByTestId('evidence-range').textContent()).toBe('Items 3–3, none after these');
    expect(await page.getByRole('button', { name: 'Next page →' }).isDisabled()).toBe(true);

    await page.getByLabel('Subject (exact)').fill(subjectB);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => shownIds(page), settles)
      .toEqual([`/evidence/web-evidence-${run}-3`, `/evidence/web-evidence-${run}-4`]);
    expect(new URL(page.url()).search).toBe(`?kind=tls.endpoint&subject=${subjectB}&limit=2`);

    await page.getByLabel('Per page').selectOption('10');
    await page.getByLabel('Subject (exact)').fill('');
    await page.getByLabel('Source (exact)').fill('web-evidence-test');
    await page.getByRole('button', { name: 'Apply' }).click();
    const bySource = await api.get<EvidencePage>('/api/evidence?kind=tls.endpoint&source=web-evidence-test&limit=10');
    expect(bySource.items.map((item) => item.id)).toEqual([0, 1, 2, 3, 4].map((n) => `web-evidence-${run}-${n}`));
    expect(bySource.hasMore).toBe(false);
    await expect.poll(() => shownIds(page), settles).toEqual(hrefsOf(bySource));
    expect(new URL(page.url()).search).toBe('?kind=tls.endpoint&source=web-evidence-test&limit=10');
    expect(await page.getByTestId('evidence-range').textContent()).toBe('Items 1–5, none after these');
    await page.getByLabel('Subject (exact)').fill(subjectB);
    await page.getByLabel('Source (exact)').fill('');
    await page.getByRole('button', { name: 'Apply' }).click();

    await page.getByLabel('Kind').selectOption('backup.job');
    await expect.poll(() => page.getByTestId('no-evidence').textContent(), settles).toBe('No evidence matches these filters.');
    expect((await api.get<EvidencePage>(`/api/evidence?kind=backup.job&subject=${subjectB}`)).items).toEqual([]);

    // The menu's Evidence link opens the page afresh: no filter, the first page of everything.
    await page.getByRole('link', { name: 'Evidence', exact: true }).click();
    const everything = await api.get<EvidencePage>('/api/evidence');
    await expect.poll(() => shownIds(page), settles).toEqual(hrefsOf(everything));
    expect(await page.getByLabel('Kind').inputValue()).toBe('');
    expect(new URL(page.url()).search).toBe('');
    expect(problems).toEqual([]);
    await close();
  });

  it("a filter the server refuses shows the server's problem and a retry", async () => {
    const { page, problems, close } = await open('/evidence?control=ZZZ-99');
    const answer = await api.call<{ detail: string }>('/api/evidence?control=ZZZ-99&limit=50');
    expect(answer.status).toBe(400);
    const { detail } = answer.body;
    expect(detail).toBe('The query parameter "control" names no control in the catalog.');
    await expect
      .poll(() => page.getByTestId('evidence-error').textContent(), settles)
      .toBe(`The evidence could not be loaded. ${detail}`);
    expect(await page.getByRole('alert').getByRole('button', { name: 'Try again' }).count()).toBe(1);
    expect(unexpected(problems, 400)).toEqual([]);
    await close();
  });

  it("an item's page shows its fields and its data as text", async () => {
    const id = `web-evidence-${run}-1`;
    const { page, problems, close } = await open(`/evidence?subject=${subjectA}`);
    await page.getByRole('link', { name: subjectA }).nth(1).click();
    await expect.poll(() => headingOf(page), settles).toBe(subjectA);
    expect(new URL(page.url()).pathname).toBe(`/evidence/${id}`);
    const item = await api.get<EvidencePage['items'][number]>(`/api/evidence/${id}`);
    const facts = page.getByTestId('evidence-facts');
    const entries = async (list: string) =>
      page
        .getByTestId(list)
        .evaluate((dl) =>
          Array.from(dl.querySelectorAll('dt')).map((dt) => [dt.textContent, dt.nextElementSibling?.textContent?.trim()]),
        );
    expect((await entries('evidence-facts')).slice(0, 4)).toEqual([
      ['Id', id],
      ['Kind', 'tls.endpoint'],
      ['Source', 'web-evidence-test'],
      ['Subject', subjectA],
    ]);
    expect(await facts.locator('time').first().getAttribute('datetime')).toBe(item.collectedAt);
    expect(await entries('evidence-data')).toEqual(Object.entries(item.data).map(([name, value]) => [name, String(value)]));
    await page.goBack();
    await expect.poll(() => shownIds(page), settles).toHaveLength(3);
    expect(problems).toEqual([]);
    await close();
  });
});

describe(`the submit page, ${mode} mode`, () => {
  const fill = async (page: Page, controls: string, statement: string) => {
    await page.getByLabel('Controls', { exact: true }).fill(controls);
    await page.getByLabel('Statement', { exact: true }).fill(statement);
  };

  it('uploads a dropped file, shows the submission the server stored, and lists it', async () => {
    const { page, problems, close, requests } = await open('/submit');
    await expect.poll(() => headingOf(page), settles).toBe('Submit evidence');
    const statement = `The access policy was approved by the board (${run}).`;
    const content = `Board minutes ${run}: the access policy is approved.`;
    await fill(page, 'ppl-06, PPL-07', statement);

    const dataTransfer = await page.evaluateHandle((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'minutes.txt', { type: 'text/plain' }));
      return transfer;
    }, content);
    await page.getByTestId('dropzone').dispatchEvent('dragenter', { dataTransfer });
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });
    const chosen = page.getByTestId('chosen-files');
    await expect.poll(() => chosen.locator('.name').allTextContents(), settles).toEqual(['minutes.txt']);
    expect(await chosen.locator('.muted').allTextContents()).toEqual([`${Buffer.byteLength(content)} B`]);
    expect(await chosen.getByRole('button').getAttribute('aria-label')).toBe('Remove minutes.txt');

    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect.poll(() => page.getByTestId('created-id').count(), settles).toBe(1);
    const id = (await page.getByTestId('created-id').textContent())!;
    expect(id).toMatch(/^sub-[0-9a-z]{10,40}$/);

    const submission = await api.get<Submission>(`/api/submissions/${id}`);
    expect(submission.controls).toEqual(['PPL-06', 'PPL-07']);
    expect(submission.statement).toBe(statement);
    expect(submission.attachments).toEqual([
      {
        name: 'minutes.txt',
        mediaType: 'text/plain',
        size: Buffer.byteLength(content),
        sha256: createHash('sha256').update(content).digest('hex'),
        href: `/api/submissions/${id}/attachments/0`,
      },
    ]);
    expect(await page.getByTestId('created-evidence').getAttribute('href')).toBe(`/evidence/${submission.evidenceId}`);
    expect(await page.getByTestId('created-files').textContent()).toBe(`minutes.txt (${Buffer.byteLength(content)} B)`);
    // The form is empty again, and the new submission heads the list, as GET /api/submissions has it.
    expect(await page.getByLabel('Statement', { exact: true }).inputValue()).toBe('');
    const recent = await api.get<{ items: Submission[] }>('/api/submissions?limit=10');
    expect(recent.items[0]!.id).toBe(id);
    await expect
      .poll(() => page.getByTestId('recent-submission').getByRole('link', { name: /^sub-/ }).allTextContents(), {
        ...settles,
      })
      .toEqual(recent.items.map((item) => item.id));

    const uploads = requests.filter((request) => request.method() === 'POST' && request.url().endsWith('/api/submissions'));
    expect(uploads).toHaveLength(1);
    if (mode === 'protected') {
      expect(uploads[0]!.headers().authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]*$/);
      expect(submission.submittedBy.email).toMatch(/^evidence-[0-9a-f]{8}@example\.com$/);
    } else {
      expect(uploads[0]!.headers().authorization).toBeUndefined();
      expect(submission.submittedBy.uid).toBe('anonymous');
    }
    await screenshot(page, 'submit');

    // The evidence it became opens from the link.
    await page.getByTestId('created-evidence').click();
    await expect.poll(() => headingOf(page), settles).toBe('manual submission');
    expect(
      await page
        .getByTestId('evidence-controls')
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual(['/controls/PPL-06', '/controls/PPL-07']);
    expect(await page.getByTestId('evidence-attachments').getByRole('button').textContent()).toBe('minutes.txt');
    expect(problems).toEqual([]);
    await close();
  });

  it("shows the server's validation problems under the fields they are about", async () => {
    const { page, problems, close } = await open('/submit');
    await expect.poll(() => headingOf(page), settles).toBe('Submit evidence');
    const attachments = page.locator('#attachments');
    await fill(page, 'PPL-06 ZZZ-99', 'Scoped out.');
    await page.getByLabel('Expires at').fill('2020-01-01T10:00');
    await attachments.setInputFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# notes') });
    await page.getByRole('button', { name: 'Submit', exact: true }).click();

    await expect
      .poll(() => page.getByTestId('submit-problem').locator('p').textContent(), settles)
      .toBe('2 parts of the request do not match the API description; see errors.');
    expect(await page.getByTestId('controls-error').textContent()).toBe('ZZZ-99 names no control in the catalog');
    expect(await page.getByTestId('expiresAt-error').textContent()).toBe('Expires at is already in the past');
    for (const field of ['controls', 'expiresAt']) {
      const input = page.locator(`#${field}`);
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      expect(await input.getAttribute('aria-describedby')).toBe(`${field}-hint ${field}-error`);
    }
    expect(await page.locator('#statement').getAttribute('aria-invalid')).toBe('false');
    expect(await page.locator('#statement').getAttribute('aria-describedby')).toBe('statement-hint');
    expect(await page.getByRole('alert').count()).toBe(1);
    // The form keeps what was typed and chosen, for the next try.
    expect(await page.getByTestId('chosen-files').locator('.name').allTextContents()).toEqual(['notes.md']);

    // Fixed, but with the statement emptied: the schema's own message, under the statement only.
    await fill(page, 'PPL-06', '');
    await page.getByLabel('Expires at').fill('');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('statement-error').textContent(), settles)
      .toBe('Statement must NOT have fewer than 1 characters');
    expect(await page.getByTestId('submit-problem').locator('p').textContent()).toBe(
      'The body /statement must NOT have fewer than 1 characters.',
    );
    expect(await page.getByTestId('controls-error').count()).toBe(0);
    expect(await page.locator('#controls').getAttribute('aria-invalid')).toBe('false');
    expect(await page.locator('#statement').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'submit-invalid');

    // What the server would refuse is not sent: a type it does not accept.
    await attachments.setInputFiles({ name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
    expect(await page.getByTestId('attachments-error').locator('li').allTextContents()).toEqual([
      'tool.exe is not a type the server accepts (PDF, PNG, JPEG, plain text, CSV, Markdown, JSON).',
    ]);
    expect(await page.getByTestId('chosen-files').locator('.name').allTextContents()).toEqual(['notes.md']);
    await page.getByRole('button', { name: 'Remove notes.md' }).click();
    expect(await page.getByTestId('chosen-files').count()).toBe(0);
    expect(unexpected(problems, 400)).toEqual([]);
    await close();
  });

  it('rejects a submission with a reason, and then shows the review instead of the buttons', async () => {
    // Made by the API helper's person, not the page's: anonymous in public mode, another user in protected mode.
    const form = new FormData();
    form.append('controls', 'PPL-06');
    form.append('statement', `A policy to review (${run}).`);
    const made = await api.json<Submission>('/api/submissions', { method: 'POST', body: form, status: 201 });
    const { page, problems, close } = await open('/submit');
    const row = page.getByTestId('recent-submission').filter({ hasText: made.id });
    await expect.poll(() => row.getByTestId('review-state').textContent(), settles).toBe('Awaiting review');

    await row.getByRole('button', { name: `Reject ${made.id}` }).click();
    const reason = row.getByLabel('Reason for rejecting');
    expect(await reason.evaluate((input) => input === document.activeElement)).toBe(true);
    await reason.fill('The minutes are not attached.');
    await row.getByRole('button', { name: 'Confirm rejection' }).click();

    const reviewer = mode === 'protected' ? 'evidence-[0-9a-f]{8}@example\\.com' : 'anonymous';
    await expect
      .poll(() => row.getByTestId('review-state').textContent(), settles)
      .toMatch(new RegExp(`^Rejected by ${reviewer}: The minutes are not attached\\.$`));
    expect(await row.getByRole('button', { name: `Accept ${made.id}` }).count()).toBe(0);
    const reviewed = await api.get<Submission & { review: { state: string; reason: string } }>(`/api/submissions/${made.id}`);
    expect([reviewed.review.state, reviewed.review.reason]).toEqual(['rejected', 'The minutes are not attached.']);
    expect(problems).toEqual([]);
    await close();
  });
});
