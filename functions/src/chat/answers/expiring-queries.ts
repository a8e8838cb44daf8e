/**
 * Freshness ahead ("what expires before the audit on 2027-02-01", "when does the Datadog assessment go stale"), from each
 * control's `expiring` list in the report (the evidence that ages on its own, with the instant each item stops counting),
 * narrowed by the question's horizon, evidence kind, subject or controls.
 */
import { dayIn } from '../../assessment/dates.js';
import { expiringHorizonDays } from '@evident/contract';
import { answered, byId, counted, escapeMarkdown, more, type ComposedAnswer } from './compose.js';
import { type ReportIndex } from '../report-index.js';
import type { Query } from '../query-model.js';

type ExpiringQuery = Extract<Query, { kind: 'expiring' }>;

/** Items listed in one answer; the rest are counted. */
const shownItems = 30;

const evidenceOf = ({ kind, subject }: { kind: string; subject: string }) => `${kind} evidence for ${escapeMarkdown(subject)}`;

export function answerExpiring(query: ExpiringQuery, index: ReportIndex): ComposedAnswer {
  const { report } = index;
  const { kinds, subjects, controlIds, statuses, from, until, phrase } = query;
  const dayOf = (time: string | number) => dayIn(report.timeZone, new Date(time));
  const asked = <T>(wanted: readonly T[] | undefined, value: T) => !wanted || wanted.includes(value);
  const selected = index.controls
    .flatMap(({ result }) => (result.expiring ?? []).map((item) => ({ ...item, result, day: dayOf(item.staleAt) })))
    .filter((item) => asked(kinds, item.kind) && asked(subjects, item.subject))
    .filter(({ result }) => asked(controlIds, result.id) && asked(statuses, result.status));
  const bySoonest = (a: { staleAt: string }, b: { staleAt: string }) => (a.staleAt < b.staleAt ? -1 : 1);
  const within = selected.filter(({ day }) => (!until || day <= until) && (!from || day >= from)).sort(bySoonest);
  const span = until ? `${from ? ` between ${from} and ${until}` : ` by ${until}`}${phrase ? ` (${phrase})` : ''}` : '';
  // The report lists what goes stale within its horizon only; a later day is answered up to it, and says so.
  const horizonEnd = dayOf(Date.parse(report.asOf) + expiringHorizonDays * 86_400_000);
  const aside =
    'Daily collector snapshots, which their next collection renews, are not counted.' +
    (!until || until > horizonEnd ? ` The report looks ${expiringHorizonDays} days ahead, to ${horizonEnd}.` : '');
  if (within.length === 0) {
    const next = selected.sort(bySoonest)[0];
    const none = `No evidence goes stale${span} in the report for ${report.date}. ${aside}`;
    return answered([none, ...(next ? ['', `The next to go stale is the ${evidenceOf(next)}, on ${next.day}.`] : [])], []);
  }
  // An evidence item may count for several controls: one line for it, naming them all.
  const byItem = [...Map.groupBy(within, (item) => item.evidenceId).values()];
  const lines = byItem.slice(0, shownItems).map((items) => {
    const controls = items.map(({ result }) => `**${result.id}**`).join(', ');
    return `- The ${evidenceOf(items[0]!)} goes stale on **${items[0]!.day}** (for ${controls})`;
  });
  const cited = new Map(byItem.slice(0, shownItems).flatMap((items) => items.map(({ result }) => [result.id, result] as const)));
  const lead = `${counted(byItem.length, 'evidence item', 'goes', 'go')} stale${span} unless renewed. ${aside}`;
  return answered([lead, '', ...lines, ...more(byItem.length - shownItems)], [...cited.values()].sort(byId));
}
