/**
 * When the hourly schedule runs a connector (connector-listing.ts): every `cadenceHours` hours,
 * taken down to a divisor of a day, counted from the hour before the daily report, so a daily
 * connector's evidence is in before the report is made.
 */
import { describe, expect, it } from 'vitest';
import type { SettingValue } from '../../../functions/src/connectors/connector.ts';
import { cadenceOf, isDueAt, reportHourOf } from '../../../functions/src/connectors/connector-listing.ts';

const hours = Array.from({ length: 24 }, (_, hour) => hour);

describe('the connectors\u2019 schedule', () => {
  it('runs a daily connector once a day, the hour before the report', () => {
    expect(hours.filter((hour) => isDueAt(hour, 24, 6))).toEqual([5]);
    expect(hours.filter((hour) => isDueAt(hour, 24, 0))).toEqual([23]);
  });

  it('runs a connector of a shorter cadence at the same hours every day, that one among them', () => {
    expect(hours.filter((hour) => isDueAt(hour, 6, 6))).toEqual([5, 11, 17, 23]);
    expect(hours.filter((hour) => isDueAt(hour, 8, 2))).toEqual([1, 9, 17]);
    expect(hours.filter((hour) => isDueAt(hour, 1, 6))).toEqual(hours);
  });

  it('takes a cadence down to a divisor of a day, 24 hours when none or nonsense is set', () => {
    expect(
      (
        [{}, { cadenceHours: 24 }, { cadenceHours: 48 }, { cadenceHours: 0 }, { cadenceHours: '6' }] as Record<
          string,
          SettingValue
        >[]
      ).map(cadenceOf),
    ).toEqual([24, 24, 24, 24, 24]);
    expect([1, 5, 7, 11, 12, 23].map((cadenceHours) => cadenceOf({ cadenceHours }))).toEqual([1, 4, 6, 8, 12, 12]);
  });

  it('reads the report hour of a daily cron schedule, else 6', () => {
    expect(['0 6 * * *', '30 23 * * *', '0 */2 * * *', 'nonsense'].map(reportHourOf)).toEqual([6, 23, 6, 6]);
  });
});
