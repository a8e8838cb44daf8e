/**
 * The days a question names: relative ("yesterday", "3 days ago"), by weekday ("since Monday"),
 * or by date ("2026-11-15", "Nov 15th", "the 15th"), and whether each names one day on its own or
 * where a comparison starts. A date whose day and month order cannot be told ("11/14/2026") is
 * reported as such, to be declined rather than guessed.
 */
import { addDays, isCalendarDate } from '../assessment/dates.js';
import type { Since } from './intent-model.js';

export const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
export const numberWords: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
};

/** A day the question names: relative ("yesterday", "3 days ago") or by weekday, and whether it names one day only. */
export type RelativeDay = Since & {
  /**
   * Names one day on its own ("3 days ago", "on Monday", "in the last report") rather than where
   * a comparison or a period starts ("since yesterday", "over the past 3 days").
   */
  point: boolean;
};

/**
 * The earlier day a question names. A relative day or weekday is returned with its date; a date
 * that is named but not as a starting point ("what failed on 2026-11-15") is returned as `other`;
 * a date written in a format whose day and month order cannot be told ("11/14/2026",
 * "14.11.2026") as `format`, to be declined rather than guessed.
 */
export function sinceIn(
  text: string,
  reportDate: string,
): RelativeDay | { other: string; phrase: string } | { invalid: string } | { format: string } | undefined {
  const foreign = foreignDateIn(text);
  if (foreign) return { format: foreign };
  const count = (word: string) => (/^\d+$/.test(word) ? Number(word) : (numberWords[word] ?? 1));
  // [pattern, days back (null: the previous report), whether it can name one day on its own]
  const relative: [RegExp, (match: RegExpMatchArray) => number | null, boolean][] = [
    [/\byesterday\b/, () => 1, true],
    [/\b(the )?(last|previous|prior|latest) (report|run|assessment|one)\b|\bday before\b/, () => null, true],
    [/\b(last|past|previous) week\b/, () => 7, false],
    [/\ba week ago\b|\bweek ago\b/, () => 7, true],
    [/\b(last two weeks|past two weeks|fortnight)\b/, () => 14, false],
    [/\btwo weeks ago\b/, () => 14, true],
    [
      /\b(\d+|a|an|one|two|three|four|five|six|seven|ten) (day|week)s? ago\b/,
      (match) => (match[2] === 'week' ? 7 : 1) * count(match[1]!),
      true,
    ],
    [
      /\b(?:last|past) (\d+|two|three|four|five|six|seven|ten) (day|week)s\b/,
      (match) => (match[2] === 'week' ? 7 : 1) * count(match[1]!),
      false,
    ],
  ];
  for (const [pattern, days, canBePoint] of relative) {
    const match = text.match(pattern);
    if (!match) continue;
    const back = days(match);
    return {
      date: back === null ? null : addDays(reportDate, -back),
      phrase: match[0],
      point: canBePoint && !namedAsStart(text, match[0]),
    };
  }
  const weekday = text.match(
    /\b(?:since|from|on|compared (?:to|with)|last) (sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/,
  );
  if (weekday) {
    const target = weekdays.indexOf(weekday[1]!);
    let date = addDays(reportDate, -1);
    while (new Date(`${date}T00:00:00Z`).getUTCDay() !== target) date = addDays(date, -1);
    return { date, phrase: weekday[1]!, point: !namedAsStart(text, weekday[1]!) };
  }
  const named = namedDates(text, reportDate)[0];
  if (!named) return undefined;
  if (!isCalendarDate(named.date)) return { invalid: named.phrase };
  return namedAsStart(text, named.phrase) ? { ...named, point: false } : { other: named.date, phrase: named.phrase };
}

/** Whether the day is named as where a comparison starts: "since …", "compared with …", "from last …". */
const namedAsStart = (text: string, phrase: string) =>
  new RegExp(
    `\\b(since|from|between|compared (to|with)|versus|vs\\.?|after|relative to|than( on)?)\\s+(the\\s+|last\\s+)?${escapeRegExp(phrase)}`,
  ).test(text);

/**
 * A numeric date that is not ISO: three numbers with slashes, dots or day-first dashes
 * ("11/14/2026", "14.11.2026", "14-11-2026", "2026/11/14"), or day and month with a slash right
 * after a word that introduces a day ("since 11/14"). Whether 05/06 is May or June cannot be told,
 * so such a date is never read. Two numbers without such a word ("24/7", a score of "75.7") are not
 * dates.
 */
function foreignDateIn(text: string): string | undefined {
  const full = /(?<![\w./-])(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}[/.]\d{1,2}[/.]\d{1,2})(?![\w/-]|\.\d)/.exec(text);
  if (full) return full[0];
  return /\b(?:since|from|before|after|until|between|compared (?:to|with)|versus|vs\.?|as of) (\d{1,2}\/\d{1,2})(?![\w/.-])/.exec(
    text,
  )?.[1];
}

