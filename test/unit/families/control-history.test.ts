/**
 * `GET /api/controls/{id}/history` through the controls family: the period it reads (90 days
 * up to today by default), one report object per day that has one, and a 400 naming the
 * parameter for a period it cannot read (not a day, after today, reversed, over 366 days).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../functions/src/assessment/dates.ts';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { createControlsFamily } from '../../../functions/src/families/controls.ts';
import type { ControlHistory } from '../../../functions/src/reports/control-history.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { serve, type Served } from '../../support/serve.ts';

const catalog = compileCatalogSources(paths.catalog);
const control = catalog.controls[0]!;
const today = '2026-11-24';
const store = new RecordingStore(new MemoryStore());
let served: Served;

/** A report of `date` in which the first control has `status`. */
function reportOf(date: string, status: 'passing' | 'failing'): Report {
  const evidence = [`ev-${date}`];
  return {
    date,
    timeZone: 'UTC',
    asOf: `${date}T23:59:59.999Z`,
    generatedAt: `${date}T23:59:59.999Z`,
    runId: `daily-${date}`,
    catalogVersion: catalog.version,
    summary: {
      score: status === 'passing' ? 100 : 0,
      counts: { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 },
      controls: 1,
    },
    controls: [
      {
        id: control.id,
        title: control.title,
        family: control.family,
        severity: control.severity,
        status,
        findings: [{ outcome: status === 'passing' ? 'pass' : 'fail', message: `On ${date}.`, evidence }],
        evidence,
      },
    ],
    diff: { previousDate: null, newlyFailing: [], fixed: [], newlyStale: [], changes: [] },
  };
}

beforeAll(async () => {
  setMode('public');
  const reports = new ReportStore(store);
  // Two hundred days of reports up to today, one day in ten missing; failing from 40 to 31 days ago.
  for (let back = 199; back >= 0; back -= 1) {
    if (back % 10 === 5) continue;
    await reports.create(reportOf(addDays(today, -back), back <= 40 && back >= 31 ? 'failing' : 'passing'));
  }
  served = await serve(
    createControlsFamily({
      store: async () => store,
      catalog: () => catalog,
      now: () => new Date(`${today}T12:00:00Z`),
      timeZone: () => 'UTC',
      verifyToken: fakeVerifier(),
      loadTable: tableOf('controls'),
    }),
  );
});

afterAll(() => served.close());

const history = (query = '', id = control.id) => fetch(`${served.url}/api/controls/${id}/history${query}`);

describe('the history of a control', () => {
  it('reads the 90 days up to today by default, one report object per day that has one', async () => {
    store.reset();
    const answer = await history();
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as ControlHistory;
    expect([body.controlId, body.from, body.to, body.days.length]).toEqual([control.id, addDays(today, -89), today, 90]);
    const withReport = body.days.filter((day) => day.status !== null);
    expect(withReport).toHaveLength(81);
    // Each day's report once, and the report before the period, for its first change.
    expect(store.of('read').length).toBe(82);
    expect(body.summary).toMatchObject({
      daysWithReport: 81,
      longestNonPassingStreak: { days: 10, from: addDays(today, -40), to: addDays(today, -31) },
      fixes: 1,
      meanTimeToFixDays: 10,
    });
    expect(body.changes.map((change) => [change.date, change.from?.status, change.to.status])).toEqual([
      [addDays(today, -40), 'passing', 'failing'],
      [addDays(today, -30), 'failing', 'passing'],
    ]);
  });

  it('reads exactly the period asked for', async () => {
    const body = (await (await history(`?from=${addDays(today, -45)}&to=${addDays(today, -35)}`)).json()) as ControlHistory;
    // 45 and 35 days ago have no report; failing from 40 to 31 days ago.
    expect(body.days.map((day) => day.status)).toEqual([
      null,
      'passing',
      'passing',
      'passing',
      'passing',
      'failing',
      'failing',
      'failing',
      'failing',
      'failing',
      null,
    ]);
    expect(body.summary.passingShare).toBe(4 / 9);
  });

  it.each([
    ['?from=2026-02-30', 'from', 'is not a calendar date (YYYY-MM-DD)'],
    ['?to=2026-11-25', 'to', 'is after today (2026-11-24, UTC)'],
    ['?from=2026-11-20&to=2026-11-10', 'from', 'is after "to"'],
    ['?from=2025-11-22&to=2026-11-23', 'from', 'makes a period longer than 366 days'],
  ])('refuses %s with a 400 naming the parameter', async (query, name, message) => {
    const answer = await history(query);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'invalid_request',
        `The query parameter "${name}" ${message}.`,
        `/api/controls/${control.id}/history`,
        answer.headers.get('x-request-id')!,
        {
          errors: [{ in: 'query', name, message }],
        },
      ),
    );
  });

  it('reads a full year of 366 days', async () => {
    const answer = await history('?from=2025-11-23&to=2026-11-23');
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as ControlHistory).days).toHaveLength(366);
  });

  it('exports the same period as CSV, a row a day, named for saving', async () => {
    const from = addDays(today, -41);
    const to = addDays(today, -39);
    const answer = await fetch(`${served.url}/api/controls/${control.id}/history.csv?from=${from}&to=${to}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${control.id}-${from}-to-${to}.csv"`);
    expect(await answer.text()).toBe(
      [
        '"date","status","changed_from","reasons","evidence_added"',
        `"${from}","passing","","",""`,
        `"${addDays(today, -40)}","failing","passing","On ${addDays(today, -40)}.","ev-${addDays(today, -40)}"`,
        `"${to}","failing","","",""`,
        '',
      ].join('\r\n'),
    );
  });

  it('refuses the CSV of a period it cannot read as the JSON does', async () => {
    const answer = await fetch(`${served.url}/api/controls/${control.id}/history.csv?to=2026-11-25`);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { detail: string }).detail).toBe(
      'The query parameter "to" is after today (2026-11-24, UTC).',
    );
  });

  it('answers 404 for a control the catalog does not have', async () => {
    const answer = await history('', 'ZZZ-99');
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'control_not_found',
        'No control in the catalog has the id "ZZZ-99".',
        '/api/controls/ZZZ-99/history',
        answer.headers.get('x-request-id')!,
      ),
    );
  });
});
