/**
 * How the app shows populations (docs/collectors.md § Collection runs): the words for a
 * completeness finding on a control's page, the chart of a source's population of a kind over
 * the last 90 days, and which sources the dashboard warns about. Pure, so it is tested without a
 * browser.
 */
import type { CollectionPopulation, CollectionPopulationPage, CollectionRun, CollectionSource, Finding } from './api-types.ts';
import { reasonText } from './collection-runs.ts';

type CompletenessIssue = NonNullable<Finding['completeness']>;
type Drop = NonNullable<CollectionRun['drops']>[number];
type IncompleteReason = NonNullable<CollectionRun['incompleteReason']>;

/** Why a control cannot pass on its population, in words. */
export const completenessReasonText: Record<CompletenessIssue['reason'], string> = {
  run_incomplete: 'The newest collection run of a source it reads ended incomplete',
  run_outdated: 'The newest complete run of a source it reads is older than the evidence may be',
  population_dropped: 'The population shrank past the threshold, and nobody has acknowledged why',
  reconciliation: 'One population does not cover another, as the control requires',
};

/** A finding about the population rather than a subject, with its completeness issue. */
export type CompletenessFinding = Finding & { completeness: CompletenessIssue };

export const completenessFindings = (findings: readonly Finding[]): CompletenessFinding[] =>
  findings.filter((finding): finding is CompletenessFinding => finding.completeness !== undefined);

/** The first characters of a SHA-256, enough to tell two apart at a glance; the whole value is shown beside it. */
export const shortHash = (sha256: string) => sha256.slice(0, 12);

/** `3 subjects not covered` or, when only some are listed, `45 subjects not covered; the first 20:`. */
export function uncoveredText({ count, subjects }: NonNullable<CompletenessIssue['uncovered']>): string {
  const total = `${count.toLocaleString('en')} ${count === 1 ? 'subject' : 'subjects'} not covered`;
  return subjects.length < count ? `${total}; the first ${subjects.length}:` : `${total}:`;
}

/** The days a population chart spans. */
export const chartDays = 90;

/** The first day of the chart ending `now`, as `since` asks it: the 90 days up to and including today (UTC). */
export function chartSince(now: Date): string {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (chartDays - 1)));
  return since.toISOString().slice(0, 10);
}

/** A chart's pages at most: a run an hour for 90 days is five pages of the maximum. */
export const maxChartPages = 5;

/**
 * Every population of a chart's window, newest first, page after page; it stops after
 * `maxChartPages` and says whether it did (`cut`), so a chart never loads without end.
 */
export async function loadPopulations(
  page: (cursor: string | undefined) => Promise<CollectionPopulationPage>,
): Promise<{ items: CollectionPopulation[]; cut: boolean }> {
  const items: CollectionPopulation[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < maxChartPages; pages++) {
    const answer = await page(cursor);
    items.push(...answer.items);
    if (!answer.hasMore || answer.nextCursor === undefined) return { items, cut: false };
    cursor = answer.nextCursor;
  }
  return { items, cut: true };
}

/** One complete run on a chart: where it is drawn, and its drop when the run shrank the population. */
export interface ChartPoint {
  runId: string;
  completedAt: string;
  count: number;
  x: number;
  y: number;
  drop?: Drop;
}

export interface PopulationChart {
  width: number;
  height: number;
  /** The population as a step line: a count holds until the next run completes, and to now after the last. */
  path: string;
  points: ChartPoint[];
  /** The value axis: 0, the middle when it is a whole number, and the top, and where each is drawn. */
  ticks: { value: number; y: number }[];
  /** Where the window starts and ends, for the time axis. */
  from: { label: string; x: number };
  to: { label: string; x: number };
}

const width = 640;
const height = 160;
const pad = { top: 12, right: 12, bottom: 24, left: 48 };