/** A date the text names, where it starts, and whether it is a calendar date at all ("feb 30" is not). */
export interface NamedDate {
  date: string;
  phrase: string;
  at: number;
}

/** A month's name or its three-letter abbreviation ("mar", "march", not "marked"); the first group is its abbreviation. */
export const monthPattern =
  '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|tember|t|ober|ember)?(?![a-z])\\.?';
const ymd = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/**
 * Every date the text writes out, in the order it names them, calendar dates or not: ISO
 * ("2026-11-14"), month and day ("Nov 14th", "14 November 2026"), "the 12th". A month and day without a year is the latest such day on or before the report's;
 * "the 12th" is this month's, or last month's when that is still to come.
 */
export function namedDates(text: string, reportDate: string): NamedDate[] {
  const year = Number(reportDate.slice(0, 4));
  const found: NamedDate[] = [];
  const add = (date: string, phrase: string, at: number) => {
    if (!found.some((named) => at < named.at + named.phrase.length && at + phrase.length > named.at))
      found.push({ date, phrase, at });
  };
  const latest = (m: number, d: number) => (ymd(year, m, d) <= reportDate ? ymd(year, m, d) : ymd(year - 1, m, d));
  for (const match of text.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g))
    add(ymd(Number(match[1]), Number(match[2]), Number(match[3])), match[0], match.index);
  for (const match of text.matchAll(new RegExp(`\\b${monthPattern} (\\d{1,2})(?:st|nd|rd|th)?(?:,? (\\d{4}))?\\b`, 'g'))) {
    const m = monthNames.indexOf(match[1]!) + 1;
    add(match[3] ? ymd(Number(match[3]), m, Number(match[2])) : latest(m, Number(match[2])), match[0], match.index);
  }
  for (const match of text.matchAll(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${monthPattern}(?:,? (\\d{4}))?\\b`, 'g'),
  )) {
    const m = monthNames.indexOf(match[2]!) + 1;
    add(match[3] ? ymd(Number(match[3]), m, Number(match[1])) : latest(m, Number(match[1])), match[0], match.index);
  }
  for (const match of text.matchAll(/\bthe (\d{1,2})(?:st|nd|rd|th)\b/g)) {
    const day = String(Number(match[1])).padStart(2, '0');
    const sameMonth = `${reportDate.slice(0, 8)}${day}`;
    add(
      sameMonth <= reportDate ? sameMonth : `${addDays(`${reportDate.slice(0, 8)}01`, -1).slice(0, 8)}${day}`,
      match[0],
      match.index,
    );
  }
  return found.sort((a, b) => a.at - b.at);
}

/** The first day of the named month ("march", "dec") after the report's day, in `year` when given. */
export function monthAhead(word: string, year: number | undefined, reportDate: string): string {
  const m = monthNames.indexOf(word.slice(0, 3)) + 1;
  const first = ymd(year ?? Number(reportDate.slice(0, 4)), m, 1);
  return year === undefined && first <= reportDate ? ymd(Number(reportDate.slice(0, 4)) + 1, m, 1) : first;
}

/** The last day of the named month ahead (this month's when it is the report's), in `year` when given. */
export function monthEndAhead(word: string, year: number | undefined, reportDate: string): string {
  const m = monthNames.indexOf(word.slice(0, 3)) + 1;
  const y = year ?? Number(reportDate.slice(0, 4));
  const end = addDays(m === 12 ? ymd(y + 1, 1, 1) : ymd(y, m + 1, 1), -1);
  return year === undefined && end < reportDate ? monthEndAhead(word, y + 1, reportDate) : end;
}

const quarterWords: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, q1: 1, q2: 2, q3: 3, q4: 4 };

/**
 * A window of days ahead that a question names by months or quarters: "by the end of January
 * 2027", "in Q2 next year", "April through June 2027", "in December". Undefined when it names none.
 */
export function windowAhead(text: string, reportDate: string): { from?: string; until: string; phrase: string } | undefined {
  const thisYear = Number(reportDate.slice(0, 4));
  const yearOf = (word: string | undefined) =>
    word === undefined ? undefined : word === 'next year' ? thisYear + 1 : Number(word);
  const next =
    /\b(?:in|within|over|during) the (?:next|coming) (\d+|two|three|four|five|six|seven|ten|fourteen|thirty) (days?|weeks?|months?)\b/.exec(
      text,
    );
  if (next) {
    const count = /^\d+$/.test(next[1]!) ? Number(next[1]) : (numberWords[next[1]!] ?? 1);
    const unit = next[2]!.startsWith('d') ? 1 : next[2]!.startsWith('w') ? 7 : 30;
    return { from: reportDate, until: addDays(reportDate, count * unit), phrase: next[0] };
  }
  const year = /\b(?:in|during|until|till) (\d{4})\b(?![-/.]\d)/.exec(text);
  if (year && `${year[1]}-01-01` > reportDate) return { from: `${year[1]}-01-01`, until: `${year[1]}-12-31`, phrase: year[0] };
  const end = new RegExp(`\\bend of ${monthPattern}\\.?(?:,? (\\d{4}))?`).exec(text);
  if (end) return { until: monthEndAhead(end[1]!, yearOf(end[2]), reportDate), phrase: end[0] };
  const quarter = /\b(?:(q[1-4])|the (first|second|third|fourth) quarter)(?:,? (?:of )?(next year|\d{4}))?\b/.exec(text);
  if (quarter) {
    const q = quarterWords[quarter[1] ?? quarter[2]!]!;
    const year = yearOf(quarter[3]) ?? (ymd(thisYear, q * 3, 1) < reportDate.slice(0, 8) + '01' ? thisYear + 1 : thisYear);
    return { from: ymd(year, q * 3 - 2, 1), until: monthEndAhead(monthNames[q * 3 - 1]!, year, reportDate), phrase: quarter[0] };
  }
  const range = new RegExp(`\\b${monthPattern} (?:through|thru|to|until|-) ${monthPattern}(?:,? (\\d{4}|next year))?`).exec(text);
  if (range) {
    const year = yearOf(range[3]);
    const until = monthEndAhead(range[2]!, year, reportDate);
    const from = monthAhead(range[1]!, year, reportDate);
    return {
      from: from > until ? ymd(Number(from.slice(0, 4)) - 1, Number(from.slice(5, 7)), 1) : from,
      until,
      phrase: range[0],
    };
  }
  const month = new RegExp(`\\b(?:in|during) ${monthPattern}(?![a-z])(?! \\d{1,2}\\b)(?:,? (\\d{4}|next year))?`).exec(text);
  if (month) {
    const until = monthEndAhead(month[1]!, yearOf(month[2]), reportDate);
    return { from: `${until.slice(0, 8)}01`, until, phrase: month[0] };
  }
  return undefined;
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
