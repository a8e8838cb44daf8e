/**
 * What the browser tests ask of every page: no serious or critical axe violation (WCAG 2.x A and
 * AA rules, contrast included, and axe's best practices) and no horizontal scroll.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** What axe checks: WCAG 2.x A and AA, and its best practices. */
const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface Axe {
  run: (context: Document, options: object) => Promise<{ violations: Violation[] }>;
  getRules: (tags: string[]) => { ruleId: string; tags: string[] }[];
}

/**
 * Runs axe on the page as it is now; returns the serious and critical violations, readably.
 * `colourOnly` runs just the rules axe files under colour (`cat.color`: contrast, links told
 * apart by colour), for the same page again in another colour scheme: the app's themes are
 * `light-dark()` colour pairs over the same markup, so no other rule can come out differently.
 */
export async function seriousViolations(page: Page, { colourOnly = false } = {}): Promise<string[]> {
  // Once per document: parsing axe's half a megabyte again took longer than most of its runs.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async ({ tags, colourOnly }) => {
      const axe = (window as unknown as { axe: Axe }).axe;
      const rules = axe.getRules(tags).filter((rule) => rule.tags.includes('cat.color'));
      if (rules.length === 0) throw new Error('axe names no colour rule among those asked for');
      const runOnly = colourOnly ? { type: 'rule', values: rules.map((rule) => rule.ruleId) } : { type: 'tag', values: tags };
      return (await axe.run(document, { runOnly })).violations;
    },
    { tags, colourOnly },
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** How far the page is wider than the window (0 when it fits), with the widest elements to blame. */
export const overflowOf = (page: Page) =>
  page.evaluate(() => {
    const excess = document.documentElement.scrollWidth - innerWidth;
    const culprits = Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > innerWidth + 0.5)
      .slice(0, 3)
      .map(
        (element) => `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ')[0]}` : ''}`,
      );
    return excess > 0 ? `${excess} px too wide (${culprits.join(', ')})` : 'fits';
  });
