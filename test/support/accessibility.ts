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

/** Runs axe on the page as it is now; returns the serious and critical violations, readably. */
export async function seriousViolations(page: Page): Promise<string[]> {
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
