/**
 * `GET /api/controls/{id}/population` and `population.csv` through the controls family: a page of
 * the subjects a control's checks ran on in a day's report, found by the report's run id (one
 * `stat`) and read as the header and chunks it spans, so a page of 50,000 subjects reads a few
 * objects; a cursor keeps to the report version it began on; the CSV gives every subject; and
 * each miss or bad input answers its problem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { pageLimits } from '@evident/contract';
import type { Report } from '../../../functions/src/assessment/model.ts';
import { createControlsFamily } from '../../../functions/src/families/controls.ts';
import { encodeCursor } from '../../../functions/src/families/paging.ts';
import type { components } from '../../../functions/src/generated/api-types.ts';
import type { ControlPopulation, SubjectOutcome } from '../../../functions/src/populations/control-population.ts';
import { writeControlPopulations } from '../../../functions/src/populations/control-population-store.ts';
import { ReportStore } from '../../../functions/src/reports/report-store.ts';
import { MemoryStore } from '../../../functions/src/storage/memory-store.ts';
import { compileCatalogSources } from '../../../scripts/lib/catalog-bundle.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { fakeVerifier, setMode, tableOf } from '../../support/families.ts';
import { expectedProblem } from '../../support/problems.ts';
import { RecordingStore } from '../../support/recording-store.ts';
import { serve, type Served } from '../../support/serve.ts';

type PopulationPage = components['schemas']['ControlPopulationPage'];

const catalog = compileCatalogSources(paths.catalog);
const control = catalog.controls.find((candidate) => candidate.checks.length > 0)!;
const other = catalog.controls.find((candidate) => candidate.id !== control.id)!;
const today = '2026-11-24';
const yesterday = '2026-11-23';
const store = new RecordingStore(new MemoryStore());
const reports = new ReportStore(store);
let served: Served;

function reportOf(date: string, runId: string): Report {
  return {
    date,
    timeZone: 'UTC',
    asOf: `${date}T23:59:59.999Z`,
    generatedAt: `${date}T23:59:59.999Z`,
    runId,
    catalogVersion: catalog.version,
    summary: { score: 100, counts: { passing: 0, failing: 0, stale: 0, missing: 0, not_applicable: 0 }, controls: 0 },
    controls: [],
    diff: { previousDate: null, newlyFailing: [], fixed: [], newlyStale: [], changes: [] },
  };
}

/** `count` subjects `<prefix>00000` up, every third failing. */
function populationOf(kind: string, count: number, prefix = 'user-'): ControlPopulation {
  const subjects: SubjectOutcome[] = Array.from({ length: count }, (_, index) => ({
    subject: `${prefix}${String(index).padStart(5, '0')}`,
    outcome: index % 3 === 2 ? 'fail' : 'pass',
    evidenceId: `ev-${prefix}${index}`,
  }));
  // The published method (docs/sampling.md): ids sorted by their bytes, each followed by a line feed.
  const sha256 = createHash('sha256')
    .update(subjects.map((subject) => `${subject.subject}\n`).join(''))
    .digest('hex');
  return { controlId: control.id, kind, count, sha256, subjects };
}

const small = populationOf('idp.user', 5);
const large = populationOf('endpoint.device', 50_000, 'device-');
const republished = populationOf('idp.user', 2, 'other-');

