/**
 * Populations in evaluation (docs/collectors.md § Completeness): what collection runs change in
 * a report. Pure, like the rest of the engine: the run store's facts arrive as `SourcePopulation`s
 * read as of the report's cut-off (runs/population-inputs.ts).
 *
 * - A subject whose newest item came from a source with a complete run, was collected before
 *   that run opened, and is absent from it, has left the population: its old item no longer
 *   counts. Only the newest item per subject decides, as everywhere in evaluation, so a day's
 *   evidence state (evidence-state.ts) still holds everything a report reads.
 * - A control cannot pass when a source of a kind it requires has an incomplete newest run, a
 *   newest complete run older than the kind's freshness window, or an unacknowledged drop; nor
 *   when one of its reconciliations leaves subjects uncovered. Each is a `fail` finding with a
 *   `completeness` reason: the control is `failing`, as for any other known problem, so due
 *   dates, exceptions and readiness treat it as they treat a failing check.
 *
 * Runs of attestations and scanner findings are kept and shown, but define no population here:
 * those are read per control and per check, not per subject of a kind.
 */
import { isSubjectKind, maxUncoveredListed, plural } from '@evident/contract';
import { renderMessage } from './message-template.js';
import { populationFingerprint } from './sampling.js';
import type { Control, EvidenceItem, Finding, PopulationUsed, Reconciliation, SourcePopulation } from './model.js';

const dayMs = 24 * 60 * 60 * 1000;

/**
 * A population's hash, as the sampling method publishes it (sampling.ts `populationFingerprint`):
 * anyone holding the subjects re-derives it with `LC_ALL=C sort -u | sha256sum`.
 */
export const subjectsDigest = (subjects: Iterable<string>): string => populationFingerprint(subjects).sha256;

/** The populations by kind, each kind's in source order. */
export function populationsByKind(populations: readonly SourcePopulation[]): Map<string, SourcePopulation[]> {
  const byKind = new Map<string, SourcePopulation[]>();
  for (const population of [...populations].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0))) {
    if (!isSubjectKind(population.kind)) continue;
    const list = byKind.get(population.kind);
    if (list) list.push(population);
    else byKind.set(population.kind, [population]);
  }
  return byKind;
}

/** Whether a subject's newest item still counts: not left behind by a complete run of its source that did not report it. */
export function staysInPopulation(
  item: Pick<EvidenceItem, 'source' | 'subject'>,
  collected: number,
  populations: readonly SourcePopulation[] | undefined,
): boolean {
  const complete = populations?.find((population) => population.source === item.source)?.complete;
  if (!complete || complete.subjects.has(item.subject)) return true;
  // Evidence collected since the run opened speaks for itself; the run reported what it saw before.
  return collected >= Date.parse(complete.openedAt);
}

/** The completeness findings of one kind a control requires: one per source whose runs leave the population in doubt. */
export function runFindings(
  control: Control,
  requirement: { kind: string; freshnessDays: number },
  populations: readonly SourcePopulation[],
  asOf: number,
): Finding[] {
  const findings: Finding[] = [];
  const { kind } = requirement;
  for (const { source, complete, incomplete } of populations) {
    if (incomplete) {
      findings.push({
        outcome: 'fail',
        kind,
        message:
          `The newest ${kind} run of ${source} (${incomplete.runId}) is incomplete: ${incompleteInWords(incomplete.reason)}. ` +
          `${control.id} cannot pass until a run of ${source} completes.`,
        evidence: [],
        completeness: { reason: 'run_incomplete', source, runId: incomplete.runId },
      });
    } else if (complete && asOf - Date.parse(complete.endedAt) > requirement.freshnessDays * dayMs) {
      const age = Math.floor((asOf - Date.parse(complete.endedAt)) / dayMs);
      findings.push({
        outcome: 'fail',
        kind,
        message:
          `The newest complete ${kind} run of ${source} (${complete.runId}) ended ${plural(age, 'day')} ago; ` +
          `${control.id} needs one within ${plural(requirement.freshnessDays, 'day')}.`,
        evidence: [],
        completeness: { reason: 'run_outdated', source, runId: complete.runId },
      });
    }
    if (complete?.drop && !complete.drop.acknowledged) {
      const { previousCount, percent, previousRunId } = complete.drop;
      findings.push({
        outcome: 'fail',
        kind,
        message:
          `The ${kind} population of ${source} dropped ${percent} % (from ${previousCount} in ${previousRunId} to ` +
          `${complete.count} in ${complete.runId}); ${control.id} cannot pass until someone acknowledges the drop.`,
        evidence: [],
        completeness: { reason: 'population_dropped', source, runId: complete.runId },
      });
    }
  }
  return findings;
}

function incompleteInWords(reason: NonNullable<SourcePopulation['incomplete']>['reason']): string {
  if (reason === 'abandoned') return 'it was not completed in time';
  if (reason === 'cancelled') return 'it was cancelled';
  if (reason === 'failed') return 'its collector failed before it finished';
  return 'the counts its collector declared disagree with what arrived';
}

/** The population a control's checks of one kind ran on: its fresh subjects, and the complete runs that define it. */
export function populationUsed(
  kind: string,
  freshSubjects: readonly string[],
  populations: readonly SourcePopulation[],
): PopulationUsed {
  const { count, sha256 } = populationFingerprint(freshSubjects);
  return {
    kind,
    count,
    sha256,
    runs: populations.flatMap(({ source, complete }) =>
      complete
        ? [{ source, runId: complete.runId, completedAt: complete.endedAt, count: complete.count, sha256: complete.sha256 }]
        : [],
    ),
  };
}

/** One side of a reconciliation as evaluation sees it: the current items of a kind that its `where` admits. */
export interface ReconciledItems {
  population: readonly EvidenceItem[];
  coveredBy: readonly EvidenceItem[];
}

/**
 * A reconciliation's finding when it leaves subjects uncovered: their first few by subject and
 * their count, citing their items.
 */
export function reconciliationFinding(
  control: Control,
  reconciliation: Reconciliation,
  items: ReconciledItems,
): Finding | undefined {
  const keys = new Set(items.coveredBy.map((item) => keyOf(item, reconciliation.coveredBy.key ?? 'subject')));
  const uncovered = items.population
    .filter((item) => !keys.has(renderMessage(reconciliation.expect, { subject: item.subject, data: item.data })))
    .sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
  if (uncovered.length === 0) return undefined;
  const listed = uncovered.slice(0, maxUncoveredListed);
  const named = listed.map((item) => item.subject).join(', ');
  const more = uncovered.length > listed.length ? ` and ${uncovered.length - listed.length} more` : '';
  return {
    outcome: 'fail',
    kind: reconciliation.population.kind,
    message:
      `${plural(uncovered.length, `${reconciliation.population.kind} subject has`, `${reconciliation.population.kind} subjects have`)} ` +
      `no ${reconciliation.coveredBy.kind} (${reconciliation.description}): ${named}${more}.`,
    evidence: listed.map((item) => item.id),
    completeness: {
      reason: 'reconciliation',
      reconciliation: reconciliation.id,
      uncovered: { count: uncovered.length, subjects: listed.map((item) => item.subject) },
    },
  };
}

/** The value an item is matched by: its subject, or a field of its data (as text; absent matches nothing). */
function keyOf(item: EvidenceItem, key: string): string | undefined {
  if (key === 'subject') return item.subject;
  const value = (item.data as Record<string, unknown>)[key.slice('data.'.length)];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}
