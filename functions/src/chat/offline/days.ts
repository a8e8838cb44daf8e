/**
 * The days a question names, read with chrono-node's casual English against the report's day (UTC):
 * one day ("Nov 14th", "3 days ago", "on Monday"), a span ending on the report's day ("the last 10
 * days"), one named outright ("in November", "Q2 2027"), or a window ahead ("the next 30 days"). A
 * day without its year is the latest on or before the report's, or the next looking ahead. Declined
 * rather than read: a numeric date whose day and month order cannot be told ("11/14/2026", which
 * chrono reads the American way) and one not in the calendar ("feb 30", which chrono skips).
 */
// The English locale alone: the main entry builds every locale's parsers, doubling a cold load.
import { casual, Chrono } from 'chrono-node/en';
import type { ParsedResult, Parser, Refiner } from 'chrono-node';
import { addDays, isCalendarDate } from '../../assessment/dates.js';
import type { Since } from '../question.js';

/** A day named without its year, or a weekday, is the latest one before the report's, or the next one ahead. */
export type Direction = 'past' | 'ahead';
/** A calendar day the question names, how it says it, and where. */
export type NamedDay = { date: string; phrase: string; at: number };
/** Days from `from` to `to`, both included. */
export type Span = { from: string; to: string; phrase: string };
/** Days ahead up to `until`, from `from` when the window starts later than the report's day. */
export type Window = { from?: string; until: string; phrase: string };
/** A day the question names as where a comparison starts, or one day on its own (`point`). */
export type RelativeDay = Since & { point: boolean };
/** A date the question writes that is declined rather than read. */
export type UnreadableDate = { reason: 'date_format' | 'invalid_date'; phrase: string };

/** One day; a span back to the report's day or ahead from it; the current week, month, quarter or year; a month, year or range named; a period's end. */
type Shape = 'day' | 'back' | 'ahead' | 'current' | 'month' | 'year' | 'range' | 'end';

interface Reading extends Span {
  shape: Shape;
  at: number;
  /** A day written out ("nov 14", "the 12th"), a weekday, or one counted from the report's day ("3 days ago"). */
  source: 'written' | 'weekday' | 'counted';
  /** The word just before it ("in", "since", "before"). */
  after: string;
  /** The two days or months a range joins, each as the question wrote it. */
  parts?: [Reading, Reading];
}

const units = { day: 1, week: 7, fortnight: 14, month: 30, quarter: 91, year: 365 } as const;
type Unit = keyof typeof units;
/** Each unit has its own first letter, so "wks", "mos" and "yrs" are read too. */
const unitOf = (word: string) => (Object.keys(units) as Unit[]).find((unit) => unit[0] === word[0]) ?? 'day';
const counts: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, ten: 10, few: 3 };
const ymd = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const monthEnd = (y: number, m: number) => addDays(m === 12 ? ymd(y + 1, 1, 1) : ymd(y, m + 1, 1), -1);
const dayOf = (date: Date) => ({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });

/** "the 12th": January (of a leap year) has every day, so chrono keeps it as a date; `settle` finds the month. */
const dayOfMonth: Parser = {
  pattern: () => /\bthe (\d{1,2})(?:st|nd|rd|th)\b/i,
  extract: (context, match) =>
    context
      .createParsingComponents({ day: Number(match[1]) })
      .imply('month', 1)
      .imply('year', 2000),
};

/** "Q2", "the second quarter", "Q1 2027", "the first quarter of next year": its first and last month. */
const quarter: Parser = {
  pattern: () =>
    /\b(?:q([1-4])|(?:the )?(first|second|third|fourth|1st|2nd|3rd|4th) quarter)(?:,? (?:of )?(next year|this year|last year|\d{4}))?\b/i,
  extract: (context, match) => {
    const q = Number((match[1] ?? match[2]!)[0]) || ['first', 'second', 'third', 'fourth'].indexOf(match[2]!.toLowerCase()) + 1;
    const said = match[3]?.toLowerCase();
    const shift = said === 'next year' ? 1 : said === 'last year' ? -1 : 0;
    const year = said === undefined ? {} : { year: Number(said) || context.refDate.getUTCFullYear() + shift };
    return context.createParsingResult(match.index!, match[0], { month: q * 3 - 2, ...year }, { month: q * 3, ...year });
  },
};

