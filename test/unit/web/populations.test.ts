/**
 * How the app shows populations (hosting/src/lib/populations.ts): a completeness finding in
 * words, the 90-day chart of a source's population of a kind with its drops marked, the pages it
 * loads, and which sources the dashboard warns about.
 */
import { describe, expect, it } from 'vitest';
import type { CollectionPopulationPage, CollectionRun, CollectionSource, Finding } from '../../../hosting/src/lib/api-types.ts';
import {
  alertText,
  axisTop,
  chartSince,
  collectionAlerts,
  completenessFindings,
  completenessReasonText,
  dropsOfKind,
  kindsOfRuns,
  loadPopulations,
  maxChartPages,
  populationChart,
  shortHash,
  uncoveredText,
} from '../../../hosting/src/lib/populations.ts';

const hash = 'ab'.repeat(32);
const actor = { uid: 'u1' };
const run = (id: string, overrides: Partial<CollectionRun> = {}): CollectionRun => ({
  id,
  source: 'okta',
  kinds: ['idp.user'],
  status: 'complete',
  openedAt: '2026-09-01T00:00:00.000Z',
  openedBy: actor,
  expiresAt: '2026-09-01T06:00:00.000Z',
  ...overrides,
});
const drop = { kind: 'idp.user' as const, previousRunId: 'run-1', previousCount: 200, count: 150, percent: 25 };

describe('completeness findings', () => {
  it('are the findings with a completeness issue, in their order', () => {
    const subject: Finding = { outcome: 'pass', message: 'ada has MFA', evidence: ['e1'] };
    const dropped: Finding = {
      outcome: 'fail',
      message: 'The idp.user population of okta dropped by 25 %.',
      evidence: [],
      completeness: { reason: 'population_dropped', source: 'okta', runId: 'run-2' },
    };
    const uncovered: Finding = {
      outcome: 'fail',
      message: '2 active users have no device.',
      evidence: [],
      completeness: {
        reason: 'reconciliation',
        reconciliation: 'users-have-devices',
        uncovered: { count: 2, subjects: ['a', 'b'] },
      },
    };
    expect(completenessFindings([subject, dropped, uncovered])).toEqual([dropped, uncovered]);
  });

  it('word every reason', () => {
    expect(completenessReasonText).toEqual({
      run_incomplete: 'The newest collection run of a source it reads ended incomplete',
      run_outdated: 'The newest complete run of a source it reads is older than the evidence may be',
      population_dropped: 'The population shrank past the threshold, and nobody has acknowledged why',
      reconciliation: 'One population does not cover another, as the control requires',
    });
  });

  it('count the uncovered subjects, and say when only the first are listed', () => {
    expect(uncoveredText({ count: 1, subjects: ['ada@example.com'] })).toBe('1 subject not covered:');
    expect(uncoveredText({ count: 3, subjects: ['a', 'b', 'c'] })).toBe('3 subjects not covered:');
    const first20 = Array.from({ length: 20 }, (_, index) => `s${index}`);
    expect(uncoveredText({ count: 1045, subjects: first20 })).toBe('1,045 subjects not covered; the first 20:');
  });

  it('shorten a SHA-256 to its first twelve characters', () => {
    expect(shortHash(`0123456789ab${'f'.repeat(52)}`)).toBe('0123456789ab');
  });
});

