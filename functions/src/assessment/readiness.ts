/**
 * Readiness per framework: how a day's control statuses stand against each framework's
 * requirements. A pure function of the catalog's mappings and one report's results.
 *
 * A requirement's status rolls up the statuses of the controls mapped to it:
 *
 *   not_applicable  every control mapped to it is scoped out
 *   not_met         one applicable control fails — a known problem outranks an unknown one
 *   unproven        none fails, but one is stale or missing evidence: it cannot be shown met
 *   met             every applicable control passes
 *
 * A risk-accepted control counts as scoped out. The share is met over met + not_met + unproven, so stale or missing evidence counts against
 * readiness like a failure does, and a scoped-out requirement counts for nothing.
 *
 * Only requirements in the organisation's scope count (scope.ts); the ones it leaves out are
 * listed with why. An in-scope requirement no control maps to is a gap: nothing shows it met, so
 * it is not met, with no controls, and counts against the share like any other. The share is
 * then what an auditor would ask: met of in scope.
 */
import type { RequirementStatus } from '@evident/contract';
import type { Scope } from '../settings/settings-model.js';
import { frameworkScope } from './scope.js';
import type {
  Control,
  ControlResult,
  FrameworkReadiness,
  FrameworkReference,
  ReadinessShares,
  RequirementCounts,
  RequirementResult,
} from './model.js';

/** The controls' statuses rolled up for one requirement; `statuses` is never empty. */
export function requirementStatus(statuses: readonly ControlResult['status'][]): RequirementStatus {
  const applicable = statuses.filter((status) => status !== 'not_applicable');
  if (applicable.length === 0) return 'not_applicable';
  if (applicable.includes('failing')) return 'not_met';
  if (applicable.some((status) => status !== 'passing')) return 'unproven';
  return 'met';
}

/** Met over applicable requirements, 0–100 with one decimal; null when none applies. */
export function shareMet(counts: RequirementCounts): number | null {
  const applicable = counts.met + counts.not_met + counts.unproven;
  return applicable === 0 ? null : Math.round((1000 * counts.met) / applicable) / 10;
}

/**
 * Every framework of `references` within `scope`, from the results of one report. A control of
 * the catalog the report has no result for (added since) is left out, so an old report is read
 * as it was.
 */
export function readinessOf(
  references: readonly FrameworkReference[],
  controls: readonly Pick<Control, 'id' | 'frameworks'>[],
  results: readonly Pick<ControlResult, 'id' | 'status' | 'riskAccepted'>[],
  scope: Scope,
): FrameworkReadiness[] {
  // A risk-accepted control counts as scoped out until its exception expires (exceptions.ts).
  const statusOf = new Map(results.map((result) => [result.id, result.riskAccepted ? 'not_applicable' : result.status]));
  const sorted = [...controls].sort((a, b) => (a.id < b.id ? -1 : 1));
  return references.map((reference) => {
    const mapped = new Map<string, string[]>();
    for (const control of sorted) {
      if (!statusOf.has(control.id)) continue;
      for (const requirement of control.frameworks[reference.id]) {
        let ids = mapped.get(requirement);
        if (!ids) mapped.set(requirement, (ids = []));
        ids.push(control.id);
      }
    }
    const { description, outOfScope } = frameworkScope(reference, scope);
    const counts: RequirementCounts = { met: 0, not_met: 0, unproven: 0, not_applicable: 0 };
    const requirements: RequirementResult[] = [];
    const gaps: string[] = [];
    for (const { id } of reference.requirements) {
      if (outOfScope.has(id)) continue;
      const ids = mapped.get(id) ?? [];
      if (ids.length === 0) gaps.push(id);
      const status = ids.length === 0 ? 'not_met' : requirementStatus(ids.map((control) => statusOf.get(control)!));
      counts[status]++;
      requirements.push({ id, status, controls: ids });
    }
    return {
      framework: reference.id,
      name: reference.name,
      share: shareMet(counts),
      counts,
      covered: requirements.length - gaps.length,
      total: reference.requirements.length,
      scope: description,
      inScope: requirements.length,
      outOfScope: [...outOfScope].map(([id, reason]) => ({ id, reason })),
      requirements,
      gaps,
    };
  });
}

/** Each framework's share, as a report's summary carries it for the trend. */
export function readinessShares(frameworks: readonly FrameworkReadiness[]): ReadinessShares {
  return Object.fromEntries(frameworks.map((framework) => [framework.framework, framework.share]));
}
