/**
 * What a report says in sum: its counts by status, its score and what changed since the report
 * before. Plain functions over results, apart from the engine, so what only reads reports (the
 * chat, at its cold start) does not load the CEL checks to sum them.
 */
import { severityWeights } from '@evident/contract';
import type { ControlResult, Report, ReportDiff, StatusCounts } from './model.js';

export function countStatuses(results: readonly Pick<ControlResult, 'status'>[]): StatusCounts {
  const counts: StatusCounts = { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 };
  for (const result of results) counts[result.status]++;
  return counts;
}

/**
 * Severity-weighted share of applicable controls that pass, 0–100 with one decimal; 100 with none
 * applicable. Scoped-out and risk-accepted controls are not applicable to it.
 */
export function scoreOf(results: readonly Pick<ControlResult, 'status' | 'severity' | 'riskAccepted'>[]): number {
  let total = 0;
  let passing = 0;
  for (const result of results) {
    if (result.status === 'not_applicable' || result.riskAccepted) continue;
    const weight = severityWeights[result.severity];
    total += weight;
    if (result.status === 'passing') passing += weight;
  }
  return total === 0 ? 100 : Math.round((1000 * passing) / total) / 10;
}

export function diffReports(
  current: readonly Pick<ControlResult, 'id' | 'status'>[],
  previous: { date: string; controls: readonly Pick<ControlResult, 'id' | 'status'>[] } | null,
): ReportDiff {
  const diff: ReportDiff = { previousDate: previous?.date ?? null, newlyFailing: [], fixed: [], newlyStale: [], changes: [] };
  if (!previous) return diff;
  const before = new Map(previous.controls.map((control) => [control.id, control.status]));
  for (const { id, status } of current) {
    const from = before.get(id);
    if (from === undefined || from === status) continue;
    diff.changes.push({ id, from, to: status });
    if (status === 'failing') diff.newlyFailing.push(id);
    if (status === 'stale') diff.newlyStale.push(id);
    if (from === 'failing' && status === 'passing') diff.fixed.push(id);
  }
  return diff;
}

export function summaryOf(controls: readonly Pick<ControlResult, 'status' | 'severity' | 'riskAccepted'>[]): Report['summary'] {
  return { score: scoreOf(controls), counts: countStatuses(controls), controls: controls.length };
}
