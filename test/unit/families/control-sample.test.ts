/**
 * `GET /api/controls/{id}/sample` and `sample.csv` through the controls family: the sample of a
 * year's days is the published method's (re-derived here from the population's dates), reads
 * one listing and the sampled days' reports only, defaults its size to the suggestion and its
 * seed to the period, and answers 400 naming the parameter for a size, seed or period it cannot take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxPeriodDays, sampleLimits } from '@evident/contract';
import { suggestedSampleSize } from '../../../functions/src/assessment/control-frequency.ts';
import { addDays } from '../../../functions/src/assessment/dates.ts';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { rankAll } from '../../../functions/src/assessment/sampling.ts';
import { createControlsFamily } from '../../../functions/src/families/controls.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { serve, type Served } from '../../support/serve.ts';

type ControlSample = components['schemas']['ControlSample'];

const catalog = compileCatalogSources(paths.catalog);
const checked = catalog.controls.find((control) => control.checks.length > 0)!;
const today = '2026-11-24';
const yearAgo = addDays(today, -364);
const store = new RecordingStore(new MemoryStore());
let served: Served;

/** A report of `date` in which the checked control fails on days of the month divisible by 7. */
function reportOf(date: string): Report {
  const evidence = [`ev-${date}`];
  const status = Number(date.slice(8)) % 7 === 0 ? 'failing' : 'passing';
  return {
    date,
    timeZone: 'UTC',
    asOf: `${date}T23:59:59.999Z`,
    generatedAt: `${date}T23:59:59.999Z`,
    runId: `daily-${date}`,
    catalogVersion: catalog.version,
    summary: { score: 100, counts: { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 }, controls: 1 },
    controls: [
      {
        id: checked.id,
        title: checked.title,
        family: checked.family,
        severity: checked.severity,
        status,
        findings: [{ outcome: status === 'passing' ? 'pass' : 'fail', message: `On ${date}.`, evidence }],
        evidence,
      },
    ],
    diff: { previousDate: null, newlyFailing: [], fixed: [], newlyStale: [], changes: [] },
  };
}

/** The days with a report: a year up to today, but for the 10th of each month. */
const reportDays = Array.from({ length: 365 }, (_, index) => addDays(yearAgo, index)).filter((day) => !day.endsWith('-10'));