describe('the population chart', () => {
  it('spans the 90 days up to and including today, in UTC', () => {
    expect(chartSince(new Date('2026-11-24T10:00:00Z'))).toBe('2026-08-27');
    expect(chartSince(new Date('2026-03-01T00:00:00Z'))).toBe('2025-12-02');
  });

  it.each([
    [0, 1],
    [1, 1],
    [7, 10],
    [120, 200],
    [200, 200],
    [201, 500],
    [5000, 5000],
  ])('tops its value axis for %i at %i', (largest, top) => {
    expect(axisTop(largest)).toBe(top);
  });

  it('draws each run where it completed, holds its count until the next and to now, and marks the run that dropped', () => {
    const populations = [
      { runId: 'run-2', completedAt: '2026-09-06T00:00:00.000Z', count: 150, sha256: hash },
      { runId: 'run-1', completedAt: '2026-09-01T00:00:00.000Z', count: 200, sha256: hash },
    ];
    const chart = populationChart(populations, new Map([['run-2', drop]]), '2026-09-01', new Date('2026-09-11T00:00:00Z'));
    expect(chart).toEqual({
      width: 640,
      height: 160,
      path: 'M48,12 H338 L338,43 H628',
      points: [
        { runId: 'run-1', completedAt: '2026-09-01T00:00:00.000Z', count: 200, x: 48, y: 12 },
        { runId: 'run-2', completedAt: '2026-09-06T00:00:00.000Z', count: 150, x: 338, y: 43, drop },
      ],
      ticks: [
        { value: 0, y: 136 },
        { value: 100, y: 74 },
        { value: 200, y: 12 },
      ],
      from: { label: '2026-09-01', x: 48 },
      to: { label: '2026-09-11', x: 628 },
    });
  });

  it('draws nothing for no run, with an axis of one', () => {
    const chart = populationChart([], new Map(), '2026-09-01', new Date('2026-09-11T00:00:00Z'));
    expect([chart.path, chart.points, chart.ticks.map((tick) => tick.value)]).toEqual(['', [], [0, 1]]);
  });

  it('marks a kind’s drops by the run that made them, and charts the kinds of the runs listed', () => {
    const runs = [
      run('run-3', { kinds: ['endpoint.device', 'idp.user'], drops: [{ ...drop, kind: 'endpoint.device' }] }),
      run('run-2', { drops: [drop] }),
      run('run-1'),
    ];
    expect([...dropsOfKind(runs, 'idp.user')]).toEqual([['run-2', drop]]);
    expect([...dropsOfKind(runs, 'endpoint.device')]).toEqual([['run-3', { ...drop, kind: 'endpoint.device' }]]);
    expect(kindsOfRuns(runs)).toEqual(['endpoint.device', 'idp.user']);
  });
});

describe('loading a chart’s populations', () => {
  const entry = (n: number) => ({ runId: `run-${n}`, completedAt: '2026-09-01T00:00:00.000Z', count: n, sha256: hash });

  it('follows each page’s cursor until no more follow', async () => {
    const asked: (string | undefined)[] = [];
    const pages: Record<string, CollectionPopulationPage> = {
      first: { items: [entry(3), entry(2)], hasMore: true, nextCursor: 'c1' },
      c1: { items: [entry(1)], hasMore: false },
    };
    const loaded = await loadPopulations(async (cursor) => {
      asked.push(cursor);
      return pages[cursor ?? 'first']!;
    });
    expect([asked, loaded]).toEqual([[undefined, 'c1'], { items: [entry(3), entry(2), entry(1)], cut: false }]);
  });

  it(`stops after ${maxChartPages} pages and says it did`, async () => {
    let asked = 0;
    const loaded = await loadPopulations(async () => ({ items: [entry(++asked)], hasMore: true, nextCursor: `c${asked}` }));
    expect([asked, loaded.items.length, loaded.cut]).toEqual([maxChartPages, maxChartPages, true]);
  });
});

describe('the dashboard’s collection notice', () => {
  const source = (name: string, newestRun: CollectionRun): CollectionSource => ({ source: name, newestRun });
  const acknowledged = { by: actor, at: '2026-09-02T00:00:00.000Z', reason: 'Reorganisation' };

  it('names the sources whose newest run is incomplete or cancelled or has a drop nobody acknowledged, and no other', () => {
    const sources = [
      source('complete', run('run-1')),
      source('running', run('run-2', { status: 'running' })),
      source('abandoned', run('run-3', { status: 'incomplete', incompleteReason: 'abandoned' })),
      source('cancelled', run('run-4', { status: 'cancelled', incompleteReason: 'cancelled' })),
      source('dropped', run('run-5', { drops: [drop, { ...drop, kind: 'endpoint.device', acknowledged }] })),
      source('acknowledged', run('run-6', { drops: [{ ...drop, acknowledged }] })),
    ];
    const alerts = collectionAlerts(sources);
    expect(alerts).toEqual([
      { source: 'abandoned', incomplete: 'abandoned', unacknowledged: [] },
      { source: 'cancelled', incomplete: 'cancelled', unacknowledged: [] },
      { source: 'dropped', unacknowledged: ['idp.user'] },
    ]);
    expect(alerts.map(alertText)).toEqual([
      'its newest run is incomplete (not completed in time)',
      'its newest run is incomplete (cancelled)',
      'a drop of idp.user awaits acknowledgment',
    ]);
    expect(alertText({ source: 'both', incomplete: 'counts_disagree', unacknowledged: ['idp.user', 'endpoint.device'] })).toBe(
      'its newest run is incomplete (counts disagree); a drop of idp.user, endpoint.device awaits acknowledgment',
    );
  });

  it('is empty when all is well', () => {
    expect(collectionAlerts([source('complete', run('run-1')), source('running', run('run-2', { status: 'running' }))])).toEqual(
      [],
    );
  });
});