/**
 * Days, weeks or months counted back or ahead, or the current one, in words chrono does not read:
 * "the previous 3 days", "the coming week", "the whole two weeks", "all month", "the last fortnight", "the last 2 wks".
 */
const counted: Parser = {
  pattern: () =>
    /\b(?:the )?(?:(previous|prior|coming|whole|entire|full|all)(?: the)? (?:(\d{1,3}|two|three|four|five|six|seven|ten|couple of|few) )?(days?|weeks?|months?|quarters?|years?)|(?:last|past) (?:(\d{1,3}|two|three|four) )?(wks?|mos?|yrs?)|(?:(last|past|previous|prior|coming|next) )?fortnight)\b/i,
  extract: (context, match) => {
    const [, said = '', count = match[4] ?? '1', unitWord = match[5] ?? 'f', , , fortnight = ''] = match.map((word) =>
      word?.toLowerCase(),
    );
    const ahead = /^(coming|next)$/.test(said || fortnight);
    const unit = unitOf(unitWord.toLowerCase());
    const shape = ahead ? 'ahead' : /^(whole|entire|full|all)$/.test(said) && match[2] === undefined ? 'current' : 'back';
    // "A couple of" is two.
    const days = (Number(count) || (counts[count] ?? 2)) * units[unit] * (ahead ? 1 : -1);
    return context
      .createParsingComponents(dayOf(new Date(context.refDate.getTime() + days * 86_400_000)))
      .addTag(`evident/${shape}`)
      .addTag(`evident/unit/${unit}`);
  },
};

/** "in 2027", "during 2026": a year alone is a date only after a word that introduces one, kept with it (chrono drops a result of digits only). */
const yearAlone: Parser = {
  pattern: () => /\b(?:in|during|for|of|over|until|till|through) (\d{4})\b(?![-/.]\d)/i,
  extract: (_context, match) => ({ year: Number(match[1]) }),
};

/** "The end of the quarter", "end of the year": the last day of the report day's week (to Sunday), month, quarter or year. */
const periodEnd: Parser = {
  pattern: () => /\bend of (?:the |this )?(week|month|quarter|year)\b/i,
  extract: (context, match) => {
    const end = current(unitOf(match[1]!.toLowerCase()), context.refDate.toISOString().slice(0, 10), 'ahead')[1];
    return context.createParsingComponents(dayOf(new Date(`${end}T12:00:00Z`))).addTag('evident/end');
  },
};

/**
 * Chrono's casual English, without what does not fit a question about a report: slashed dates
 * (declined before chrono reads them), times of day ("IAM-01 get" is not one minute past), and
 * ranges merged by chrono (merged here, keeping each end's words).
 */
const dropped = new Set(['SlashDateFormatParser', 'ENTimeExpressionParser', 'ENCasualTimeParser', 'ENMergeDateRangeRefiner']);
const kept = <T extends object>(list: T[]) => list.filter((item) => !dropped.has(item.constructor.name));
/** Chrono's filter drops a date not in the calendar ("feb 30"): it is marked before, to be declined rather than skipped. */
const notInCalendar: Refiner = {
  refine: (_context, results) => {
    for (const result of results.filter((result) => !result.start.isValidDate()))
      result.addTag('evident/notInCalendar').start.assign('day', 1).assign('month', 1);
    return results;
  },
};
const chrono = new Chrono({
  // What chrono lacks: "the 12th", quarters, "fortnight", "the whole month", a year alone, the end of a quarter.
  parsers: [dayOfMonth, quarter, counted, yearAlone, periodEnd, ...kept(casual.parsers)],
  refiners: kept(casual.refiners).flatMap((refiner) =>
    refiner.constructor.name === 'UnlikelyFormatFilter' ? [notInCalendar, refiner] : [refiner],
  ),
});

type Components = ParsedResult['start'];
const isoOf = (result: Components) => ymd(result.get('year')!, result.get('month')!, result.get('day')!);

/**
 * The first and last day a result names (one day, or a month), in `year` when given. A year left
 * out (or a month, for "the 12th") is the latest on or before the report's day, or the next ahead.
 */
