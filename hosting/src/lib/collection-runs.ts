/** How the Sources pages word a collection run. Pure, so it is tested without a browser. */
import type { CollectionRun } from './api-types.ts';

type IncompleteReason = NonNullable<CollectionRun['incompleteReason']>;

/** Why a run is incomplete, in a few words. */
export const reasonText: Record<IncompleteReason, string> = {
  counts_disagree: 'counts disagree',
  abandoned: 'not completed in time',
  cancelled: 'cancelled',
  failed: 'failed',
};

/** A run's status badge: its words, and the tone it is shown in. */
export function runBadge(run: Pick<CollectionRun, 'status' | 'incompleteReason'>): {
  text: string;
  tone: 'ok' | 'bad' | 'busy' | 'muted';
} {
  switch (run.status) {
    case 'complete':
      return { text: 'Complete', tone: 'ok' };
    case 'running':
      return { text: 'Running', tone: 'busy' };
    case 'cancelled':
      return { text: 'Cancelled', tone: 'muted' };
    case 'incomplete':
      return { text: run.incompleteReason ? `Incomplete: ${reasonText[run.incompleteReason]}` : 'Incomplete', tone: 'bad' };
  }
}

/** Counts per kind as one line, kinds in order: `idp.user 12, endpoint.device 3`; a dash for none. */
export function countsText(counts: Record<string, number> | undefined): string {
  const entries = Object.entries(counts ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  return entries.length === 0 ? '–' : entries.map(([kind, count]) => `${kind} ${count.toLocaleString('en')}`).join(', ');
}

/** The page of one source's runs. Any character may be in a source's name, a slash too. */
export const sourcePath = (source: string) => `/sources/${encodeURIComponent(source)}`;

/** The source a `/sources/<source>` segment names; undefined when it does not decode. */
export function sourceOfSegment(segment: string): string | undefined {
  try {
    const source = decodeURIComponent(segment);
    return source.length > 0 ? source : undefined;
  } catch {
    return undefined;
  }
}

type Drop = NonNullable<CollectionRun['drops']>[number];

/** A population's drop in one line: `idp.user: 200 → 140 subjects (−30 %)`. */
export const dropText = (drop: Pick<Drop, 'kind' | 'previousCount' | 'count' | 'percent'>) =>
  `${drop.kind}: ${drop.previousCount.toLocaleString('en')} → ${drop.count.toLocaleString('en')} subjects ` +
  `(−${drop.percent.toLocaleString('en')} %)`;
