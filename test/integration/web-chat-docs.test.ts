/**
 * The chat beside a report and the docs pages, in a real browser against the emulators: an
 * answer streams in with citations that lead to the control, a question outside the report is
 * declined with questions to ask instead, the docs index lists what the API lists, pages show
 * with their contents, and a gated page asks a signed-out reader to sign in and then opens.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { markdownOptions } from '../../hosting/src/lib/chat.ts';
import { api } from '../support/api.ts';
import { headingOf, hosting, mode, openPage, screenshot, settles, signIn, useBrowser } from '../support/browser.ts';

interface Citation {
  controlId: string;
  evidenceId?: string;
  quote: string;
}
interface Answer {
  answer: string;
  citations: Citation[];
  grounded: boolean;
  suggestions: string[];
}
interface Report {
  date: string;
  controls: { id: string; status: string }[];
}
interface DocIndex {
  pages: { slug: string; title: string; section: string; gated: boolean }[];
}
interface DocPage {
  title: string;
  headings: { depth: number; id: string; text: string }[];
}

const browser = useBrowser();
const poll = settles;

/** What the API answers to this first question about the report of `date`, as JSON. */
const answerOf = (message: string, date: string) =>
  api.json<Answer>('/api/chat', { body: { message, date }, headers: { Accept: 'application/json' } });

/** A failing control of today's report: IAM-01 when it fails, else the first that does. */
async function failingControl(): Promise<{ report: Report; id: string }> {
  const report = await api.get<Report>('/api/report/today');
  const failing = report.controls.filter((control) => control.status === 'failing').map((control) => control.id);
  expect(failing.length).toBeGreaterThan(0);
  return { report, id: failing.includes('IAM-01') ? 'IAM-01' : failing[0]! };
}

const chatPanel = (page: Page) => page.getByRole('complementary', { name: 'Ask about this report' });

async function ask(page: Page, question: string): Promise<Locator> {
  const chat = chatPanel(page);
  const before = await chat.getByTestId('chat-exchange').count();
  await chat.getByLabel('Your question').fill(question);
  await chat.getByLabel('Your question').press('Enter');
  const exchange = chat.getByTestId('chat-exchange').nth(before);
  await expect.poll(() => exchange.locator('.question').textContent(), poll).toBe(`You asked: ${question}`);
  await expect.poll(() => exchange.getByTestId('chat-answer').getAttribute('aria-busy'), poll).toBe('false');
  return exchange;
}

/** The text the answer's Markdown renders to, as the browser reads it (trimmed, like `answerText`). */
const answerText = async (exchange: Locator) => ((await exchange.getByTestId('chat-answer').textContent()) ?? '').trim();

async function renderedText(page: Page, markdown: string): Promise<string> {
  const { default: MarkdownIt } = await import('markdown-it');
  const html = new MarkdownIt(markdownOptions).render(markdown);
  return page.evaluate((markup) => {
    const template = document.createElement('template');
    template.innerHTML = markup;
    return (template.content.textContent ?? '').trim();
  }, html);
}

/** Asks why a failing control fails and checks the answer, its citations, and where they lead. */
async function askWhyFailing(page: Page): Promise<void> {
  const { report, id } = await failingControl();
  await page.goto(`${hosting}/`);
  await expect.poll(() => page.getByTestId('score').count(), poll).toBe(1);
  const question = `Why is ${id} failing?`;
  const expected = await answerOf(question, report.date);
  expect(expected.grounded).toBe(true);
  expect(expected.citations.map((citation) => citation.controlId)).toContain(id);

  const exchange = await ask(page, question);
  const text = await renderedText(page, expected.answer);
  await expect.poll(() => answerText(exchange), poll).toBe(text);
  const citations = exchange.getByTestId('chat-citation');
  expect(await citations.count()).toBe(expected.citations.length);
  expect(await citations.locator('q').allTextContents()).toEqual(expected.citations.map((citation) => citation.quote));
  expect(
    await citations.locator('a[href^="/controls/"]').evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
  ).toEqual(expected.citations.map((citation) => `/controls/${citation.controlId}`));
  expect(await chatPanel(page).getByRole('status').textContent()).toBe('Answer complete.');
  await screenshot(page, 'chat');

  await citations.getByRole('link', { name: id, exact: true }).first().click();
  await expect.poll(() => new URL(page.url()).pathname, poll).toBe(`/controls/${id}`);
  await expect.poll(() => headingOf(page), poll).toMatch(new RegExp(`^${id} `));
}

