/** A control's history as CSV: one row a day, the change columns on change days, RFC 4180 quoting, formulas defused. */
import { describe, expect, it } from 'vitest';
import type { ControlResult, ControlStatus } from '../../../functions/src/assessment/model.ts';
import { controlHistory } from '../../../functions/src/reports/control-history.ts';
import { controlHistoryCsv } from '../../../functions/src/reports/control-history-csv.ts';

function on(date: string, status: ControlStatus, message: string, evidence: string[]) {
  const result: ControlResult = {
    id: 'STO-01',
    title: 'Buckets are private',
    family: 'storage',
    severity: 'critical',
    status,
    findings: [{ outcome: status === 'passing' ? 'pass' : 'fail', message, evidence }],
    evidence,
  };
  return { date, result };
}

describe('controlHistoryCsv', () => {
  it('writes a row a day with CRLF line ends, the change columns filled on the days of a change', () => {
    const history = controlHistory('STO-01', '2026-11-01', '2026-11-04', [
      on('2026-11-01', 'passing', 'All private.', ['a']),
      on('2026-11-02', 'failing', 'gcs/x is public, "world" readable', ['a', 'b']),
      on('2026-11-04', 'passing', 'All private.', ['c']),
    ]);
    expect(controlHistoryCsv(history)).toBe(
      [
        'date,status,changed_from,reasons,evidence_added',
        '2026-11-01,passing,none,,a',
        '2026-11-02,failing,passing,"gcs/x is public, ""world"" readable",b',
        '2026-11-03,,,,',
        '2026-11-04,passing,failing,"gcs/x is public, ""world"" readable",c',
        '',
      ].join('\r\n'),
    );
  });

  it('defuses a cell a spreadsheet would run as a formula', () => {
    const history = controlHistory('STO-01', '2026-11-01', '2026-11-01', [
      on('2026-11-01', 'failing', '=HYPERLINK("http://evil.example","x")', ['@sum']),
    ]);
    const [, row] = controlHistoryCsv(history).split('\r\n');
    expect(row).toBe(`2026-11-01,failing,none,"'=HYPERLINK(""http://evil.example"",""x"")",'@sum`);
  });
});