function settle(start: Components, reportDate: string, direction: Direction, year?: number): [string, string] {
  const [y, m] = [Number(reportDate.slice(0, 4)), Number(reportDate.slice(5, 7))];
  const known = year ?? (start.isCertain('year') ? start.get('year')! : undefined);
  const inThisMonth = !start.isCertain('month');
  const days = (step: number): [string, string] => {
    const month = new Date(Date.UTC(known ?? y + (inThisMonth ? 0 : step), inThisMonth ? m - 1 + step : start.get('month')! - 1));
    const [iy, im] = [month.getUTCFullYear(), month.getUTCMonth() + 1];
    const day = start.isCertain('day') ? ymd(iy, im, start.get('day')!) : undefined;
    return day ? [day, day] : [ymd(iy, im, 1), monthEnd(iy, im)];
  };
  const here = days(0);
  const past = direction === 'past';
  return known !== undefined || (past ? here[0] <= reportDate : here[1] >= reportDate) ? here : days(past ? -1 : 1);
}

/** The current week (the last seven days, or through Sunday ahead), month, quarter or year. */
function current(unit: Unit, reportDate: string, direction: Direction): [string, string] {
  if (units[unit] < units.month)
    return direction === 'past'
      ? [addDays(reportDate, 1 - units[unit]), reportDate]
      : [reportDate, addDays(reportDate, (7 - new Date(`${reportDate}T00:00:00Z`).getUTCDay()) % 7)];
  const [y, m] = [Number(reportDate.slice(0, 4)), Number(reportDate.slice(5, 7))];
  const months = unit === 'month' ? 1 : unit === 'year' ? 12 : 3;
  const first = Math.floor((m - 1) / months) * months + 1;
  return [ymd(y, first, 1), monthEnd(y, first + months - 1)];
}

/** The weekday before the report's day ("last Monday"), or after it ahead ("next Monday"); only one written in full ("sat" is a verb). */
function weekday(result: ParsedResult, reportDate: string, direction: Direction): string | undefined {
  const [target, text] = [result.start.get('weekday')!, result.text.toLowerCase()];
  if (!/(?:sun|mon|tues|wednes|thurs|fri|satur)day/.test(text)) return undefined;
  const step = text.startsWith('last') || (direction === 'past' && !text.startsWith('next')) ? -1 : 1;
  let date = addDays(reportDate, step);
  while (new Date(`${date}T00:00:00Z`).getUTCDay() !== target) date = addDays(date, step);
  return date;
}

type Shaped = Pick<Reading, 'shape' | 'from' | 'to' | 'source'>;
const shaped = (shape: Shape, from: string, to = from, source: Reading['source'] = 'counted') => ({ shape, from, to, source });

/** How one of chrono's results covers the calendar, or undefined when it is no date a question asks about. */
function shapeOf(result: ParsedResult, reportDate: string, direction: Direction): Shaped | undefined {
  const { start } = result;
  const tags = [...result.tags()];
  const text = result.text.toLowerCase();
  const own = (['back', 'ahead', 'current'] as const).find((shape) => tags.includes(`evident/${shape}`));
  const unit = tags.find((tag) => tag.startsWith('evident/unit/'))?.slice('evident/unit/'.length) as Unit | undefined;
  if (tags.includes('evident/notInCalendar')) return shaped('day', text, text, 'written');
  const thisOne = /^this (week|month|quarter|year)$/.exec(text);
  if (own === 'current' || thisOne) return shaped('current', ...current(unit ?? unitOf(thisOne![1]!), reportDate, direction));
  if (own || tags.includes('result/relativeDate')) {
    const at = isoOf(start);
    if ((own === 'back' || /^(last|past|previous|prior)\b/.test(text)) && at < reportDate)
      return shaped('back', addDays(at, 1), reportDate);
    if ((own === 'ahead' || /^(next|coming|within|in)\b/.test(text)) && at > reportDate) return shaped('ahead', reportDate, at);
    return start.isCertain('day') ? shaped('day', at) : undefined;
  }
  if (tags.some((tag) => /^(evident\/end|refiner\/ENEndOfPeriodRefiner|parser\/ENEndOfCurrentMonthParser)$/.test(tag)))
    return shaped('end', ...settle(start, reportDate, direction));
  if (start.isCertain('weekday') && !start.isCertain('day')) {
    const date = weekday(result, reportDate, direction);
    return date ? shaped('day', date, date, 'weekday') : undefined;
  }
  if (tags.some((tag) => tag.startsWith('casualReference'))) return shaped('day', isoOf(start));
  if (start.isCertain('day')) return shaped('day', ...settle(start, reportDate, direction), 'written');
  if (start.isCertain('month')) return shaped('month', ...settle(start, reportDate, direction));
  const y = start.get('year')!;
  return start.isCertain('year') ? shaped('year', ymd(y, 1, 1), ymd(y, 12, 31)) : undefined;
}