beforeAll(async () => {
  setMode('public');
  await reports.create(reportOf(yesterday, 'daily-2026-11-23-aaaaaaaa'));
  await writeControlPopulations(store, { date: yesterday, runId: 'daily-2026-11-23-aaaaaaaa' }, [small, large]);
  await reports.create(reportOf(today, 'daily-2026-11-24-bbbbbbbb'));
  await writeControlPopulations(store, { date: today, runId: 'daily-2026-11-24-bbbbbbbb' }, [small]);
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

const population = (query: string, id = control.id, csv = false) =>
  fetch(`${served.url}/api/controls/${id}/population${csv ? '.csv' : ''}?${query}`);
const cursorOf = (date: string, runId: string, kind: string, next: number, id = control.id) =>
  encodeCursor('population', `${date}/${runId}/${id}/${kind}/${next}`);

describe('a page of a control\u2019s population', () => {
  it('answers the first page of the day\u2019s current report, with its count, hash and the cursor to the next', async () => {
    store.reset();
    const answer = await population(`date=${yesterday}&kind=idp.user&limit=2`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      controlId: control.id,
      date: yesterday,
      kind: 'idp.user',
      runId: 'daily-2026-11-23-aaaaaaaa',
      count: 5,
      sha256: small.sha256,
      subjects: [
        { subject: 'user-00000', outcome: 'pass', evidenceId: 'ev-user-0' },
        { subject: 'user-00001', outcome: 'pass', evidenceId: 'ev-user-1' },
      ],
      hasMore: true,
      nextCursor: cursorOf(yesterday, 'daily-2026-11-23-aaaaaaaa', 'idp.user', 2),
    });
    expect(store.calls).toEqual([
      { op: 'stat', name: `reports/day=${yesterday}/report.json` },
      { op: 'read', name: `control-populations/day=${yesterday}/daily-2026-11-23-aaaaaaaa/${control.id}/idp.user/header.json` },
      { op: 'read', name: `control-populations/day=${yesterday}/daily-2026-11-23-aaaaaaaa/${control.id}/idp.user/000000.json` },
    ]);
  });

  it('follows its cursors to the last page, which has none, giving every subject once', async () => {
    const seen: SubjectOutcome[] = [];
    let query = `date=${yesterday}&kind=idp.user&limit=2`;
    for (;;) {
      const body = (await (await population(query)).json()) as PopulationPage;
      seen.push(...body.subjects);
      if (!body.hasMore) {
        expect(body.nextCursor).toBeUndefined();
        break;
      }
      query = `date=${yesterday}&kind=idp.user&limit=2&cursor=${body.nextCursor}`;
    }
    expect(seen).toEqual(small.subjects);
  });

  it('defaults to today and to the page size the description gives', async () => {
    const body = (await (await population('kind=idp.user')).json()) as PopulationPage;
    expect([body.date, body.runId, body.subjects.length, body.hasMore]).toEqual([today, 'daily-2026-11-24-bbbbbbbb', 5, false]);
    expect(pageLimits.populationSubjects.default).toBeGreaterThan(5);
  });

  it('keeps to the report version its cursor began on when the day\u2019s report is republished', async () => {
    const first = (await (await population('kind=idp.user&limit=3')).json()) as PopulationPage;
    const current = await reports.find(today, { fresh: true });
    await writeControlPopulations(store, { date: today, runId: 'an-20261124120000000-cccccccc' }, [republished]);
    const now = () => new Date(`${today}T12:00:00Z`);
    const analysis = { by: 'analysis' as const, startedBy: { uid: 'u1', email: 'a@example.com' } };
    expect(await reports.publish(reportOf(today, 'an-20261124120000000-cccccccc'), current, now, analysis)).toBe('published');

    const next = (await (await population(`kind=idp.user&limit=3&cursor=${first.nextCursor}`)).json()) as PopulationPage;
    expect([next.runId, next.subjects]).toEqual(['daily-2026-11-24-bbbbbbbb', small.subjects.slice(3)]);
    const fresh = (await (await population('kind=idp.user')).json()) as PopulationPage;
    expect([fresh.runId, fresh.count, fresh.sha256, fresh.subjects]).toEqual([
      'an-20261124120000000-cccccccc',
      2,
      republished.sha256,
      republished.subjects,
    ]);
  });

  it('reads a control an analysis of other controls carried over from the version that evaluated it', async () => {
    const current = await reports.find(today, { fresh: true });
    const now = () => new Date(`${today}T13:00:00Z`);
    const analysis = { by: 'analysis' as const, startedBy: { uid: 'u1', email: 'a@example.com' } };
    // This analysis evaluated only another control, so it recorded no population of this one.
    await writeControlPopulations(store, { date: today, runId: 'an-20261124130000000-dddddddd' }, [
      { ...republished, controlId: other.id },
    ]);
    expect(await reports.publish(reportOf(today, 'an-20261124130000000-dddddddd'), current, now, analysis)).toBe('published');

    const page = (await (await population('kind=idp.user')).json()) as PopulationPage;
    expect([page.runId, page.count, page.subjects]).toEqual(['an-20261124120000000-cccccccc', 2, republished.subjects]);
    const csv = await population('kind=idp.user', control.id, true);
    expect(csv.headers.get('evident-report-run-id')).toBe('an-20261124120000000-cccccccc');
    const carried = (await (await population('kind=idp.user', other.id)).json()) as PopulationPage;
    expect(carried.runId).toBe('an-20261124130000000-dddddddd');
  });

  it('reads at most 25 objects for any page of a population of 50,000 subjects', async () => {
    const runId = 'daily-2026-11-23-aaaaaaaa';
    for (const next of [undefined, 1, 1999, 26_500, 49_999]) {
      store.reset();
      const cursor = next === undefined ? '' : `&cursor=${cursorOf(yesterday, runId, 'endpoint.device', next)}`;
      const answer = await population(
        `date=${yesterday}&kind=endpoint.device&limit=${pageLimits.populationSubjects.maximum}${cursor}`,
      );
      const body = (await answer.json()) as PopulationPage;
      expect(body.subjects[0]).toEqual(large.subjects[next ?? 0]);
      expect(body.subjects).toHaveLength(Math.min(pageLimits.populationSubjects.maximum, 50_000 - (next ?? 0)));
      expect(store.calls.length).toBeLessThanOrEqual(25);
      expect(store.calls.filter((call) => call.op === 'list')).toEqual([]);
    }
  });
});

describe('the population as CSV', () => {
  it('gives every subject in order with its outcome and evidence, named for saving, its count and hash in headers', async () => {
    const answer = await population(`date=${yesterday}&kind=idp.user`, control.id, true);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="${control.id}-${yesterday}-idp.user-population.csv"`,
    );
    expect(answer.headers.get('evident-population-count')).toBe('5');
    expect(answer.headers.get('evident-population-sha256')).toBe(small.sha256);
    expect(answer.headers.get('evident-report-run-id')).toBe('daily-2026-11-23-aaaaaaaa');
    expect(await answer.text()).toBe(
      [
        '"subject","outcome","evidence_id"',
        '"user-00000","pass","ev-user-0"',
        '"user-00001","pass","ev-user-1"',
        '"user-00002","fail","ev-user-2"',
        '"user-00003","pass","ev-user-3"',
        '"user-00004","pass","ev-user-4"',
        '',
      ].join('\r\n'),
    );
  });

  it('streams 50,000 subjects a chunk at a time, whose subjects hash to the population\u2019s SHA-256', async () => {
    store.reset();
    const answer = await population(`date=${yesterday}&kind=endpoint.device`, control.id, true);
    const rows = (await answer.text()).split('\r\n').slice(1, -1);
    expect(rows).toHaveLength(50_000);
    const subjects = rows.map((row) => JSON.parse(`[${row}]`)[0] as string);
    expect(
      createHash('sha256')
        .update(subjects.map((subject) => `${subject}\n`).join(''))
        .digest('hex'),
    ).toBe(large.sha256);
    expect(store.of('read')).toHaveLength(1 + 25);
  });
});

describe('what a population request cannot have', () => {
  const problem = async (answer: Response, code: Parameters<typeof expectedProblem>[0], detail: string, extra = {}) => {
    const instance = new URL(answer.url).pathname;
    expect(await answer.json()).toEqual(expectedProblem(code, detail, instance, answer.headers.get('x-request-id')!, extra));
  };

  it('answers 404 for a day without a report', async () => {
    const answer = await population('date=2026-11-01&kind=idp.user');
    expect(answer.status).toBe(404);
    await problem(answer, 'report_not_found', 'There is no report for 2026-11-01. GET /api/report lists the days that have one.');
  });

  it('answers 404 for a kind or a control the day\u2019s report recorded no population of', async () => {
    const kind = await population(`date=${yesterday}&kind=training.completion`);
    expect(kind.status).toBe(404);
    await problem(
      kind,
      'population_not_found',
      `The report of ${yesterday} records no population of training.completion for ${control.id}.`,
    );
    const otherControl = await population(`date=${yesterday}&kind=idp.user`, other.id, true);
    expect(otherControl.status).toBe(404);
    await problem(
      otherControl,
      'population_not_found',
      `The report of ${yesterday} records no population of idp.user for ${other.id}.`,
    );
  });

  it('answers 404 for a control the catalog does not have', async () => {
    const answer = await population('kind=idp.user', 'ZZZ-99');
    expect(answer.status).toBe(404);
    await problem(answer, 'control_not_found', 'No control in the catalog has the id "ZZZ-99".');
  });

  it.each([
    ['date=2026-02-30&kind=idp.user', 'date', 'is not a calendar date (YYYY-MM-DD)'],
    ['date=yesterday&kind=idp.user', 'date', 'must match pattern "^\\d{4}-\\d{2}-\\d{2}$"'],
    ['kind=idp.users', 'kind', 'must be equal to one of the allowed values'],
    ['limit=5', 'kind', 'is required'],
    ['kind=idp.user&limit=0', 'limit', 'must be >= 1'],
    [`kind=idp.user&limit=${pageLimits.populationSubjects.maximum + 1}`, 'limit', 'must be <= 1000'],
    ['kind=idp.user&cursor=bm90LWEtY3Vyc29y', 'cursor', 'is not a cursor this API gave out'],
    [
      `kind=idp.user&cursor=${cursorOf(today, 'daily-2026-11-24-bbbbbbbb', 'endpoint.device', 2)}`,
      'cursor',
      'is not a cursor this API gave out',
    ],
    [
      `kind=idp.user&cursor=${cursorOf(yesterday, 'daily-2026-11-23-aaaaaaaa', 'idp.user', 2)}`,
      'cursor',
      'is not a cursor this API gave out',
    ],
    [
      `kind=idp.user&cursor=${cursorOf(today, 'daily-2026-11-24-bbbbbbbb', 'idp.user', 5)}`,
      'cursor',
      'is not a cursor this API gave out',
    ],
  ])('refuses %s with a 400 naming the parameter', async (query, name, message) => {
    const answer = await population(query);
    expect(answer.status).toBe(400);
    const detail = `The query parameter "${name}" ${message}.`;
    await problem(answer, 'invalid_request', detail, { errors: [{ in: 'query', name, message }] });
  });
});

describe('a sample of the subjects a control was tested on', () => {
  const sample = (query: string, csv = false) =>
    fetch(`${served.url}/api/controls/${control.id}/population/sample${csv ? '.csv' : ''}?${query}`);
  /** The published method, re-derived here: rank by SHA-256 of `<seed>\n<subject>`, ascending, take the first n. */
  const expected = (seed: string, size: number) =>
    small.subjects
      .map((subject) => ({ ...subject, digest: createHash('sha256').update(`${seed}\n${subject.subject}`).digest('hex') }))
      .sort((a, b) => (a.digest < b.digest ? -1 : 1))
      .slice(0, size)
      .map(({ subject, digest, outcome, evidenceId }, index) => ({ rank: index + 1, subject, digest, outcome, evidenceId }));

  it('ranks the day\u2019s population by the seed and takes the first subjects, as anyone holding its CSV would', async () => {
    const answer = await sample(`date=${yesterday}&kind=idp.user&seed=fy2026-auditor&size=3`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      controlId: control.id,
      date: yesterday,
      kind: 'idp.user',
      runId: 'daily-2026-11-23-aaaaaaaa',
      count: 5,
      sha256: small.sha256,
      seed: 'fy2026-auditor',
      seedChosen: true,
      size: 3,
      suggestion: { frequency: 'daily', minimum: 20, maximum: 40 },
      sample: expected('fy2026-auditor', 3),
    });
  });

  it('takes the whole population when it is smaller than the suggested size, seeded by the day and kind', async () => {
    const body = (await (await sample(`date=${yesterday}&kind=idp.user`)).json()) as Record<string, unknown>;
    expect([body.seed, body.seedChosen, body.size, body.sample]).toEqual([
      `${yesterday}/idp.user`,
      false,
      40,
      expected(`${yesterday}/idp.user`, 40),
    ]);
  });

  it('gives the sample as CSV, rank by rank, named for saving', async () => {
    const answer = await sample(`date=${yesterday}&kind=idp.user&seed=s&size=2`, true);
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="${control.id}-${yesterday}-idp.user-sample.csv"`,
    );
    const rows = expected('s', 2).map(
      (row) => `"${row.rank}","${row.subject}","${row.digest}","${row.outcome}","${row.evidenceId}"`,
    );
    expect(await answer.text()).toBe(['"rank","subject","sha256","outcome","evidence_id"', ...rows, ''].join('\r\n'));
  });

  it('reads the 50,000-subject population a chunk at a time and keeps the sample of 60 it asks for', async () => {
    store.reset();
    const body = (await (await sample(`date=${yesterday}&kind=endpoint.device&seed=s&size=60`)).json()) as { sample: unknown[] };
    expect(body.sample).toHaveLength(60);
    // The header and its 25 chunks of 2,000 (the report names its run in metadata, a stat).
    expect(store.of('read')).toHaveLength(1 + 25);
  });

  it.each([
    ['kind=idp.user&size=0', 'size', 'must be >= 1'],
    ['kind=idp.user&size=61', 'size', 'must be <= 60'],
    ['kind=idp.user&seed=', 'seed', 'must NOT have fewer than 1 characters'],
  ])('refuses %s with a 400 naming the parameter', async (query, name, message) => {
    const answer = await sample(query);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { errors: unknown[] }).errors).toEqual([{ in: 'query', name, message }]);
  });

  it('answers 404 when the day\u2019s report recorded no such population', async () => {
    const answer = await sample(`date=${yesterday}&kind=training.completion`);
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { code: string }).code).toBe('population_not_found');
  });
});