/** A top for the value axis at or above the largest count: 1, 2 or 5 times a power of ten. */
export function axisTop(largest: number): number {
  if (largest <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(largest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= largest)!;
}

/**
 * A population's chart over the window from `since` (a day) to `now`: `populations` as the API
 * lists them (newest first), oldest drawn left; `drops` are the kind's drops the page knows of,
 * which mark the runs that made them.
 */
export function populationChart(
  populations: readonly CollectionPopulation[],
  drops: ReadonlyMap<string, Drop>,
  since: string,
  now: Date,
): PopulationChart {
  const start = Date.parse(`${since}T00:00:00Z`);
  const end = Math.max(now.getTime(), start + 1);
  const top = axisTop(Math.max(0, ...populations.map((population) => population.count)));
  const x = (time: number) => pad.left + ((time - start) * (width - pad.left - pad.right)) / (end - start);
  const y = (count: number) => pad.top + ((top - count) * (height - pad.top - pad.bottom)) / top;
  const points = [...populations].reverse().map((population): ChartPoint => {
    const drop = drops.get(population.runId);
    return {
      runId: population.runId,
      completedAt: population.completedAt,
      count: population.count,
      x: round(x(Date.parse(population.completedAt))),
      y: round(y(population.count)),
      ...(drop ? { drop } : {}),
    };
  });
  const steps = points.map((point, index) => {
    const next = points[index + 1]?.x ?? round(x(end));
    return `${index === 0 ? 'M' : 'L'}${point.x},${point.y} H${next}`;
  });
  return {
    width,
    height,
    path: steps.join(' '),
    points,
    ticks: [0, ...(top % 2 === 0 ? [top / 2] : []), top].map((value) => ({ value, y: round(y(value)) })),
    from: { label: since, x: pad.left },
    to: { label: new Date(end).toISOString().slice(0, 10), x: width - pad.right },
  };
}

const round = (value: number) => Math.round(value * 10) / 10;

/** A kind's drops among runs, by the run that made each. */
export function dropsOfKind(runs: readonly CollectionRun[], kind: string): Map<string, Drop> {
  return new Map(
    runs.flatMap((run) => (run.drops ?? []).filter((drop) => drop.kind === kind).map((drop) => [run.id, drop] as const)),
  );
}

/** The kinds any of the runs opened, sorted: the charts a source's page draws. */
export const kindsOfRuns = (runs: readonly CollectionRun[]) => [...new Set(runs.flatMap((run) => run.kinds))].sort();

/** What the dashboard says of a source that needs someone: its newest run incomplete, or a drop awaiting acknowledgment. */
export interface CollectionAlert {
  source: string;
  /** Why its newest run is incomplete — cancelled too, which defines no population either; absent when it is not. */
  incomplete?: IncompleteReason;
  /** The kinds whose drop in the newest run nobody has acknowledged. */
  unacknowledged: string[];
}

/** The sources that need someone, in the order listed; none when all is well. */
export function collectionAlerts(sources: readonly CollectionSource[]): CollectionAlert[] {
  return sources.flatMap(({ source, newestRun }) => {
    const incomplete =
      newestRun.status === 'incomplete' || newestRun.status === 'cancelled' ? newestRun.incompleteReason : undefined;
    const unacknowledged = (newestRun.drops ?? []).filter((drop) => !drop.acknowledged).map((drop) => drop.kind);
    return incomplete || unacknowledged.length > 0 ? [{ source, ...(incomplete ? { incomplete } : {}), unacknowledged }] : [];
  });
}

/** A dashboard alert in one line: `its newest run is incomplete (counts disagree); a drop of idp.user awaits acknowledgment`. */
export function alertText({ incomplete, unacknowledged }: CollectionAlert): string {
  const parts = [
    ...(incomplete ? [`its newest run is incomplete (${reasonText[incomplete]})`] : []),
    ...(unacknowledged.length > 0 ? [`a drop of ${unacknowledged.join(', ')} awaits acknowledgment`] : []),
  ];
  return parts.join('; ');
}
