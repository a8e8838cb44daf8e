/**
 * The days and spans of days a question names, read for queries over the report history:
 * every date in it ("2026-11-14", "Nov 14", "the 12th", "today", "yesterday"), and a span
 * ("over the past week", "the last 10 days", "this month", "all quarter", "in November",
 * "between the 12th and the 18th"). Spans end on the report's day unless they say otherwise.
 */
import { addDays, isCalendarDate } from '../../assessment/dates.js';
import { monthNames, monthPattern, namedDates, numberWords, type NamedDate } from '../day-phrases.js';
import type { Period } from './query-model.js';

/** Every calendar date the text names, in order: those written out (day-phrases.ts reads them), "today" and "yesterday". */
export function datesIn(text: string, reportDate: string): NamedDate[] {
  const relative = [...text.matchAll(/\b(today|now|yesterday)\b/g)].map((match) => ({
    date: match[1] === 'yesterday' ? addDays(reportDate, -1) : reportDate,
    phrase: match[0],
    at: match.index,
  }));
  // "a week ago", "3 days ago", "two weeks back"
  for (const match of text.matchAll(
    /\b(a|an|one|two|three|four|five|six|seven|ten|\d+) (days?|weeks?|wks?) (ago|back|before)\b/g,
  )) {
    const days = count(match[1] === 'a' || match[1] === 'an' ? '1' : match[1]!) * (match[2]!.startsWith('d') ? 1 : 7);
    relative.push({ date: addDays(reportDate, -days), phrase: match[0], at: match.index });
  }
  return [...namedDates(text, reportDate).filter((named) => isCalendarDate(named.date)), ...relative].sort((a, b) => a.at - b.at);
}

const count = (word: string) =>
  /^\d+$/.test(word) ? Number(word) : word === 'couple of' ? 2 : word === 'few' ? 3 : (numberWords[word] ?? 1);
const unitOf = (word: string) =>
  word.startsWith('d')
    ? 'day'
    : word.startsWith('w')
      ? 'week'
      : word.startsWith('m')
        ? 'month'
        : word.startsWith('q')
          ? 'quarter'
          : 'year';

/** Two dates with "to", "through", "until", "-" or "and" between them: the span from the first to the second. */
function rangeIn(text: string, reportDate: string): Period | undefined {
  const [first, second] = datesIn(text, reportDate);
  if (!first || !second || first.date >= second.date) return undefined;
  const between = text.slice(first.at + first.phrase.length, second.at);
  if (!/^\s*(to|through|thru|until|till|-|and)\s*$/.test(between)) return undefined;
  return { from: first.date, to: second.date, phrase: `${first.phrase} to ${second.phrase}` };
}
const spanUnit: Record<string, number> = { day: 1, week: 7, month: 30, quarter: 91, year: 365 };

/** A span ending on the report's day, or a named month; undefined when the text names none. */
export function periodIn(text: string, reportDate: string): Period | undefined {
  const back = (days: number, phrase: string): Period => ({ from: addDays(reportDate, -(days - 1)), to: reportDate, phrase });
  const relative = text.match(
    /\b(?:over |in |during |for )?(?:the )?(?:(?:last|past|previous) (?:(\d+|two|three|four|five|six|seven|ten|couple of|few) )?|(?:whole|entire|full|all) (\d+|two|three|four|five|six|seven|ten) )(days?|d|weeks?|wks?|months?|mos?|quarters?|years?|yrs?)\b/,
  );
  if (relative)
    return back(
      count(relative[1] ?? relative[2] ?? '1') * spanUnit[unitOf(relative[3]!)]!,
      relative[0].replace(/^(over|in|during|for) /, '').trim(),
    );
  const range = rangeIn(text, reportDate);
  if (range) return range;
  if (/\bfortnight\b/.test(text)) return back(14, 'the last fortnight');
  const current = text.match(/\b(?:this|all|the whole|the entire|whole) (week|month|quarter|year)\b/);
  if (current) {
    const unit = current[1]!;
    if (unit === 'week') return back(7, current[0]);
    if (unit === 'month') return { from: `${reportDate.slice(0, 8)}01`, to: reportDate, phrase: current[0] };
    if (unit === 'year') return { from: `${reportDate.slice(0, 5)}01-01`, to: reportDate, phrase: current[0] };
    const m = Number(reportDate.slice(5, 7));
    const first = Math.floor((m - 1) / 3) * 3 + 1;
    return { from: `${reportDate.slice(0, 5)}${String(first).padStart(2, '0')}-01`, to: reportDate, phrase: current[0] };
  }
  const year = /\b(?:in|for|during|over|of) (\d{4})\b(?![-/.]\d)/.exec(text);
  if (year) {
    const end = `${year[1]}-12-31`;
    return { from: `${year[1]}-01-01`, to: end < reportDate ? end : reportDate, phrase: year[0] };
  }
  const named = text.match(new RegExp(`\\b(?:in|for|during|of|over) ${monthPattern}(?! \\d{1,2}\\b)(?:,? (\\d{4}))?`));
  if (named) {
    const m = monthNames.indexOf(named[1]!) + 1;
    let y = named[2] ? Number(named[2]) : Number(reportDate.slice(0, 4));
    const from = `${y}-${String(m).padStart(2, '0')}-01`;
    if (!named[2] && from > reportDate) y -= 1;
    const start = `${y}-${String(m).padStart(2, '0')}-01`;
    const end = addDays(`${m === 12 ? y + 1 : y}-${String((m % 12) + 1).padStart(2, '0')}-01`, -1);
    return { from: start, to: end < reportDate ? end : reportDate, phrase: named[0] };
  }
  return undefined;
}
