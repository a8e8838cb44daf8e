/**
 * Which scanner checks feed which control, compiled into the catalog. A control's `scanner`
 * frontmatter names checks directly (`checks`) and/or the frameworks whose scanner mappings it
 * follows (`frameworks`): then every check Prowler's mapping (functions/catalog/scanners/) puts
 * under one of the control's requirements in that framework feeds it. Following is a choice per
 * control, because the catalog maps controls to broad criteria: SOC 2 CC6.1 alone gathers 76
 * Prowler checks, most of them about other things than, say, laptop disk encryption.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Control } from '../../functions/src/assessment/model.ts';
import { frameworkIds, type FrameworkId } from '@evident/contract';
import {
  coveringIds,
  frameworkOfStandard,
  normaliseRequirement,
  scannerFindingKind,
} from '../../functions/src/common/ocsf-findings.ts';

/** Per framework: requirement id (the catalog's notation) → the checks mapped under it. */
export interface ScannerMappings {
  byFramework: Record<FrameworkId, Map<string, Set<string>>>;
  /** The files' texts, for the catalog's version. */
  sources: string[];
}

/** Days a scanner finding counts for when the control does not require scanner evidence itself. */
export const defaultScannerFreshnessDays = 7;
const checkIdPattern = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export function readScannerMappings(dir: string): ScannerMappings {
  const byFramework = Object.fromEntries(
    frameworkIds.map((id) => [id, new Map<string, Set<string>>()]),
  ) as ScannerMappings['byFramework'];
  const sources: string[] = [];
  // A catalog without scanner mappings can still name scanner checks directly.
  if (!existsSync(join(dir, 'prowler'))) return { byFramework, sources };
  const files = readdirSync(join(dir, 'prowler'))
    .filter((name) => name.endsWith('.json'))
    .sort();
  for (const file of files) {
    const source = readFileSync(join(dir, 'prowler', file), 'utf8');
    sources.push(file, source);
    const parsed = JSON.parse(source) as { Framework: string; Requirements: { Id: string; Name?: string; Checks: string[] }[] };
    const framework = frameworkOfStandard(parsed.Framework);
    if (!framework) throw new Error(`${file}: "${parsed.Framework}" is not a framework the catalog maps to`);
    for (const requirement of parsed.Requirements) {
      // Where a requirement's name starts with its id, the name is trusted: Prowler's SOC 2 files
      // give the id `cc_a_1_1` to the requirement named "A1.2 The entity authorizes…", whose text is A1.2's.
      const named = requirement.Name?.split(/\s/)[0];
      const id = (named && normaliseRequirement(framework, named)) || normaliseRequirement(framework, requirement.Id);
      if (!id) throw new Error(`${file}: requirement "${requirement.Id}" is not a ${framework} id`);
      let checks = byFramework[framework].get(id);
      if (!checks) byFramework[framework].set(id, (checks = new Set()));
      // Prowler's files hold a few entries that are two ids joined by a space.
      for (const entry of requirement.Checks) for (const check of entry.split(/\s+/).filter(Boolean)) checks.add(check);
    }
  }
  return { byFramework, sources };
}

interface Refusals {
  lineOf(needles: string[]): number;
  fail(line: number, message: string): never;
}

/** A control's `scanner` frontmatter, compiled: its frameworks, and every check that feeds it with why. */
export function readScanner(
  { lineOf, fail }: Refusals,
  value: unknown,
  control: Pick<Control, 'frameworks' | 'evidence'>,
  mappings: ScannerMappings,
): Control['scanner'] {
  const required = control.evidence.find((requirement) => requirement.kind === scannerFindingKind);
  if (value === undefined) {
    if (required)
      fail(lineOf(['evidence:', scannerFindingKind]), `a control that requires ${scannerFindingKind} evidence needs "scanner"`);
    return { frameworks: [], checks: [], freshnessDays: defaultScannerFreshnessDays };
  }
  const line = lineOf(['scanner:']);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(line, '"scanner" must be a mapping');
  const entry = value as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (!['frameworks', 'checks', 'freshnessDays'].includes(key))
      fail(lineOf(['scanner:', `${key}:`]), `unknown scanner key "${key}"`);
  }
  const frameworks = listOf(
    entry['frameworks'],
    (item) => (frameworkIds as readonly string[]).includes(item),
    () => fail(lineOf(['scanner:', 'frameworks:']), `scanner.frameworks lists frameworks: ${frameworkIds.join(', ')}`),
  ) as FrameworkId[];
  const named = listOf(
    entry['checks'],
    (item) => checkIdPattern.test(item),
    () => fail(lineOf(['scanner:', 'checks:']), 'scanner.checks lists check ids (letters, digits, _ . : -)'),
  );
  if (frameworks.length === 0 && named.length === 0) fail(line, 'scanner needs "frameworks" or "checks"');
  let freshnessDays = defaultScannerFreshnessDays;
  if (entry['freshnessDays'] !== undefined) {
    if (required)
      fail(
        lineOf(['scanner:', 'freshnessDays:']),
        `the ${scannerFindingKind} requirement's freshnessDays applies; leave this out`,
      );
    if (!Number.isInteger(entry['freshnessDays']) || (entry['freshnessDays'] as number) < 1)
      fail(lineOf(['scanner:', 'freshnessDays:']), 'scanner.freshnessDays must be a whole number of days, at least 1');
    freshnessDays = entry['freshnessDays'] as number;
  }
  return {
    frameworks,
    checks: feedingChecks(frameworks, named, control, mappings),
    freshnessDays: required?.freshnessDays ?? freshnessDays,
  };
}

function listOf(value: unknown, valid: (item: string) => boolean, refuse: () => never): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && valid(item))) return refuse();
  return [...new Set(value as string[])];
}

/** Each feeding check once, in id order, with the control's requirements that bring it in. */
function feedingChecks(
  frameworks: readonly FrameworkId[],
  named: readonly string[],
  control: Pick<Control, 'frameworks'>,
  mappings: ScannerMappings,
): Control['scanner']['checks'] {
  const checks = new Map<string, Control['scanner']['checks'][number]>();
  const entry = (id: string) => {
    let found = checks.get(id);
    if (!found) checks.set(id, (found = { id, named: false, requirements: [] }));
    return found;
  };
  for (const id of named) entry(id).named = true;
  for (const framework of frameworks) {
    const mapped = new Set(control.frameworks[framework]);
    for (const [requirement, ids] of mappings.byFramework[framework]) {
      const covering = coveringIds(framework, requirement).find((id) => mapped.has(id));
      if (covering === undefined) continue;
      for (const id of ids) {
        const requirements = entry(id).requirements;
        if (!requirements.some((known) => known.framework === framework && known.id === covering))
          requirements.push({ framework, id: covering });
      }
    }
  }
  for (const check of checks.values()) check.requirements.sort((a, b) => (a.framework + a.id < b.framework + b.id ? -1 : 1));
  return [...checks.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}
