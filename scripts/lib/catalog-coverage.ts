/**
 * How much of each framework the catalog covers: the requirements at least one control maps to,
 * out of the framework's reference list, and the ones none does. SOC 2's common criteria (CC1–CC9,
 * the Security category every SOC 2 report includes) are counted apart as well, before SOC 2 as a
 * whole. `node scripts/catalog-coverage.ts` prints these lines; functions/catalog/README.md quotes
 * them, and its unit test keeps the two the same.
 */
import { frameworkNames } from '@evident/contract';
import type { Catalog } from '../../functions/src/assessment/model.ts';

export interface Coverage {
  name: string;
  covered: number;
  total: number;
  /** The requirements no control maps to, in the reference list's order. */
  uncovered: string[];
}

/** A SOC 2 common criterion, as the reference list names it (`CC6.1`). */
export const isCommonCriterion = (id: string): boolean => id.startsWith('CC');

export function coverageOf(catalog: Pick<Catalog, 'controls' | 'frameworks'>): Coverage[] {
  const rows = catalog.frameworks.map((framework) => {
    const mapped = new Set(catalog.controls.flatMap((control) => control.frameworks[framework.id]));
    const ids = framework.requirements.map((requirement) => requirement.id);
    const row = (name: string, subset: string[]): Coverage => ({
      name,
      covered: subset.filter((id) => mapped.has(id)).length,
      total: subset.length,
      uncovered: subset.filter((id) => !mapped.has(id)),
    });
    const whole = row(frameworkNames[framework.id], ids);
    if (framework.id !== 'soc2') return [whole];
    return [row('SOC 2 common criteria (CC1–CC9, the Security category)', ids.filter(isCommonCriterion)), whole];
  });
  return rows.flat();
}

/** One line per framework, as the catalog's README lists them. */
export const coverageLines = (coverage: readonly Coverage[]): string[] =>
  coverage.map(({ name, covered, total }) => `- ${name}: ${covered} of ${total} (${((100 * covered) / total).toFixed(1)} %)`);
