/**
 * A question about evidence going stale ahead ("what evidence will go stale this week", "what
 * expires before the audit on 2027-02-01"): its horizon, evidence kinds, subjects or controls.
 */
import { addDays } from '../../assessment/dates.js';
import { daysIn, monthAhead, windowAhead, type Window } from './days.js';
import type { Asked } from './asked.js';
import { stem, stopWords, tokenize } from '../vocabulary.js';
import { controlsNamedIn } from './topics.js';
import { followedBy, statusesIn } from './question-cues.js';
import type { Query } from '../question.js';

export type ExpiringQuery = Extract<Query, { kind: 'expiring' }>;

const freshnessCue =
  /\b(go(es|ing)? stale|(will|would) (be|go|become|get|turn) stale|becomes? stale|gets? stale|expires?|expiring|runs? out|running out|laps(e|es|ing)|need\w* (renewing|redoing|refreshing|renewal|to be (renewed|redone|refreshed))|due (for renewal|to be (renewed|redone|refreshed))|stops? (counting as |being )?fresh|(how long (until|till|before)|when)\b[^?.]{0,60}\bout of date)\b/;

/** The last day the question looks to: a date ("before 2027-02-01", the day before it), a window ahead, or a month ("before April"). */
function horizonIn(text: string, reportDate: string): Window | undefined {
  const date = daysIn(text, reportDate, 'ahead').find((named) => named.date > reportDate);
  if (date) return { until: /\b(by|until|through)\b/.test(text) ? date.date : addDays(date.date, -1), phrase: date.phrase };
  const month = monthAhead(text, reportDate);
  return windowAhead(text, reportDate) ?? (month && { until: addDays(month.date, -1), phrase: month.phrase });
}

export function expiringQuery({ text, index, ids: named, cited, last, reportDate }: Asked): ExpiringQuery | undefined {
  // "And before the end of February?" after a question about what goes stale asks it again.
  const again = /^(and|what about|how about|ok,? and)\b/.test(text) && freshnessCue.test(last);
  if (!freshnessCue.test(text) && !again) return undefined;
  // "When did it go stale?" asks about the past: the control's history, not what lies ahead.
  if (followedBy(text, /\b(did|went|was|were|had|has been)\b/, /\b(stale|expire|lapse)/)) return undefined;
  const words = new Set(tokenize(text).flatMap((token) => (token.length >= 4 && !stopWords.has(token) ? [stem(token)] : [])));
  const items = index.controls.flatMap((entry) => entry.result.expiring ?? []);
  // A kind by its first word ("vendor" of vendor.assessment) or every word of its name ("restore test" of
  // backup.restore_test): "pen test" is not a restore test.
  const said = (part: string) => words.has(stem(part));
  const kinds = [...new Set(items.map((item) => item.kind))].filter((kind) => {
    const [first = '', name = ''] = kind.split('.');
    return said(first) || name.split('_').every(said);
  });
  const subjects = [...new Set(items.map((item) => item.subject))].filter((subject) =>
    tokenize(subject).some((token) => token.length >= 4 && words.has(stem(token))),
  );
  const horizon = horizonIn(text, reportDate);
  const controlIds =
    named.length > 0
      ? named
      : /\b(their|its|those|them|these|they)\b/.test(text)
        ? cited
        : kinds.length + subjects.length === 0 && !horizon
          ? controlsNamedIn(text.replace(new RegExp(freshnessCue.source, 'g'), ' '), index)
          : [];
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