/**
 * A range chrono read in one piece ("8 to 21 november", "Q2 2027"): its end in its first day's year,
 * or the next. Its days, when it names days, are echoed as dates: the question names them in one phrase.
 */
function rangeOf(result: ParsedResult, reportDate: string, direction: Direction): Shaped & Pick<Reading, 'parts'> {
  const { start, end } = result as Required<ParsedResult>;
  const [from] = settle(start, reportDate, direction);
  const year = end.isCertain('year') ? end.get('year')! : Number(from.slice(0, 4));
  const [, last] = settle(end, reportDate, direction, year);
  const to = last < from ? settle(end, reportDate, direction, year + 1)[1] : last;
  const day = (date: string, at: number): Reading => ({ ...shaped('day', date, date, 'written'), phrase: date, at, after: '' });
  return {
    ...shaped('range', from, to, 'written'),
    ...(start.isCertain('day') && { parts: [day(from, result.index), day(to, result.index + 1)] }),
  };
}

/** Two readings with "to", "through", "until", "-" or "and" between them are one range ("between the 12th and the 18th"). */
function joined(readings: Reading[], text: string): Reading[] {
  const out: Reading[] = [];
  for (const reading of readings) {
    const previous = out.at(-1);
    const between = previous ? text.slice(previous.at + previous.phrase.length, reading.at) : '';
    const ends = [previous?.shape, reading.shape].every((shape) => shape === 'day' || shape === 'month');
    // "April through June 2027": the first month is in the second's year when it comes before it in that year.
    const inYear = `${reading.from.slice(0, 4)}${previous?.from.slice(4)}`;
    const from = previous?.shape === 'month' && reading.shape === 'month' && inYear <= reading.from ? inYear : previous?.from;
    if (previous && ends && /^\s*(?:and|to|through|thru|until|till|-)\s*$/.test(between) && from! <= reading.to) {
      const phrase = previous.phrase + between + reading.phrase;
      out[out.length - 1] = { ...previous, shape: 'range', from: from!, to: reading.to, phrase, parts: [previous, reading] };
    } else out.push(reading);
  }
  return out;
}

/**
 * What every date chrono or the parsers above read has in it: a digit, or a word of the calendar
 * (chrono names months and weekdays by at least three letters). A question with neither (most)
 * is not given to chrono: its first parse in a process costs a fifth of a cold instance's first answer.
 */
const calendarWord =
  /\d|\b(?:today|tonight|tomorrow|yesterday|now|ago|noon|midnight|morning|afternoon|evening|night|days?|daily|weeks?|weekly|weekends?|fortnights?|months?|monthly|quarters?|quarterly|years?|yearly|annual|hours?|minutes?|seconds?|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)/;

/** A reading at `at` to `end` of the text, with the word just before it ("since", "before"), looked for in the few characters there. */
const placed = (text: string, shape: Shaped, at: number, end: number): Reading => ({
  ...shape,
  phrase: text.slice(at, end),
  at,
  after: /([a-z]+)\W*$/.exec(text.slice(Math.max(0, at - 12), at))?.[1] ?? '',
});

let lastRead: { key: string; readings: Reading[] } | undefined;

/**
 * "Between 10 and 15 November" as chrono reads one range ("10 - 15 november"), its "and" padded so every reading keeps
 * its place in the text as written.
 */
const dayRangesSpelled = (text: string) =>
  text.replace(
    /\b(\d{1,2}(?:st|nd|rd|th)?) and (?=\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))/g,
    '$1  -  ',
  );

