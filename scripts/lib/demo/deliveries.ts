/**
 * How a demo day's evidence reaches Evident: one delivery per source, in the order the sources
 * report (demo-evidence.ts). A collector opens a collection run for its source and the kinds it
 * sends, sends its items under it as one batch once it has collected them all, and completes the
 * run with the count it sent per kind, as `npm run collect` does. Prowler's scan is sent without a
 * run (an OCSF scan names many sources, and `npm run collect` sends one without), and so are the
 * attestations people make by hand.
 *
 * Two runs go otherwise:
 *
 *   yesterday            the HR system's collector crashes after sending its first page of five
 *                        people, and has not run since. It never completes its run, which reads
 *                        as abandoned once its `expiresAt` passes (RUN_ABANDON_HOURS after
 *                        opening, six hours by default); the five items it sent are stored as any
 *                        others, the other people are not sent, and today nothing is: the HR
 *                        source's newest run is the abandoned one, so its controls cannot pass.
 *   today                the GitHub collector's token, renewed overnight, was granted four of the
 *                        six repositories: its run completes with 4 repositories where yesterday's
 *                        had 6, a population drop of 33.3 % that awaits acknowledgement.
 *
 * Without collection runs every source sends all its items of the day as one batch, as the demo
 * did before runs existed: the same items, in the same batches, at the same times.
 */
import type { EvidenceInput } from '../../../functions/src/assessment/model.ts';
import { scannerFindingKind } from '../../../functions/src/common/ocsf-findings.ts';
import type { DemoDay } from './demo-evidence.ts';

/** The run a collector sends under: opened when it collects its first item, completed once its batch is answered. */
export interface DemoRun {
  kinds: EvidenceInput['kind'][];
  openedAt: Date;
  /** When it completes its run with the counts it sent; absent when it crashed and never did. */
  completedAt?: Date;
}

/** A source's batch of the day, and the run it is sent under, if any. */
export interface Delivery {
  source: string;
  items: EvidenceInput[];
  /** When the batch was answered: half a minute after its last item was collected, never after now. */
  sentAt: Date;
  run?: DemoRun;
}

const crashedSource = 'hris-collector';
const crashDaysAgo = 1;
/** The HR collector sends pages of five people; it crashes fetching the second. */
const sentBeforeCrash = 5;

const droppingSource = 'github-collector';
/** The repositories the renewed GitHub token was not granted. */
const repositoriesOutOfReach = ['acme/mobile-app', 'acme/docs'];

/** Attestations and scanner findings reach Evident by hand and by import, never through a collector's run. */
const sentThroughRun = (items: readonly EvidenceInput[]) =>
  items.every((item) => item.kind !== 'attestation' && item.kind !== scannerFindingKind);

/** A day's items by source, in the order the sources report. */
function bySource(items: readonly EvidenceInput[]): Map<string, EvidenceInput[]> {
  const grouped = new Map<string, EvidenceInput[]>();
  for (const item of items) {
    let group = grouped.get(item.source);
    if (!group) grouped.set(item.source, (group = []));
    group.push(item);
  }
  return grouped;
}

const crashes = (source: string, day: DemoDay) => source === crashedSource && day.ago === crashDaysAgo;
/** After the crash the HR collector sends nothing. */
const down = (source: string, day: DemoDay) => source === crashedSource && day.ago < crashDaysAgo;

/** The items a collector sends on the day, the story's two runs aside: all of them. */
function sent(source: string, items: EvidenceInput[], day: DemoDay): EvidenceInput[] {
  if (crashes(source, day)) return items.slice(0, sentBeforeCrash);
  if (source === droppingSource && day.ago === 0) return items.filter((item) => !repositoriesOutOfReach.includes(item.subject));
  return items;
}

/** The deliveries of a day, under runs when `collectionRuns` is true; `now` bounds every time, as it bounds the day's collections. */
export function deliveriesOf(day: DemoDay, options: { now: Date; collectionRuns: boolean }): Delivery[] {
  const collectedAt = (items: readonly EvidenceInput[]) => items.map((item) => Date.parse(item.collectedAt));
  const batchOf = (source: string, items: EvidenceInput[]): Delivery => ({
    source,
    items,
    sentAt: new Date(Math.min(Math.max(...collectedAt(items)) + 30_000, options.now.getTime())),
  });
  return [...bySource(day.evidence)].flatMap(([source, items]): Delivery[] => {
    if (!options.collectionRuns || !sentThroughRun(items)) return [batchOf(source, items)];
    if (down(source, day)) return [];
    const batch = batchOf(source, sent(source, items, day));
    return [
      {
        ...batch,
        run: {
          kinds: [...new Set(batch.items.map((item) => item.kind))],
          openedAt: new Date(Math.min(...collectedAt(batch.items))),
          ...(crashes(source, day) ? {} : { completedAt: batch.sentAt }),
        },
      },
    ];
  });
}
