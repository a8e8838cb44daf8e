/**
 * The days a question names (days.ts), read with chrono-node against a fixed report day,
 * 2026-11-21 (a Saturday): a day asked about as a point or as where a comparison starts, every
 * day named, spans ending on the report's day or named outright, windows ahead, the dates declined
 * rather than guessed, and long adversarial text read in one pass.
 */
import { describe, expect, it } from 'vitest';
import { dayAsked, daysIn, monthAhead, spanIn, unreadableDate, windowAhead } from '../../../functions/src/chat/offline/days.ts';

const today = '2026-11-21';
const dates = (text: string, direction?: 'past' | 'ahead') => daysIn(text, today, direction).map((named) => named.date);

describe('the day a question asks about', () => {
  it('reads "today" as the report\'s own day, alone or beside other days, and no day where none is named', () => {
    expect(daysIn('what is due today?', today, 'ahead')).toEqual([{ date: today, phrase: 'today', at: 12 }]);
    expect(daysIn('today vs today', today)).toEqual([
      { date: today, phrase: 'today', at: 0 },
      { date: today, phrase: 'today', at: 9 },
    ]);
    expect(dates('compare today with yesterday')).toEqual([today, '2026-11-20']);
    expect(daysIn('how are we doing on encryption?', today)).toEqual([]);
    expect(dayAsked('what is our score today?', today)).toBeUndefined();
  });

  it('reads a day counted back as where a comparison starts, or as one day on its own', () => {
    expect(dayAsked('what changed since yesterday', today)).toEqual({ date: '2026-11-20', phrase: 'yesterday', point: false });
    expect(dayAsked('what failed 3 days ago', today)).toEqual({ date: '2026-11-18', phrase: '3 days ago', point: true });
    expect(dayAsked('score vs a week ago', today)).toEqual({ date: '2026-11-14', phrase: 'a week ago', point: false });
  });

  it('reads days and weeks counted back as a span starting the day before its first', () => {
    expect(dayAsked('what changed over the last two weeks', today)).toEqual({
      date: '2026-11-07',
      phrase: 'the last two weeks',
      point: false,
    });
    expect(dayAsked('what changed in the last fortnight', today)).toEqual({
      date: '2026-11-07',
      phrase: 'the last fortnight',
      point: false,
    });
    expect(dayAsked('changes over the past 3 days', today)).toEqual({
      date: '2026-11-18',
      phrase: 'the past 3 days',
      point: false,
    });
    // A month, a quarter or the whole of something is a span to follow, not a day to compare with.
    expect(dayAsked('which alert rule has not fired in the last quarter', today)).toBeUndefined();
    expect(dayAsked('was it passing the whole two weeks', today)).toBeUndefined();
  });

  it('reads a weekday as the latest one before the report day', () => {
    expect(dayAsked('what changed since monday', today)).toEqual({ date: '2026-11-16', phrase: 'monday', point: false });
    expect(dayAsked('what changed since saturday', today)).toEqual({ date: '2026-11-14', phrase: 'saturday', point: false });
    expect(dayAsked('compared with last friday', today)).toEqual({ date: '2026-11-20', phrase: 'last friday', point: false });
    // "sat" is a verb as often as a day.
    expect(dayAsked('the laptop sat idle', today)).toBeUndefined();
  });

  it('reads a written date as where a comparison starts, or as another day named on its own', () => {
    expect(dayAsked('what changed since 2026-11-15', today)).toEqual({ date: '2026-11-15', phrase: '2026-11-15', point: false });
    expect(dayAsked('what failed on nov 14th', today)).toEqual({ other: '2026-11-14', phrase: 'nov 14th' });
    expect(dayAsked('what was failing on 13 november', today)).toEqual({ other: '2026-11-13', phrase: '13 november' });
    // A month and day without a year is the latest such day on or before the report's.
    expect(dayAsked('what changed since dec 25', today)).toEqual({ date: '2025-12-25', phrase: 'dec 25', point: false });
    expect(dayAsked('what changed since the 12th', today)).toEqual({ date: '2026-11-12', phrase: 'the 12th', point: false });
    expect(dayAsked('what changed since the 30th', today)).toEqual({ date: '2026-10-30', phrase: 'the 30th', point: false });
  });

  it('reads the previous report, and names no day for today or a day ahead', () => {
    expect(dayAsked('what was stale in the last report', today)).toEqual({ date: null, phrase: 'the last report', point: true });
    expect(dayAsked('what changed since the day before', today)).toEqual({ date: null, phrase: 'day before', point: false });
    expect(dayAsked('what is failing today', today)).toBeUndefined();
    expect(dayAsked('what is failing right now', today)).toBeUndefined();
    expect(dayAsked('what will fail tomorrow', today)).toBeUndefined();
  });
});