/** Every date the text names, read once for each direction (the readers below ask again for the same question). */
function readingsOf(text: string, reportDate: string, direction: Direction): Reading[] {
  const key = `${direction} ${reportDate} ${text}`;
  if (lastRead?.key === key) return lastRead.readings;
  // "Today" alone is the report's own day, as chrono would read it, without its first parse.
  if (!calendarWord.test(text.replace(/\btoday\b/g, '')))
    return [...text.matchAll(/\btoday\b/g)].map(({ index: at }) => placed(text, shaped('day', reportDate), at, at + 5));
  const reference = { instant: new Date(`${reportDate}T12:00:00Z`), timezone: 0 };
  const readings = chrono
    .parse(dayRangesSpelled(text), reference, { forwardDate: direction === 'ahead' })
    .flatMap((result): Reading[] => {
      const shape = result.end ? rangeOf(result, reportDate, direction) : shapeOf(result, reportDate, direction);
      if (!shape) return [];
      // Chrono keeps the "on" of "on 8 november" (and "in 2027" keeps its "in" here); the day is the rest.
      const on = /^(?:on|in|during|for|of|over|until|till|through)\s+/i.exec(result.text)?.[0].length ?? 0;
      // "Over the past week" says "the past week"; chrono leaves out the "the" of a span.
      const the = on === 0 && ['back', 'ahead', 'current'].includes(shape.shape) && text.endsWith('the ', result.index);
      return [placed(text, shape, result.index + on - (the ? 4 : 0), result.index + result.text.length)];
    });
  lastRead = { key, readings: joined(readings, text) };
  return lastRead.readings;
}

/** Whether the day at `at` is named as where a comparison starts: "since …", "compared with …", "from last …". */
const namedAsStart = (text: string, at: number) =>
  /\b(?:since|from|between|compared (?:to|with)|versus|vs\.?|after|relative to|than(?: on)?)\s+(?:the\s+|last\s+)?$/.test(
    text.slice(Math.max(0, at - 30), at),
  );

const previousReport = /\b(?:the )?(?:last|previous|prior|latest) (?:report|run|assessment|one)\b|\bday before\b/;

/**
 * The earlier day a question asks about: counted back ("yesterday", "3 days ago", "over the last
 * week": where that span starts), the previous report (date null), a weekday, or a date, in that
 * order. A date named on its own rather than as where a comparison starts ("what failed on
 * 2026-11-15") is returned as `other`.
 */
export function dayAsked(text: string, reportDate: string): RelativeDay | { other: string; phrase: string } | undefined {
  const previous = previousReport.exec(text);
  const asked = readingsOf(text, reportDate, 'past').filter(
    ({ shape, source, from, phrase, at }) =>
      // "The day before" is the previous report, not the day chrono counts back to.
      (previous === null || at >= previous.index + previous[0].length || previous.index >= at + phrase.length) &&
      (shape === 'day'
        ? // A written date (one after the report's day is declined later), or one before the report's.
          isCalendarDate(from) && (source === 'written' || from < reportDate)
        : // Days, weeks or months counted back ("the last 10 days", "the past month"), not "this month", "the
          // whole week" nor "last month" (the calendar month before).
          shape === 'back' &&
          phrase !== 'last month' &&
          /^(?:the )?(?:last|past|previous|prior)\b[\s\S]*\b(?:days?|weeks?|wks?|fortnight|months?)$/.test(phrase)),
  );
  const rank = ({ source }: Reading) => ['counted', 'weekday', 'written'].indexOf(source);
  const first = asked.sort((a, b) => rank(a) - rank(b) || a.at - b.at)[0];
  if (previous && (!first || rank(first) > 0 || previous.index < first.at))
    return { date: null, phrase: previous[0], point: !namedAsStart(text, previous.index) };
  if (!first) return undefined;
  const point = !namedAsStart(text, first.at);
  if (first.shape === 'back') return { date: addDays(first.from, -1), phrase: first.phrase, point: false };
  if (first.source === 'written' && point) return { other: first.from, phrase: first.phrase };
  return { date: first.from, phrase: first.phrase, point };
}

/**
 * Every calendar day the text names, in order: dates, weekdays, "today", "yesterday", "3 days ago",
 * and each end of a range. Looking back, a day counted past the report's ("tomorrow") is none.
 */
export function daysIn(text: string, reportDate: string, direction: Direction = 'past'): NamedDay[] {
  return readingsOf(text, reportDate, direction)
    .flatMap((reading) => (reading.shape === 'range' ? (reading.parts ?? []) : [reading]))
    .filter(
      ({ shape, from, source }) =>
        shape === 'day' && isCalendarDate(from) && (direction === 'ahead' || source === 'written' || from <= reportDate),
    )
    .map(({ from, phrase, at }) => ({ date: from, phrase, at }));
}

