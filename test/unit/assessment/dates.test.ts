/**
 * Calendar days in the report time zone: which days are real, which day an instant falls on, and
 * the first and last instants of a day, across offsets and daylight-saving changes.
 */
import { describe, expect, it } from 'vitest';
import { addDays, checkTimeZone, dayIn, endOfDay, isCalendarDate, startOfDay } from '../../../functions/src/assessment/dates.ts';

const hourMs = 60 * 60 * 1000;

describe('isCalendarDate', () => {
  it.each([
    ['2026-02-28', true],
    ['2026-02-29', false],
    ['2028-02-29', true],
    ['2100-02-29', false],
    ['2000-02-29', true],
    ['2026-12-31', true],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-01-00', false],
    ['2026-1-01', false],
    ['2026-01-1', false],
    ['26-01-01', false],
    ['2026-01-01T00:00:00Z', false],
    [' 2026-01-01', false],
    ['2026/01/01', false],
    ['1970-01-01', true],
    ['1969-12-31', false],
    ['', false],
  ])('%j is %s', (text, expected) => {
    expect(isCalendarDate(text)).toBe(expected);
  });
});

describe('dayIn', () => {
  it('gives the day an instant falls on in each zone', () => {
    const instant = new Date('2026-11-21T23:30:00Z');
    expect(dayIn('Europe/Paris', instant)).toBe('2026-11-22');
    expect(dayIn('America/New_York', instant)).toBe('2026-11-21');
    expect(dayIn('UTC', instant)).toBe('2026-11-21');
    expect(dayIn('Asia/Tokyo', instant)).toBe('2026-11-22');
    expect(dayIn('Pacific/Kiritimati', new Date('2026-11-21T09:59:59Z'))).toBe('2026-11-21');
    expect(dayIn('Pacific/Kiritimati', new Date('2026-11-21T10:00:00Z'))).toBe('2026-11-22');
  });

  it('crosses years and pads months and days', () => {
    expect(dayIn('America/Los_Angeles', new Date('2027-01-01T05:00:00Z'))).toBe('2026-12-31');
    expect(dayIn('Australia/Sydney', new Date('2026-12-31T13:00:00Z'))).toBe('2027-01-01');
    expect(dayIn('UTC', new Date('2026-03-05T00:00:00Z'))).toBe('2026-03-05');
  });

  it('reads midnight as the start of a day, not hour 24 of the one before', () => {
    expect(dayIn('Europe/Paris', new Date('2026-11-21T23:00:00Z'))).toBe('2026-11-22');
    expect(dayIn('Europe/Paris', new Date('2026-11-21T22:59:59.999Z'))).toBe('2026-11-21');
  });

  it('answers from the day it last found only for instants inside that day, at every edge and across clock changes', () => {
    // Each pair asks inside a day, then just outside it, so a remembered day that spans too far shows.
    for (const [timeZone, day] of [
      ['Europe/Paris', '2026-03-29'],
      ['Europe/Paris', '2026-10-25'],
      ['America/Santiago', '2026-09-06'],
      ['Asia/Kolkata', '2026-11-24'],
    ] as const) {
      const from = startOfDay(timeZone, day).getTime();
      const until = endOfDay(timeZone, day).getTime();
      for (const instant of [from + hourMs, from - 1, from, until - 1, until, from + hourMs, until + hourMs, until - 1]) {
        const expected = instant < from ? addDays(day, -1) : instant < until ? day : addDays(day, 1);
        expect(dayIn(timeZone, new Date(instant)), `${timeZone} ${new Date(instant).toISOString()}`).toBe(expected);
      }
    }
  });
});

