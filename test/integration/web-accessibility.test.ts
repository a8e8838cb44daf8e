/**
 * An axe-core scan of every main view of the web app, in light and dark themes, in a real
 * browser: no serious or critical violation (WCAG 2.x A and AA rules, contrast included).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { headingOf, hosting, mode, openPage, settles, signIn, useBrowser } from '../support/browser.ts';

const browser = useBrowser();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe on the page as it is now; returns the serious and critical violations, readably. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** Each main view: its path and what shows it has loaded. */
const views: { name: string; path: string; ready: (page: Page) => Promise<unknown> }[] = [
  { name: 'dashboard', path: '/', ready: (page) => page.getByTestId('score').waitFor(settles) },
  { name: 'controls', path: '/controls', ready: (page) => page.getByTestId('control-count').waitFor(settles) },
  { name: 'control', path: '/controls/IAM-01', ready: (page) => page.getByTestId('objective').waitFor(settles) },
  {
    name: 'evidence',
    path: '/evidence',
    ready: (page) => page.getByTestId('evidence-row').first().or(page.getByTestId('no-evidence')).waitFor(settles),
  },
  {
    name: 'submit',
    path: '/submit',
    ready: (page) => expect.poll(() => headingOf(page), settles).toBe('Submit evidence'),
  },
  {
    name: 'analyses',
    path: '/analyses',
    ready: (page) => page.getByTestId('runs').or(page.getByText('No run yet.')).waitFor(settles),
  },
  { name: 'docs', path: '/docs', ready: (page) => expect.poll(() => headingOf(page), settles).toBe('Documentation') },
  { name: 'doc page', path: '/docs/getting-started', ready: (page) => page.locator('h2').first().waitFor(settles) },
  {
    name: 'page not found',
    path: '/no/such/page',
    ready: (page) => expect.poll(() => headingOf(page), settles).toBe('Page not found'),
  },
];

describe(`accessibility of the main views, ${mode} mode`, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violation in the ${colorScheme} theme`, async () => {
      const { page, close } = await openPage(browser(), { colorScheme });
      const found: Record<string, string[]> = {};
      if (mode === 'protected') {
        await page.goto(`${hosting}/`);
        await expect.poll(() => headingOf(page), settles).toBe('Sign in to continue');
        found['sign in'] = await seriousViolations(page);
        await signIn(page, 'a11y@example.com');
      }
      for (const view of views) {
        await page.goto(`${hosting}${view.path}`);
        await view.ready(page);
        found[view.name] = await seriousViolations(page);
      }
      // The chat with an answer and its citations, beside today's report.
      await page.goto(`${hosting}/`);
      await page.getByLabel('Your question').fill('What is failing?');
      await page.getByLabel('Your question').press('Enter');
      await page.getByTestId('chat-citation').first().waitFor(settles);
      found['chat'] = await seriousViolations(page);
      // A run's page once it has finished.
      await page.goto(`${hosting}/analyses`);
      await page.getByRole('button', { name: 'Start analysis' }).click();
      await expect.poll(() => page.getByTestId('run-state').textContent(), { timeout: 30_000 }).toMatch(/^\s*Completed\./);
      found['analysis run'] = await seriousViolations(page);
      expect(Object.fromEntries(Object.entries(found).filter(([, list]) => list.length > 0))).toEqual({});
      await close();
    });
  }
});