const firstOf = (readings: Reading[], ranks: Partial<Record<Shape, number>>) =>
  readings
    .filter((reading) => ranks[reading.shape] !== undefined && isCalendarDate(reading.from) && isCalendarDate(reading.to))
    .sort((a, b) => ranks[a.shape]! - ranks[b.shape]! || a.at - b.at)[0];

/**
 * A span of days looking back: one ending on the report's day ("the last 10 days", "this month"),
 * a range ("between the 12th and the 18th"), a year or a month ("in November"). A span that would
 * run past the report's day ends on it.
 */
export function spanIn(text: string, reportDate: string): Span | undefined {
  const named = readingsOf(text, reportDate, 'past').filter(
    ({ shape, after }) => (shape !== 'month' && shape !== 'year') || /^(in|for|during|over|of|early|late|mid)$/.test(after),
  );
  const span = firstOf(named, { back: 0, current: 0, range: 1, year: 2, month: 3 });
  if (!span) return undefined;
  return { from: span.from, to: span.shape !== 'range' && span.to > reportDate ? reportDate : span.to, phrase: span.phrase };
}

/** A window of days ahead: "in the next 30 days", "in 2027", "by the end of January 2027", "in Q2 next year", "April through June 2027", "this week". */
export function windowAhead(text: string, reportDate: string): Window | undefined {
  const named = readingsOf(text, reportDate, 'ahead').filter(
    ({ shape, after, from, phrase }) =>
      ((shape !== 'month' && shape !== 'year') ||
        (/^(in|during|until|till)$/.test(after) && (shape === 'month' || from > reportDate))) &&
      // "Fixed within 30 days" is how fast, not when: a window counted ahead starts "next" or "coming".
      (shape !== 'ahead' || /^(?:the )?(?:next|coming)\b/.test(phrase)),
  );
  const window = firstOf(named, { ahead: 0, year: 1, end: 2, range: 3, month: 4, current: 5 });
  if (!window || window.to < reportDate) return undefined;
  if (window.shape === 'end' || window.shape === 'current') return { until: window.to, phrase: window.phrase };
  return { from: window.from, until: window.to, phrase: window.phrase };
}

/** The first month the text names, looking ahead ("due before December"): its first day. */
export function monthAhead(text: string, reportDate: string): NamedDay | undefined {
  const month = readingsOf(text, reportDate, 'ahead').find((reading) => reading.shape === 'month');
  return month && { date: month.from, phrase: month.phrase, at: month.at };
}

/**
 * A date the question writes that is declined rather than read. `date_format`: a numeric date that
 * is not ISO, three numbers ("11/14/2026", "14.11.2026", "14-11-2026", "2026/11/14") or a day and
 * month right after a word that introduces a day ("since 11/14"), as whether 05/06 is May or June
 * cannot be told (two numbers alone, "24/7" or a score of "75.7", are no date). `invalid_date`: one
 * not in the calendar ("feb 30", "the 31st" in November).
 */
export function unreadableDate(text: string, reportDate: string): UnreadableDate | undefined {
  const format =
    /(?<![\w./-])(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}[/.]\d{1,2}[/.]\d{1,2})(?![\w/-]|\.\d)/.exec(text)?.[0] ??
    /\b(?:since|from|before|after|until|between|compared (?:to|with)|versus|vs\.?|as of|on|for) (?!24\/7\b)(\d{1,2}\/\d{1,2})(?![\w/.-])/.exec(
      text,
    )?.[1];
  if (format) return { reason: 'date_format', phrase: format };
  // Chrono reads no month 13 at all ("2026-13-01"); the other dates it reads are marked (`notInCalendar`).
  const iso = [...text.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)].find(([, y, m, d]) => !isCalendarDate(ymd(+y!, +m!, +d!)));
  const invalid =
    iso?.[0] ?? readingsOf(text, reportDate, 'past').find(({ shape, from }) => shape === 'day' && !isCalendarDate(from))?.phrase;
  return invalid ? { reason: 'invalid_date', phrase: invalid } : undefined;
}

/** "The next day", "the day before": a day on from the day asked about before (1), a day back (-1), or neither (0). */
export function dayStepIn(text: string): 1 | -1 | 0 {
  if (/\b(?:the )?(?:next|following) day\b|\bthe day after\b/.test(text)) return 1;
  return /\b(?:the )?(?:previous|prior) day\b|\bthe day before\b/.test(text) ? -1 : 0;
}
