/**
 * Freshness ahead ("what expires before the audit on 2027-02-01", "when does the Datadog assessment go stale"), from each
 * control's `expiring` list in the report (the evidence that ages on its own, with the instant each item stops counting),
 * narrowed by the question's horizon, evidence kind, subject or controls.
 */
import { addDays, dayIn } from '../../assessment/dates.js';
import { expiringHorizonDays } from '@evident/contract';
import { answered, byId, counted, escapeMarkdown, more, type ComposedAnswer } from './compose.js';
import { daysIn, monthAhead, windowAhead, type Window } from '../offline/days.js';
import type { ChatTurn } from '../intent-model.js';
import { controlIdsIn, type ReportIndex } from '../report-index.js';
import { lastQuestion, previouslyCited } from '../offline/topics.js';
import { stem, stopWords, tokenize } from '../vocabulary.js';
import { followedBy, statusesIn } from '../offline/question-cues.js';
import type { Query } from '../query-model.js';

type ExpiringQuery = Extract<Query, { kind: 'expiring' }>;

const freshnessCue =
  /\b(go(es|ing)? stale|(will|would) (be|go|become|get|turn) stale|becomes? stale|gets? stale|expires?|expiring|runs? out|running out|laps(e|es|ing)|need\w* (renewing|redoing|refreshing|renewal|to be (renewed|redone|refreshed))|due for renewal)\b/;

/** The last day the question looks to: a date ("before 2027-02-01", the day before it), a window ahead, or a month ("before April"). */
function horizonIn(text: string, reportDate: string): Window | undefined {
  const date = daysIn(text, reportDate, 'ahead').find((named) => named.date > reportDate);
  if (date) return { until: /\b(by|until|through)\b/.test(text) ? date.date : addDays(date.date, -1), phrase: date.phrase };
  const month = monthAhead(text, reportDate);
  return windowAhead(text, reportDate) ?? (month && { until: addDays(month.date, -1), phrase: month.phrase });
}

export function expiringQuery(text: string, history: readonly ChatTurn[], index: ReportIndex): ExpiringQuery | undefined {
  // "And before the end of February?" after a question about what goes stale asks it again.
  const again = /^(and|what about|how about|ok,? and)\b/.test(text) && freshnessCue.test(lastQuestion(history));
  if (!freshnessCue.test(text) && !again) return undefined;
  // "When did it go stale?" asks about the past: the control's history, not what lies ahead.
  if (followedBy(text, /\b(did|went|was|were|had|has been)\b/, /\b(stale|expire|lapse)/)) return undefined;
  const words = new Set(
    tokenize(text)
      .filter((token) => token.length >= 4 && !stopWords.has(token))
      .map(stem),
  );
  const items = index.controls.flatMap((entry) => entry.result.expiring ?? []);
  const kinds = [...new Set(items.map((item) => item.kind))].filter((kind) =>
    kind.split(/[._]/).some((part) => words.has(stem(part))),
  );
  const subjects = [...new Set(items.map((item) => item.subject))].filter((subject) =>
    tokenize(subject).some((token) => token.length >= 4 && words.has(stem(token))),
  );
  const named = controlIdsIn(index, text);
  const controlIds =
    named.length > 0 ? named : /\b(their|its|those|them|these|they)\b/.test(text) ? previouslyCited(history, index) : [];
  const horizon = horizonIn(text, index.report.date);
  // "Which controls are passing but have evidence on the expiring list?"
  const { statuses } = statusesIn(
    text.replace(new RegExp(freshnessCue.source, 'g'), ' ').replace(/\b(stale|out of date|expired)\b/g, ' '),
  );
  return {
    kind: 'expiring',
    ...(horizon ? { until: horizon.until, phrase: horizon.phrase } : {}),
    ...(horizon?.from ? { from: horizon.from } : {}),
    ...(kinds.length > 0 ? { kinds } : {}),
    ...(subjects.length > 0 ? { subjects } : {}),
    ...(controlIds.length > 0 ? { controlIds } : {}),
    ...(statuses.length > 0 ? { statuses } : {}),
  };
}

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
