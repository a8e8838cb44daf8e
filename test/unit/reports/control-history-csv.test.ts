/**
 * A control's history as CSV: one row a day, the change columns on change days, every field
 * quoted (RFC 4180), and formulas defused wherever a spreadsheet could start a cell: at the
 * start of a field and after a separator some locale splits at.
 */
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
        '"date","status","changed_from","reasons","evidence_added"',
        '"2026-11-01","passing","none","","a"',
        '"2026-11-02","failing","passing","gcs/x is public, ""world"" readable","b"',
        '"2026-11-03","","","",""',
        '"2026-11-04","passing","failing","gcs/x is public, ""world"" readable","c"',
        '',
      ].join('\r\n'),
    );
  });

  it('defuses a cell a spreadsheet would run as a formula', () => {
    const history = controlHistory('STO-01', '2026-11-01', '2026-11-01', [
      on('2026-11-01', 'failing', '=HYPERLINK("http://evil.example","x")', ['@sum']),
    ]);
    const [, row] = controlHistoryCsv(history).split('\r\n');
    expect(row).toBe(`"2026-11-01","failing","none","'=HYPERLINK(""http://evil.example"",""x"")","'@sum"`);
  });

  it('defuses a formula after a semicolon, which a semicolon-separated locale opens as a cell of its own', () => {
    const history = controlHistory('STO-01', '2026-11-01', '2026-11-01', [on('2026-11-01', 'failing', 'x;=1+2;', ['ev'])]);
    const [, row] = controlHistoryCsv(history).split('\r\n');
    expect(row).toBe(`"2026-11-01","failing","none","x;'=1+2;","ev"`);
  });

  it('defuses every trigger after a comma, semicolon, tab or line break, past spaces and quotes', () => {
    const message = 'a,+1, -2;"@x"\t=3\n=4\r\t5 - 6 = 7';
    const history = controlHistory('STO-01', '2026-11-01', '2026-11-01', [on('2026-11-01', 'failing', message, ['ev'])]);
    const [, row] = controlHistoryCsv(history).split('\r\n');
    expect(row).toBe(`"2026-11-01","failing","none","a,'+1, '-2;""'@x""\t'=3\n'=4\r'\t5 - 6 = 7","ev"`);
  });

  it('defuses a long adversarial cell in one linear pass', () => {
    const message = `${' '.repeat(100_000)}=${';'.repeat(100_000)}${' ;='.repeat(30_000)}`;
    const history = controlHistory('STO-01', '2026-11-01', '2026-11-01', [on('2026-11-01', 'failing', message, ['ev'])]);
    const cell = controlHistoryCsv(history).split('\r\n')[1]!.split('","')[3]!;
    expect(cell).toBe(`${' '.repeat(100_000)}'=${';'.repeat(100_000)}${" ;'=".repeat(30_000)}`);
  });
});
