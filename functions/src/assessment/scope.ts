/**
 * Which of a framework's requirements an organisation's audit covers, from its settings' scope:
 * SOC 2 by trust services category (a criterion's id prefix names its category), ISO/IEC 27001
 * Annex A less the controls its Statement of Applicability excludes, NIST SP 800-53 by baseline
 * less the controls tailored out. Each requirement left out says why.
 */
import { soc2CategoryNames, soc2CategoryPrefixes, soc2Categories, type FrameworkId, type Soc2Category } from '@evident/contract';
import type { Scope } from '../settings/settings-model.js';
import type { FrameworkReference } from './model.js';

export interface FrameworkScope {
  /** The scope in words, as a report keeps it. */
  description: string;
  /** Requirements left out, by id, with why. */
  outOfScope: Map<string, string>;
}

const categoryByPrefix = new Map(soc2Categories.map((category) => [soc2CategoryPrefixes[category], category]));

/** The trust services category of a SOC 2 criterion id (`CC6.1`, `PI1.2`); undefined for no criterion. */
export function soc2CategoryOf(id: string): Soc2Category | undefined {
  const prefix = /^[A-Z]{1,2}(?=\d)/.exec(id)?.[0];
  return prefix === undefined ? undefined : categoryByPrefix.get(prefix);
}

const plural = (count: number, word: string, words = `${word}s`) => `${count} ${count === 1 ? word : words}`;

function soc2Scope(reference: FrameworkReference, scope: Scope['soc2']): FrameworkScope {
  const chosen = new Set<Soc2Category>(['security', ...scope.categories]);
  const carvedOut = new Map(scope.excluded.map(({ requirement, reason }) => [requirement, reason]));
  const outOfScope = new Map<string, string>();
  let excluded = 0;
  for (const { id } of reference.requirements) {
    const category = soc2CategoryOf(id);
    if (category && !chosen.has(category)) {
      outOfScope.set(id, `${soc2CategoryNames[category]} is not in the audit's trust services categories.`);
    } else if (carvedOut.has(id)) {
      outOfScope.set(id, carvedOut.get(id)!);
      excluded++;
    }
  }
  const names = soc2Categories.filter((category) => chosen.has(category)).map((category) => soc2CategoryNames[category]);
  const less = excluded > 0 ? `, less ${plural(excluded, 'criterion', 'criteria')} excluded` : '';
  return { description: `${names.join(', ')}${less}`, outOfScope };
}

function excludedScope(
  reference: FrameworkReference,
  excluded: Scope['iso27001']['excluded'],
  whole: string,
  less: (count: number) => string,
): FrameworkScope {
  const reasons = new Map(excluded.map(({ requirement, reason }) => [requirement, reason]));
  const outOfScope = new Map(reference.requirements.flatMap(({ id }) => (reasons.has(id) ? [[id, reasons.get(id)!]] : [])));
  return { description: outOfScope.size === 0 ? whole : `${whole}, ${less(outOfScope.size)}`, outOfScope };
}

export function frameworkScope(reference: FrameworkReference, scope: Scope): FrameworkScope {
  const byFramework: Record<FrameworkId, () => FrameworkScope> = {
    soc2: () => soc2Scope(reference, scope.soc2),
    iso27001: () =>
      excludedScope(reference, scope.iso27001.excluded, 'All of Annex A', (count) => `less ${plural(count, 'control')} excluded`),
    nist80053: () =>
      excludedScope(
        reference,
        scope.nist80053.excluded,
        `The ${scope.nist80053.baseline} baseline`,
        (count) => `less ${plural(count, 'control')} tailored out`,
      ),
  };
  return byFramework[reference.id]();
}