describe('every day a question names', () => {
  it('reads dates, weekdays and counted days in order, a month and day without a year being the latest before the report', () => {
    expect(dates('between the 12th and nov 18 and today')).toEqual(['2026-11-12', '2026-11-18', '2026-11-21']);
    expect(dates('compare dec 3 with 2026-11-02')).toEqual(['2025-12-03', '2026-11-02']);
    expect(dates('compare last monday with today')).toEqual(['2026-11-16', '2026-11-21']);
    expect(daysIn('from 8 to 21 november', today)).toEqual([
      { date: '2026-11-08', phrase: '2026-11-08', at: 5 },
      { date: '2026-11-21', phrase: '2026-11-21', at: 6 },
    ]);
    expect(dates('on 2026-02-30')).toEqual([]);
    expect(dates('what will fail tomorrow')).toEqual([]);
  });

  it('reads a day named without its year as the next one when the question looks ahead', () => {
    expect(dates("what's due on dec 8", 'ahead')).toEqual(['2026-12-08']);
    expect(dates('what is due before nov 14', 'ahead')).toEqual(['2027-11-14']);
    expect(dates('due on 2026-11-02', 'ahead')).toEqual(['2026-11-02']);
    expect(dates('what is due next monday', 'ahead')).toEqual(['2026-11-23']);
    expect(dates('what is due tomorrow', 'ahead')).toEqual(['2026-11-22']);
  });

  it('reads no date in a score, a number of hours or a time of day', () => {
    expect(dates('the score is 75.7')).toEqual([]);
    expect(dates('24/7 monitoring')).toEqual([]);
    expect(dates('when did vul-01 get fixed')).toEqual([]);
    expect(dates('what may fail')).toEqual([]);
  });
});

describe('spans of days looking back', () => {
  const span = (text: string) => spanIn(text, today);

  it('reads spans that end on the report day', () => {
    expect(span('how did the score move over the past week')).toEqual({ from: '2026-11-15', to: today, phrase: 'the past week' });
    expect(span('score over the last two weeks')).toEqual({ from: '2026-11-08', to: today, phrase: 'the last two weeks' });
    expect(span('trend of the score over the last 10 days')).toEqual({
      from: '2026-11-12',
      to: today,
      phrase: 'the last 10 days',
    });
    expect(span('lowest score in the last 2 wks')).toEqual({ from: '2026-11-08', to: today, phrase: 'the last 2 wks' });
    expect(span('history over the last fortnight')).toEqual({ from: '2026-11-08', to: today, phrase: 'the last fortnight' });
    expect(span('what has been open the whole two weeks')).toEqual({
      from: '2026-11-08',
      to: today,
      phrase: 'the whole two weeks',
    });
    expect(span('score history this month')).toEqual({ from: '2026-11-01', to: today, phrase: 'this month' });
    expect(span('was it passing all month')).toEqual({ from: '2026-11-01', to: today, phrase: 'all month' });
    expect(span('all quarter')).toEqual({ from: '2026-10-01', to: today, phrase: 'all quarter' });
  });

  it('reads months, years and ranges named outright, ending on the report day at the latest', () => {
    expect(span('the trend in october')).toEqual({ from: '2026-10-01', to: '2026-10-31', phrase: 'october' });
    expect(span('show the score trend for november')).toEqual({ from: '2026-11-01', to: today, phrase: 'november' });
    expect(span('the trend in december')).toEqual({ from: '2025-12-01', to: '2025-12-31', phrase: 'december' });
    expect(span('our score in 2025')).toEqual({ from: '2025-01-01', to: '2025-12-31', phrase: '2025' });
    expect(span('score trend between the 12th and the 18th')).toEqual({
      from: '2026-11-12',
      to: '2026-11-18',
      phrase: 'the 12th and the 18th',
    });
    expect(span('for the whole period from 8 to 21 november')).toEqual({
      from: '2026-11-08',
      to: today,
      phrase: '8 to 21 november',
    });
    expect(span('failing in the period nov 8 to nov 21')).toEqual({ from: '2026-11-08', to: today, phrase: 'nov 8 to nov 21' });
  });

  it('reads no span in one day, a month without a word that introduces it, or a span ahead', () => {
    expect(span('what failed on 2026-11-18')).toBeUndefined();
    expect(span('march towards compliance')).toBeUndefined();
    expect(span('what goes stale in the next 30 days')).toBeUndefined();
  });
});

