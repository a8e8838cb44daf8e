/**
 * Calendar days in the report time zone. A report is for one day in that zone; its cut-off
 * (`asOf`) for a past day is the first instant of the next day there.
 */

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real `YYYY-MM-DD` day: 2026-02-29 and 2026-13-01 are not. */
export function isCalendarDate(text: string): boolean {
  const match = dayPattern.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && year >= 1970;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Zones that are UTC all year, read without ICU: the first formatter of a process loads its zone data (≈ 6 ms cold). */
const utcZones = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT']);

function partsIn(timeZone: string, instant: Date): Record<string, number> {
  if (utcZones.has(timeZone)) {
    return {
      year: instant.getUTCFullYear(),
      month: instant.getUTCMonth() + 1,
      day: instant.getUTCDate(),
      hour: instant.getUTCHours(),
      minute: instant.getUTCMinutes(),
      second: instant.getUTCSeconds(),
    };
  }
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts;
}

function dayOfParts(timeZone: string, instant: Date): string {
  const { year, month, day } = partsIn(timeZone, instant);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The last day asked about in each time zone, with the instants it spans. Every caller asks
 * about now, and reading the calendar (`formatToParts`) costs more than the rest of serving a
 * cached report, so a request inside the same day costs two comparisons.
 */
const lastDay = new Map<string, { day: string; from: number; until: number }>();

/** The day an instant falls on in a time zone. */
export function dayIn(timeZone: string, instant: Date): string {
  const time = instant.getTime();
  const last = lastDay.get(timeZone);
  if (last && time >= last.from && time < last.until) return last.day;
  const day = dayOfParts(timeZone, instant);
  const span = { day, from: startOfDay(timeZone, day).getTime(), until: endOfDay(timeZone, day).getTime() };
  if (time >= span.from && time < span.until) lastDay.set(timeZone, span);
  return day;
}

/** Throws for a name the runtime's time-zone database does not know. */
export function checkTimeZone(timeZone: string): void {
  new Intl.DateTimeFormat('en-US', { timeZone });
}

/**
 * The first instant of a day in a time zone. Usually local midnight; where a daylight-saving
 * change skips midnight (America/Santiago, America/Havana), the instant the day begins.
 */
export function startOfDay(timeZone: string, date: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall;
  // Two rounds settle the offset even across a daylight-saving change.
  for (let round = 0; round < 2; round++) {
    const p = partsIn(timeZone, new Date(guess));
    const seen = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
    guess += wall - seen;
  }
  // Settle on the exact boundary: the earliest instant whose day is `date`, within a few hours.
  const isOnOrAfter = (instant: number) => dayOfParts(timeZone, new Date(instant)) >= date;
  let low = guess - 3 * 3_600_000;
  let high = guess + 3 * 3_600_000;
  if (isOnOrAfter(low) || !isOnOrAfter(high)) return new Date(guess);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (isOnOrAfter(middle)) high = middle;
    else low = middle;
  }
  return new Date(high);
}

export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The cut-off of a day's report: the start of the following day. */
export function endOfDay(timeZone: string, date: string): Date {
  return startOfDay(timeZone, addDays(date, 1));
}