beforeAll(async () => {
  setMode('public');
  const reports = new ReportStore(store);
  for (const day of reportDays) await reports.create(reportOf(day));
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

const sample = (query = '', id = checked.id) => fetch(`${served.url}/api/controls/${id}/sample${query}`);

describe('a sample of a control\u2019s days', () => {
  it('samples 60 days of a year by the published method, reading one listing and the 60 reports', async () => {
    store.reset();
    const answer = await sample(`?from=${yearAgo}&to=${today}&size=60&seed=auditor-2026`);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as ControlSample;
    const expected = rankAll('auditor-2026', reportDays).slice(0, 60);
    expect(body.sample.map(({ rank, date, digest }) => ({ rank, id: date, digest }))).toEqual(expected);
    expect(body.sample[0]).toEqual({
      ...{ rank: 1, date: expected[0]!.id, digest: expected[0]!.digest },
      status: reportOf(expected[0]!.id).controls[0]!.status,
      evidence: [`ev-${expected[0]!.id}`],
    });
    expect([body.population, body.size, body.seed, body.seedChosen]).toEqual([reportDays.length, 60, 'auditor-2026', true]);
    expect(store.of('list')).toHaveLength(1);
    expect(store.of('read')).toHaveLength(60);
    expect(store.calls.length).toBeLessThanOrEqual(400);
  });

  it('defaults the size to the upper end of the suggestion, the seed to the period and the period to 90 days', async () => {
    const body = (await (await sample()).json()) as ControlSample;
    const from = addDays(today, -89);
    const suggestion = suggestedSampleSize(checked);
    expect(suggestion.frequency).toBe('daily');
    expect(body).toMatchObject({
      from,
      to: today,
      seed: `${from}..${today}`,
      seedChosen: false,
      size: 40,
      suggestion: { frequency: 'daily', minimum: 20, maximum: 40 },
      population: reportDays.filter((day) => day >= from).length,
    });
    expect(body.sample.map((day) => day.date)).toEqual(
      rankAll(
        `${from}..${today}`,
        reportDays.filter((day) => day >= from),
      )
        .slice(0, 40)
        .map((day) => day.id),
    );
  });

  it('takes every day when the population is smaller than the size', async () => {
    const body = (await (await sample(`?from=${addDays(today, -2)}&size=5&seed=s`)).json()) as ControlSample;
    expect(body.sample.map((day) => day.rank)).toEqual([1, 2, 3]);
    expect(body.population).toBe(3);
  });

  it.each([
    ['?size=0', 'size', 'must be >= 1'],
    [`?size=${sampleLimits.size.maximum + 1}`, 'size', 'must be <= 60'],
    ['?size=two', 'size', 'must be integer'],
    ['?seed=', 'seed', 'must NOT have fewer than 1 characters'],
    [`?seed=${'s'.repeat(sampleLimits.seed.maxLength + 1)}`, 'seed', 'must NOT have more than 200 characters'],
    ['?seed=a%0Ab', 'seed', 'must match pattern "^[^\\p{Cc}\\p{Cs}]*$"'],
    [`?from=${addDays(today, -maxPeriodDays)}`, 'from', `makes a period longer than ${maxPeriodDays} days`],
  ])('refuses %s with a 400 naming the parameter', async (query, name, message) => {
    const answer = await sample(query);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual(
      expectedProblem(
        'invalid_request',
        `The query parameter "${name}" ${message}.`,
        `/api/controls/${checked.id}/sample`,
        answer.headers.get('x-request-id')!,
        { errors: [{ in: 'query', name, message }] },
      ),
    );
  });

  it('answers 404 for a control the catalog does not have', async () => {
    const answer = await sample('', 'ZZZ-99');
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { code: string }).code).toBe('control_not_found');
  });
});

describe('the sample and its population as CSV', () => {
  const from = addDays(today, -15);
  const days = reportDays.filter((day) => day >= from);
  const ranked = rankAll('csv seed', days);
  const csv = (rows: string) =>
    fetch(`${served.url}/api/controls/${checked.id}/sample.csv?from=${from}&size=3&seed=csv%20seed${rows}`);

  it('gives the sampled days in rank order, named for saving', async () => {
    const answer = await csv('');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${checked.id}-${from}-to-${today}-sample.csv"`);
    const status = (day: string) => reportOf(day).controls[0]!.status;
    expect(await answer.text()).toBe(
      [
        '"rank","date","sha256","status","evidence"',
        ...ranked.slice(0, 3).map((day) => `"${day.rank}","${day.id}","${day.digest}","${status(day.id)}","ev-${day.id}"`),
        '',
      ].join('\r\n'),
    );
  });

  it('gives every day of the population, oldest first, with its rank and whether it is sampled', async () => {
    store.reset();
    const answer = await csv('&rows=population');
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="${checked.id}-${from}-to-${today}-population.csv"`,
    );
    const rankOf = new Map(ranked.map((day) => [day.id, day]));
    expect(await answer.text()).toBe(
      [
        '"date","status","sha256","rank","sampled"',
        ...days.map((day) => {
          const { rank, digest } = rankOf.get(day)!;
          return `"${day}","${reportOf(day).controls[0]!.status}","${digest}","${rank}","${rank <= 3 ? 'yes' : 'no'}"`;
        }),
        '',
      ].join('\r\n'),
    );
    expect(store.of('list')).toHaveLength(1);
  });

  it('refuses an unknown choice of rows', async () => {
    const answer = await csv('&rows=all');
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { errors: unknown }).errors).toEqual([
      { in: 'query', name: 'rows', message: 'must be equal to one of the allowed values' },
    ]);
  });
});