describe('startOfDay and endOfDay', () => {
  it('give midnight to midnight in the zone', () => {
    expect(startOfDay('Europe/Paris', '2026-11-21').toISOString()).toBe('2026-11-20T23:00:00.000Z');
    expect(endOfDay('Europe/Paris', '2026-11-21').toISOString()).toBe('2026-11-21T23:00:00.000Z');
    expect(startOfDay('America/New_York', '2026-11-21').toISOString()).toBe('2026-11-21T05:00:00.000Z');
    expect(endOfDay('America/New_York', '2026-11-21').toISOString()).toBe('2026-11-22T05:00:00.000Z');
    expect(startOfDay('UTC', '2026-11-21').toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(startOfDay('Asia/Kolkata', '2026-11-21').toISOString()).toBe('2026-11-20T18:30:00.000Z');
    expect(startOfDay('Asia/Kathmandu', '2026-11-21').toISOString()).toBe('2026-11-20T18:15:00.000Z');
  });

  it('make a 23-hour day when clocks go forward (Europe/Paris, 2026-03-29)', () => {
    const start = startOfDay('Europe/Paris', '2026-03-29');
    const end = endOfDay('Europe/Paris', '2026-03-29');
    expect(start.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(end.toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(end.getTime() - start.getTime()).toBe(23 * hourMs);
  });

  it('make a 25-hour day when clocks go back (Europe/Paris, 2026-10-25)', () => {
    const start = startOfDay('Europe/Paris', '2026-10-25');
    const end = endOfDay('Europe/Paris', '2026-10-25');
    expect(start.toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(end.toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(end.getTime() - start.getTime()).toBe(25 * hourMs);
  });

  it('make a 23-hour day in America/New_York on 2026-03-08 and a 25-hour one on 2026-11-01', () => {
    expect(endOfDay('America/New_York', '2026-03-08').getTime() - startOfDay('America/New_York', '2026-03-08').getTime()).toBe(
      23 * hourMs,
    );
    expect(endOfDay('America/New_York', '2026-11-01').getTime() - startOfDay('America/New_York', '2026-11-01').getTime()).toBe(
      25 * hourMs,
    );
  });

  it('cover every instant of the day and no other, in several zones through a whole year', () => {
    for (const zone of ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Tokyo', 'UTC']) {
      for (let day = '2026-01-01'; day < '2027-01-01'; day = addDays(day, 1)) {
        const start = startOfDay(zone, day);
        const end = endOfDay(zone, day);
        expect([zone, dayIn(zone, start), dayIn(zone, new Date(start.getTime() - 1))]).toEqual([zone, day, addDays(day, -1)]);
        expect([zone, dayIn(zone, new Date(end.getTime() - 1)), dayIn(zone, end)]).toEqual([zone, day, addDays(day, 1)]);
      }
    }
  });

  it('starts a day whose midnight is skipped at the first instant of that day (America/Santiago, 2026-09-06)', () => {
    const start = startOfDay('America/Santiago', '2026-09-06');
    expect(start.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(dayIn('America/Santiago', start)).toBe('2026-09-06');
    expect(endOfDay('America/Santiago', '2026-09-05').getTime() - startOfDay('America/Santiago', '2026-09-05').getTime()).toBe(
      24 * hourMs,
    );
  });
});

describe('addDays', () => {
  it('moves across months, years and leap days', () => {
    expect(addDays('2026-11-21', 1)).toBe('2026-11-22');
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-01-01', 0)).toBe('2026-01-01');
    expect(addDays('2026-01-01', 365)).toBe('2027-01-01');
  });
});

describe('checkTimeZone', () => {
  it('accepts IANA names and refuses unknown ones', () => {
    expect(() => checkTimeZone('Europe/Paris')).not.toThrow();
    expect(() => checkTimeZone('Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('UTC, read without the time-zone database', () => {
  it('gives the same days and bounds as a zone the database keeps at UTC', () => {
    // Etc/UCT is UTC all year but not one of the names read directly, so the formatter reads it.
    const instants = [Date.UTC(2026, 0, 1, 0, 0, 0), Date.UTC(2026, 1, 28, 23, 59, 59, 999), Date.UTC(2028, 1, 29, 12)];
    for (let at = Date.UTC(2026, 2, 1); at < Date.UTC(2027, 2, 1); at += 7 * 3600 * 1000 + 1234) instants.push(at);
    for (const at of instants) expect(dayIn('UTC', new Date(at))).toBe(dayIn('Etc/UCT', new Date(at)));
    for (const day of ['2026-01-01', '2026-03-29', '2028-02-29', '2026-12-31']) {
      expect(startOfDay('UTC', day)).toEqual(startOfDay('Etc/UCT', day));
      expect(endOfDay('GMT', day)).toEqual(endOfDay('Etc/UCT', day));
    }
  });
});