describe.runIf(mode === 'public')('chat and docs in public mode', () => {
  it('streams an answer about a failing control whose citation leads to the control', async () => {
    const { page, problems, close } = await openPage(browser());
    await askWhyFailing(page);
    expect(problems).toEqual([]);
    await close();
  });

  it('declines a question outside the report and offers questions it can answer', async () => {
    const { page, problems, close } = await openPage(browser());
    const report = await api.get<Report>('/api/report/today');
    await page.goto(`${hosting}/`);
    await expect.poll(() => page.getByTestId('score').count(), poll).toBe(1);
    const expected = await answerOf('What is the weather?', report.date);
    expect(expected.grounded).toBe(false);
    expect(expected.suggestions.length).toBeGreaterThan(0);

    const declined = await ask(page, 'What is the weather?');
    const text = await renderedText(page, expected.answer);
    await expect.poll(() => answerText(declined), poll).toBe(text);
    expect(await declined.getByTestId('chat-citation').count()).toBe(0);
    const offered = declined.getByRole('group', { name: 'Questions this report can answer' }).getByRole('button');
    expect(await offered.allTextContents()).toEqual(expected.suggestions);

    // A suggestion is asked as the next question, with the decline as its history.
    await offered.first().click();
    const next = chatPanel(page).getByTestId('chat-exchange').nth(1);
    await expect.poll(() => next.locator('.question').textContent(), poll).toBe(`You asked: ${expected.suggestions[0]}`);
    await expect.poll(() => next.getByTestId('chat-answer').getAttribute('aria-busy'), poll).toBe('false');
    expect((await answerText(next)).length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await close();
  });

  it('lists exactly the documentation pages the API lists, by section, with the API explorer', async () => {
    const { page, problems, close } = await openPage(browser());
    const index = await api.get<DocIndex>('/api/docs/index');
    expect(index.pages.some((doc) => doc.slug === 'methodology')).toBe(true);
    await page.goto(`${hosting}/docs`);
    await expect.poll(() => page.getByTestId('doc-link').allTextContents(), poll).toEqual(index.pages.map((doc) => doc.title));
    expect(await page.getByTestId('doc-link').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(
      index.pages.map((doc) => `/docs/${doc.slug}`),
    );
    expect(await page.getByRole('link', { name: 'Open the API explorer' }).getAttribute('href')).toBe('/api/swagger');
    expect(await page.getByRole('link', { name: 'OpenAPI description' }).getAttribute('href')).toBe('/api/openapi.json');
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
      'Try the API',
      ...new Set(index.pages.map((doc) => doc.section)),
    ]);
    await screenshot(page, 'docs');

    // A page from the index: its h1, its table of contents, and a fragment link that scrolls.
    const chat = await api.get<DocPage>('/api/docs/page/chat');
    await page.getByRole('link', { name: chat.title, exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname, poll).toBe('/docs/chat');
    await expect.poll(() => headingOf(page), poll).toBe(chat.headings.find((heading) => heading.depth === 1)!.text);
    const at = index.pages.findIndex((doc) => doc.slug === 'chat');
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Read on' }).getByRole('link').allTextContents(), poll)
      .toEqual([`← ${index.pages[at - 1]!.title}`, `${index.pages[at + 1]!.title} →`]);
    const toc = page.getByRole('navigation', { name: 'On this page' });
    const contents = chat.headings.filter((heading) => heading.depth === 2 || heading.depth === 3);
    expect(await toc.getByRole('link').allTextContents()).toEqual(contents.map((heading) => heading.text));
    await toc.getByRole('link', { name: contents.at(-1)!.text }).click();
    await expect.poll(() => new URL(page.url()).hash, poll).toBe(`#${contents.at(-1)!.id}`);
    expect(new URL(page.url()).pathname).toBe('/docs/chat');
    await screenshot(page, 'doc');

    // Public mode: the gated page is public too.
    const methodology = await api.get<DocPage>('/api/docs/page/methodology');
    await page.goto(`${hosting}/docs/methodology`);
    await expect.poll(() => headingOf(page), poll).toBe(methodology.title);
    expect(await page.getByTestId('doc-gated').count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });
});

describe.runIf(mode === 'protected')('chat and docs in protected mode', () => {
  it('asks a signed-out reader to sign in for a gated page, then shows it and lists it', async () => {
    const { page, problems, close } = await openPage(browser());
    const publicIndex = await api.json<DocIndex>('/api/docs/index', { anonymous: true });
    expect(publicIndex.pages.some((doc) => doc.slug === 'methodology')).toBe(false);
    const fullIndex = await api.get<DocIndex>('/api/docs/index');
    const methodology = await api.get<DocPage>('/api/docs/page/methodology');

    let gatedCalls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/docs/page/methodology') gatedCalls += 1;
    });
    await page.goto(`${hosting}/docs/methodology`);
    await expect.poll(() => page.getByTestId('doc-gated').textContent(), poll).toBe('This page is for signed-in people.');
    expect(await headingOf(page)).toBe('Sign in to read this page');
    expect(await page.getByTestId('doc-content').count()).toBe(0);
    expect(await page.getByRole('heading', { name: methodology.title }).count()).toBe(0);
    await screenshot(page, 'doc-gated');
    // Asked once, and retried once by the authorised fetch after re-reading the mode: the 401 does not reload the page.
    expect(gatedCalls).toBe(2);

    await signIn(page, 'ada@example.com', 'Ada Lovelace');
    await expect.poll(() => headingOf(page), poll).toBe(methodology.title);
    expect(await page.getByTestId('doc-gated').count()).toBe(0);

    await page.getByRole('link', { name: 'Docs', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('doc-link').allTextContents(), poll)
      .toEqual(fullIndex.pages.map((doc) => doc.title));
    expect(await page.getByTestId('doc-link').allTextContents()).toContain(methodology.title);
    await screenshot(page, 'docs');

    // Signing out hides the gated page from the index again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect
      .poll(() => page.getByTestId('doc-link').allTextContents(), poll)
      .toEqual(publicIndex.pages.map((doc) => doc.title));
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await close();
  });

  it('answers a question about the report once signed in', async () => {
    const { page, problems, close } = await openPage(browser());
    await page.goto(`${hosting}/`);
    await signIn(page, 'grace@example.com', 'Grace Hopper');
    await askWhyFailing(page);
    expect(problems).toEqual([]);
    await close();
  });
});