describe('windows ahead', () => {
  const window = (text: string) => windowAhead(text, today);

  it('reads windows counted ahead, and the end of a month, quarter or year', () => {
    expect(window('what goes stale in the next 30 days')).toEqual({
      from: today,
      until: '2026-12-21',
      phrase: 'the next 30 days',
    });
    expect(window('anything expiring in the coming week')).toEqual({
      from: today,
      until: '2026-11-28',
      phrase: 'the coming week',
    });
    expect(window('anything expiring before end of january 2027')).toEqual({
      until: '2027-01-31',
      phrase: 'end of january 2027',
    });
    expect(window("what's due before the end of november")).toEqual({ until: '2026-11-30', phrase: 'end of november' });
    expect(window('what expires by the end of the quarter')).toEqual({ until: '2026-12-31', phrase: 'end of the quarter' });
    expect(window('what expires before the end of the year')).toEqual({ until: '2026-12-31', phrase: 'end of the year' });
  });

  it('reads quarters, ranges of months, months and years ahead', () => {
    expect(window('what expires in q2 next year')).toEqual({ from: '2027-04-01', until: '2027-06-30', phrase: 'q2 next year' });
    expect(window('and in the first quarter of next year?')).toEqual({
      from: '2027-01-01',
      until: '2027-03-31',
      phrase: 'the first quarter of next year',
    });
    expect(window('april through june 2027')).toEqual({
      from: '2027-04-01',
      until: '2027-06-30',
      phrase: 'april through june 2027',
    });
    expect(window('deadlines in december')).toEqual({ from: '2026-12-01', until: '2026-12-31', phrase: 'december' });
    expect(window('what expires in march')).toEqual({ from: '2027-03-01', until: '2027-03-31', phrase: 'march' });
    expect(window('what expires in 2027')).toEqual({ from: '2027-01-01', until: '2027-12-31', phrase: '2027' });
  });

  it('reads no window in a day counted back, a speed ("fixed within 30 days") or a past year', () => {
    expect(window('what changed last week')).toBeUndefined();
    expect(window('are high vulnerabilities fixed within 30 days')).toBeUndefined();
    expect(window('what expired in 2025')).toBeUndefined();
  });

  it('reads the first month named ahead as its first day', () => {
    expect(monthAhead('what is due before december', today)).toEqual({ date: '2026-12-01', phrase: 'december', at: 19 });
    expect(monthAhead('whose training records run out before april', today)).toEqual({
      date: '2027-04-01',
      phrase: 'april',
      at: 38,
    });
    expect(monthAhead('what is due soon', today)).toBeUndefined();
  });
});

describe('dates declined rather than guessed', () => {
  const unreadable = (text: string) => unreadableDate(text, today);

  it('declines a numeric date whose day and month order cannot be told, before chrono would read it the American way', () => {
    expect(unreadable('what failed on 11/14/2026')).toEqual({ reason: 'date_format', phrase: '11/14/2026' });
    expect(unreadable('what failed on 14.11.2026')).toEqual({ reason: 'date_format', phrase: '14.11.2026' });
    expect(unreadable('what failed on 14-11-2026')).toEqual({ reason: 'date_format', phrase: '14-11-2026' });
    expect(unreadable('what changed since 11/14')).toEqual({ reason: 'date_format', phrase: '11/14' });
  });

  it('declines a date that is not in the calendar', () => {
    expect(unreadable('what changed since feb 30')).toEqual({ reason: 'invalid_date', phrase: 'feb 30' });
    expect(unreadable('what failed on 2026-02-30')).toEqual({ reason: 'invalid_date', phrase: '2026-02-30' });
    expect(unreadable('since the 31st of april')).toEqual({ reason: 'invalid_date', phrase: '31st of april' });
    expect(unreadable('what failed on 2026-13-01')).toEqual({ reason: 'invalid_date', phrase: '2026-13-01' });
  });

  it('reads monitoring around the clock, a score and a calendar date as no date to decline', () => {
    expect(unreadable('is monitoring 24/7')).toBeUndefined();
    expect(unreadable('why is the score 75.7')).toBeUndefined();
    expect(unreadable('what failed on nov 14')).toBeUndefined();
    expect(unreadable('what failed on 2024-02-29')).toBeUndefined();
  });
});

describe('long text of near-matches, read in one pass', () => {
  /** About 50,000 characters of `piece` repeated. */
  const run = (piece: string) => piece.repeat(Math.ceil(50_000 / piece.length));

  it.each([
    ['numbers that almost make a date', run('1/1/'), undefined],
    ['a numeric date without its year', run('since 1/'), undefined],
    ['ISO dates without a day', run('2026-11-'), undefined],
    ['a month name without a day', run('nov '), undefined],
    ['ordinals without a month', run('1st of '), undefined],
    ['counted spans without a unit', run('the previous the 3 '), undefined],
    ['a word that introduces a year, without one', run('in 20 '), undefined],
  ])('%s', (_what, text, expected) => {
    expect(unreadableDate(text, today)).toEqual(expected);
    expect(dayAsked(text, today)).toEqual(expected);
    expect(spanIn(text, today)).toEqual(expected);
    expect(windowAhead(text, today)).toEqual(expected);
  });

  it('reads every one of many dates', () => {
    const text = run('what failed on nov 14 and the 12th, ');
    expect(new Set(dates(text))).toEqual(new Set(['2026-11-14', '2026-11-12']));
    expect(daysIn(text, today)).toHaveLength(2 * Math.ceil(50_000 / 'what failed on nov 14 and the 12th, '.length));
  });
});
