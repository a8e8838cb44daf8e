/**
 * Owners and due dates (assessment/due-dates.ts, and the engine that applies them): a control
 * is open while failing, stale or missing evidence, since the first day of that run however its
 * status moves between the three, and due the days its severity allows after; a pass or a scope
 * decision ends the run, and a day without a report does not.
 */
import { describe, expect, it } from 'vitest';
import { defaultDueDays, followUpOf } from '../../../functions/src/assessment/due-dates.ts';
import { compileCatalog, evaluate } from '../../../functions/src/assessment/evaluate.ts';
import type { ControlStatus, Report } from '../../../functions/src/assessment/model.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';

const high = (status: ControlStatus) => ({ status, severity: 'high' as const });
const before = (date: string, status: ControlStatus, openSince?: string) => ({
  date,
  result: { status, ...(openSince ? { openSince } : {}) },
});

describe('the follow-up of a control', () => {
  it('is none while it passes or is scoped out', () => {
    expect(
      followUpOf('2026-11-24', high('passing'), before('2026-11-23', 'failing', '2026-11-01'), defaultDueDays),
    ).toBeUndefined();
    expect(followUpOf('2026-11-24', high('not_applicable'), undefined, defaultDueDays)).toBeUndefined();
  });

  it.each<ControlStatus>(['failing', 'stale', 'missing'])(
    'opens on the first day it is %s, due after its severity allows',
    (status) => {
      expect(followUpOf('2026-11-24', high(status), before('2026-11-23', 'passing'), defaultDueDays)).toEqual({
        openSince: '2026-11-24',
        dueDate: '2026-12-24',
        overdue: false,
      });
    },
  );

  it('opens on the day of the first report when there is none before', () => {
    expect(followUpOf('2026-11-24', { status: 'failing', severity: 'critical' }, undefined, defaultDueDays)).toEqual({
      openSince: '2026-11-24',
      dueDate: '2026-12-01',
      overdue: false,
    });
  });

  it('keeps its first day while it moves between failing, stale and missing, across days without a report', () => {
    // The report before is a week old: the days between had none.
    expect(followUpOf('2026-11-24', high('stale'), before('2026-11-17', 'failing', '2026-10-20'), defaultDueDays)).toEqual({
      openSince: '2026-10-20',
      dueDate: '2026-11-19',
      overdue: true,
    });
  });

  it('opens again after a pass or a scope decision', () => {
    for (const status of ['passing', 'not_applicable'] as const) {
      expect(followUpOf('2026-11-24', high('failing'), before('2026-11-23', status), defaultDueDays)?.openSince).toBe(
        '2026-11-24',
      );
    }
  });

  it('is due on its due date and overdue the day after', () => {
    const open = before('2026-11-23', 'failing', '2026-10-25');
    expect(followUpOf('2026-11-24', high('failing'), open, defaultDueDays)).toMatchObject({
      dueDate: '2026-11-24',
      overdue: false,
    });
    expect(followUpOf('2026-11-25', high('failing'), open, defaultDueDays)).toMatchObject({
      dueDate: '2026-11-24',
      overdue: true,
    });
  });

  it("counts a result stored before open runs were recorded as open since that report's day", () => {
    expect(followUpOf('2026-11-24', high('failing'), before('2026-11-20', 'missing'), defaultDueDays)?.openSince).toBe(
      '2026-11-20',
    );
  });

  it("takes the days from the deployment's settings", () => {
    const strict = { ...defaultDueDays, high: 3 };
    expect(followUpOf('2026-11-24', high('failing'), undefined, strict)?.dueDate).toBe('2026-11-27');
  });
});

describe('owners and due dates in a report', () => {
  const catalog = compileCatalogSources(paths.catalog);
  const compiled = compileCatalog(catalog);
  const day = (date: string, previous: Report | null) =>
    evaluate(compiled, {
      date,
      timeZone: 'UTC',
      asOf: new Date(`${date}T23:59:59.999Z`),
      generatedAt: new Date(`${date}T23:59:59.999Z`),
      runId: date,
      evidence: [],
      previous,
    });

  it('gives every control its owner, and each open one the day it opened, carried from the report before', () => {
    const first = day('2026-11-01', null);
    const later = day('2026-12-31', first);
    for (const result of later.controls) {
      const control = catalog.controls.find((candidate) => candidate.id === result.id)!;
      expect(result.owner).toBe(control.owner);
      // No evidence at all: every control is missing, open since the first report.
      expect(result.openSince).toBe('2026-11-01');
      const due = new Date(Date.parse('2026-11-01T00:00:00Z') + catalog.dueDays[control.severity] * 86_400_000)
        .toISOString()
        .slice(0, 10);
      expect([result.id, result.dueDate, result.overdue]).toEqual([result.id, due, '2026-12-31' > due]);
    }
    expect(later.summary.overdue).toBe(later.controls.filter((result) => result.overdue).length);
    expect(later.summary.overdue).toBeGreaterThan(0);
    expect(first.summary.overdue).toBe(0);
  });
});
